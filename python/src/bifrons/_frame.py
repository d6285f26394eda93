# SPDX-License-Identifier: MIT
"""The frame of a typed file (docs/format.md section 30): magic, format version, type name."""

from __future__ import annotations

from typing import NamedTuple, Optional

from ._errors import DecodeError, Errc
from ._state import ReadOptions, Reader, varint_bytes

MAGIC = b"\x89bfr"
FORMAT = 1
CRC32C_FLAG = 0x10  # the frame ends with the CRC32C of its bytes before it (section 30)


class Frame(NamedTuple):
    """A frame read from the start of some bytes."""

    type_name: str
    """The root type's name: a schema's ``type_name`` (invalid UTF-8 replaced by U+FFFD)."""
    size: int
    """The frame's bytes: the value starts there."""
    name_offset: int
    """Where the name's length is (the offset of a ``type_mismatch``)."""
    checksummed: bool = False
    """Whether the frame's last 4 bytes are a CRC32C of every byte before them."""


KAFKA_FINGERPRINT_PREFIX = 0xBF  # then the writer's schema fingerprint, 8 bytes (docs/kafka.md)


def kafka_fingerprint_prefix_size(data: bytes) -> int:
    """9 if data is a Kafka value whose frame follows its writer's schema fingerprint
    (``0xbf``, 8 bytes, then the frame's magic), else 0."""
    if len(data) >= 9 + len(MAGIC) and data[0] == KAFKA_FINGERPRINT_PREFIX and data[9 : 9 + len(MAGIC)] == MAGIC:
        return 9
    return 0


def kafka_fingerprint(data: bytes) -> Optional[str]:
    """The writer's schema fingerprint of a Kafka value, as the 16 hex digits its schema file is
    named by (docs/kafka.md), or None if the value has no fingerprint prefix."""
    return bytes(data[1:9]).hex() if kafka_fingerprint_prefix_size(data) else None


def frame_header(type_name: str) -> bytes:
    name = type_name.encode("utf-8")
    return MAGIC + varint_bytes(FORMAT) + varint_bytes(len(name)) + name


def read_frame(data: bytes) -> Frame:
    """Reads the frame at the start of data: ``not_bifrons`` without the magic or with another
    format version, ``unexpected_end`` or ``malformed_varint`` for a broken one."""
    data = bytes(data)
    if data[: len(MAGIC)] != MAGIC:
        raise DecodeError(Errc.not_bifrons, 0, "no frame magic")
    r = Reader(data, ReadOptions(), pos=len(MAGIC))
    version = r.varint()
    if version not in (FORMAT, FORMAT | CRC32C_FLAG):
        raise DecodeError(Errc.not_bifrons, len(MAGIC), f"format version {version}")
    name_offset = r.pos
    length = r.varint()
    if length > r.limit - r.pos:
        raise DecodeError(Errc.unexpected_end, name_offset, f"a type name of {length} bytes")
    name = data[r.pos : r.pos + length].decode("utf-8", "replace")
    return Frame(name, r.pos + length, name_offset, version != FORMAT)
