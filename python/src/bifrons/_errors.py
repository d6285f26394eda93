# SPDX-License-Identifier: MIT
"""The error codes of docs/format.md section 26 and the package's exception types."""

from __future__ import annotations

import enum
from typing import Optional


class Errc(enum.IntEnum):
    """Why a read or a write failed: the names and numbers of include/bifrons/error.hpp."""

    ok = 0
    unexpected_end = 1
    buffer_too_small = 2
    malformed_varint = 3
    value_out_of_range = 4
    invalid_value = 5
    count_exceeds_input = 6
    depth_limit_exceeded = 7
    allocation_limit_exceeded = 8
    element_limit_exceeded = 9
    trailing_bytes = 10
    duplicate_key = 11
    misaligned_view = 12
    out_of_memory = 13
    stream_error = 14
    user_error = 15
    bucket_limit_exceeded = 16
    invalid_stride = 17
    unwritten_pointee = 18
    ownership_conflict = 19
    ownership_cycle = 20
    object_limit_exceeded = 21
    unknown_type = 22
    unregistered_type = 23
    not_bifrons = 24
    type_mismatch = 25
    newer_version = 26
    non_canonical = 28
    checksum_mismatch = 29


class Error(Exception):
    """Every exception the package raises on bad bytes, bad values or bad schemas.

    ``code`` is an :class:`Errc` where the library defines one (always for
    :class:`DecodeError`), else ``None``; ``path`` names the place in the value
    (``.orders[2].price``) or in the schema document.
    """

    def __init__(self, message: str, code: Optional[Errc] = None, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self._segments = [path] if path else []

    @property
    def path(self) -> str:
        return "".join(reversed(self._segments)) or "(root)"

    def _within(self, segment: str) -> "Error":
        """Records, while the error unwinds, the container it passed through."""
        self._segments.append(segment)
        return self

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class DecodeError(Error):
    """Bytes that the schema's type cannot read: ``code`` at byte ``offset`` of the input."""

    code: Errc

    def __init__(self, code: Errc, offset: int, message: str = "") -> None:
        super().__init__(message or code.name, code)
        self.offset = offset

    def __str__(self) -> str:
        detail = "" if self.message == self.code.name else f" ({self.message})"
        return f"{self.code.name} at byte {self.offset}, {self.path}{detail}"


class EncodeError(Error):
    """A value that does not fit the schema, or that no writer could write faithfully."""


class SchemaError(Error):
    """A schema document that does not follow docs/schema.md; ``path`` is the place in it."""

    def _within(self, segment: str) -> "Error":
        return self  # raised while reading a field default: the path is the document's
