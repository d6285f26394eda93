# SPDX-License-Identifier: MIT
"""Logs (docs/format.md section 36): many messages of one type in a file or stream, each with
its length and a CRC32C, read one at a time in memory bounded by the largest message plus a
fixed buffer, as the C++ ``bifrons::log_reader`` reads them."""

from __future__ import annotations

import os
import struct
from typing import IO, Any, Iterator, List, Optional, Union

from ._errors import DecodeError, Errc
from ._state import ReadOptions

LOG_MAGIC = b"\x89blg"
LOG_FORMAT = 1
RECORD_HEADER = 16
MAX_NAME = 4096
_CHUNK = 64 << 10


def _crc32c_table() -> List[int]:
    table = []
    for b in range(256):
        crc = b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
        table.append(crc)
    return table


_TABLE = _crc32c_table()


def crc32c(data: bytes, crc: int = 0) -> int:
    """CRC32C (Castagnoli) of data, continuing crc: the checksum of logs and checksummed frames."""
    crc ^= 0xFFFFFFFF
    table = _TABLE
    for b in data:
        crc = (crc >> 8) ^ table[(crc ^ b) & 0xFF]
    return crc ^ 0xFFFFFFFF


class LogReader:
    """Iterates the messages of a log as JSON values of ``schema``'s root type.

    ``source`` is a path or a binary file object (read from its position; not closed). Damage
    raises :class:`DecodeError` (``checksum_mismatch`` at the damaged record's offset), as does a
    message the schema cannot read (at its byte in the log), unless ``skip_damaged``: then
    damaged stretches are skipped (``damaged_stretches``, ``skipped_bytes``). A torn tail ends the
    iteration: ``torn_tail_bytes`` bytes at ``end_offset``. ``options`` apply to each message, and
    ``max_alloc_bytes`` bounds a record's length, checked before it is read.
    """

    def __init__(
        self,
        schema: Any,
        source: Union[str, "os.PathLike[str]", IO[bytes]],
        options: Optional[ReadOptions] = None,
        skip_damaged: bool = False,
    ) -> None:
        self._schema = schema
        self._options = options or ReadOptions()
        self._skip = skip_damaged
        if isinstance(source, (str, os.PathLike)):
            self._file: IO[bytes] = open(source, "rb")  # noqa: SIM115 (closed at the end)
            self._owned = True
        else:
            self._file = source
            self._owned = False
        self._buf = b""
        self._pos = 0  # the first unread byte of _buf
        self._consumed = 0  # the log offset of _buf[0]
        self._eof = False
        self.type_name = ""
        self.writer_schema = ""
        self.end_offset = 0
        self.torn_tail_bytes = 0
        self.damaged_stretches = 0
        self.skipped_bytes = 0
        self.messages = 0
        try:
            self._read_header()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._owned:
            self._file.close()
            self._owned = False

    def __enter__(self) -> "LogReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the buffer ---------------------------------------------------------------------------

    def _available(self) -> int:
        return len(self._buf) - self._pos

    def _fill(self, n: int) -> bool:
        """Makes n bytes available at _pos (False: the input ends first)."""
        if self._available() >= n:
            return True
        if self._eof:
            return False
        self._consumed += self._pos
        parts = [self._buf[self._pos :]]
        have = len(parts[0])
        while have < n:
            # At most 1 MiB a call: a length that claims more than the file holds costs what it holds.
            chunk = self._file.read(min(max(n - have, _CHUNK), 1 << 20))
            if not chunk:
                self._eof = True
                break
            parts.append(chunk)
            have += len(chunk)
        self._buf = b"".join(parts)
        self._pos = 0
        return have >= n

    def _offset(self) -> int:
        return self._consumed + self._pos

    # -- the header ---------------------------------------------------------------------------

    def _varint(self, at: int) -> int:
        value, shift = 0, 0
        while True:
            if not self._fill(at + 1):
                raise DecodeError(Errc.unexpected_end, self._consumed + len(self._buf), "log header")
            b = self._buf[at]
            at += 1
            if shift == 63 and b > 1:
                raise DecodeError(Errc.malformed_varint, self._consumed + at - 1, "log header")
            value |= (b & 0x7F) << shift
            if b < 0x80:
                if b == 0 and shift != 0:
                    raise DecodeError(Errc.malformed_varint, self._consumed + at - 1, "log header")
                self._at = at
                return value
            shift += 7

    def _text(self, at: int, limit: int) -> str:
        n = self._varint(at)
        if n > limit:
            raise DecodeError(Errc.allocation_limit_exceeded, at, "log header")
        start = self._at
        if not self._fill(start + n):
            raise DecodeError(Errc.unexpected_end, self._consumed + len(self._buf), "log header")
        self._at = start + n
        return self._buf[start : start + n].decode("utf-8", "replace")

    def _read_header(self) -> None:
        if not self._fill(4) or self._buf[:4] != LOG_MAGIC:
            raise DecodeError(Errc.not_bifrons, 0, "no log magic")
        if self._varint(4) != LOG_FORMAT:
            raise DecodeError(Errc.not_bifrons, 4, "log format version")
        name_offset = self._at
        self.type_name = self._text(name_offset, MAX_NAME)
        self.writer_schema = self._text(self._at, self._options.max_alloc_bytes)
        at = self._at
        if not self._fill(at + 8):
            raise DecodeError(Errc.unexpected_end, self._consumed + len(self._buf), "log header")
        self._sync = self._buf[at : at + 4]
        if crc32c(self._buf[: at + 4]) != struct.unpack_from("<I", self._buf, at + 4)[0]:
            raise DecodeError(Errc.checksum_mismatch, at + 4, "log header")
        if self.type_name != self._schema.type_name:
            raise DecodeError(Errc.type_mismatch, name_offset, f"the log holds {self.type_name!r}")
        self._pos = at + 8
        self.end_offset = self._pos

    # -- records ------------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Any]:
        in_damage, damage_start = False, 0
        try:
            while True:
                at = self._offset()
                if not self._fill(RECORD_HEADER):
                    if in_damage:
                        self.skipped_bytes += self._consumed + len(self._buf) - damage_start
                        self.end_offset = self._consumed + len(self._buf)
                    else:
                        self.end_offset, self.torn_tail_bytes = at, self._available()
                    return
                p = self._pos
                header = self._buf[p : p + RECORD_HEADER]
                length, payload_crc, header_crc = struct.unpack_from("<III", header, 4)
                what = ""
                if header[:4] != self._sync or crc32c(header[:12]) != header_crc:
                    what = "record header"
                else:
                    if length > self._options.max_alloc_bytes:
                        raise DecodeError(Errc.allocation_limit_exceeded, at + 4, "record header")
                    if not self._fill(RECORD_HEADER + length):
                        self.end_offset, self.torn_tail_bytes = at, self._available()
                        return
                    p = self._pos
                    payload = self._buf[p + RECORD_HEADER : p + RECORD_HEADER + length]
                    if crc32c(payload) != payload_crc:
                        what = "record payload"
                if what:
                    if not self._skip:
                        raise DecodeError(Errc.checksum_mismatch, at, what)
                    if not in_damage:
                        in_damage, damage_start = True, at
                        self.damaged_stretches += 1
                    self._resync()
                    continue
                if in_damage:
                    self.skipped_bytes += at - damage_start
                    in_damage = False
                try:
                    value = self._schema.decode(payload, self._options)
                except DecodeError as e:
                    raise DecodeError(e.code, at + RECORD_HEADER + e.offset, f"message: {e.message}") from None
                self._pos += RECORD_HEADER + length
                self.end_offset = self._offset()
                self.messages += 1
                yield value
        finally:
            self.close()

    def _resync(self) -> None:
        """Moves to the next sync marker after the damaged record at _pos (or to the end)."""
        self._pos += 1
        while True:
            found = self._buf.find(self._sync, self._pos)
            if found >= 0:
                self._pos = found
                return
            self._pos = max(self._pos, len(self._buf) - 3)
            if not self._fill(self._available() + 1):
                return


def read_log(
    schema: Any,
    source: Union[str, "os.PathLike[str]", IO[bytes]],
    options: Optional[ReadOptions] = None,
    skip_damaged: bool = False,
) -> LogReader:
    """A :class:`LogReader`: ``for value in bifrons.read_log(schema, "events.log"): ...``."""
    return LogReader(schema, source, options, skip_damaged)
