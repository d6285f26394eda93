# SPDX-License-Identifier: MIT
"""Logs (docs/format.md section 36): many messages of one type in a file or stream, each with
its length and a CRC32C, read one at a time in memory bounded by the largest message plus a
fixed buffer, as the C++ ``bifrons::log_reader`` reads them."""

from __future__ import annotations

import os
import struct
from typing import IO, Any, Iterator, List, Optional, Union

from ._crc32c import crc32c, multiply, register, zero_bytes
from ._errors import DecodeError, Errc
from ._state import ReadOptions

LOG_MAGIC = b"\x89blg"
LOG_FORMAT = 1
RECORD_HEADER = 16
MAX_NAME = 4096
_CHUNK = 64 << 10
_MARK_SPACING = 64

__all__ = ["LogReader", "crc32c", "read_log"]


class LogReader:
    """Iterates the messages of a log as JSON values of ``schema``'s root type.

    ``source`` is a path or a binary file object (read from its position; not closed). Damage
    raises :class:`DecodeError` (``checksum_mismatch`` at the damaged record's offset), as does a
    message the schema cannot read (at its byte in the log), unless ``skip_damaged``: then
    damaged stretches are skipped (``damaged_stretches``, ``skipped_bytes``). A torn tail ends the
    iteration: ``torn_tail_bytes`` bytes at ``end_offset``. ``options`` apply to each message, and
    ``max_alloc_bytes`` bounds a record's length, checked before it is read.

    Resynchronisation is linear in the bytes scanned, as the C++ reader's is: payloads that start
    inside bytes a failed check covered are checked from CRC registers kept every 64 bytes, and
    the buffer drops consumed bytes only once they are an eighth of what it holds.
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
        self._buf = bytearray()
        self._pos = 0  # the first unread byte of _buf
        self._consumed = 0  # the log offset of _buf[0]
        self._eof = False
        self._checked_until = 0  # the end of the furthest payload whose check failed
        self._marks: List[int] = []  # the CRC register at _marks_base + j * _MARK_SPACING
        self._marks_base = 0
        self._work = 0  # bytes checksummed, searched or moved: linear in the bytes read
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
        if self._pos and self._pos >= self._available() // 8:
            self._compact()
        have = self._available()
        while have < n:
            # At most 1 MiB a call: a length that claims more than the file holds costs what it holds.
            chunk = self._file.read(min(max(n - have, _CHUNK), 1 << 20))
            if not chunk:
                self._eof = True
                break
            self._buf += chunk
            have += len(chunk)
        return have >= n

    def _compact(self) -> None:
        """Drops the consumed bytes, but those from the last register mark at or before _pos."""
        start = self._pos
        if self._marks:
            first_unread = self._offset()
            last_mark = self._marks_base + (len(self._marks) - 1) * _MARK_SPACING
            if last_mark < first_unread:
                self._marks = []
            else:
                drop = (first_unread - self._marks_base) // _MARK_SPACING
                del self._marks[:drop]
                self._marks_base += drop * _MARK_SPACING
                start = self._pos - (first_unread - self._marks_base)
        self._work += len(self._buf) - start
        del self._buf[:start]
        self._consumed += start
        self._pos -= start

    def _payload_crc(self, at: int, p: int, length: int) -> int:
        """The payload's CRC32C (at: its offset, p: its index): from its bytes, unless it starts
        inside bytes a failed check covered; then from the register marks."""
        if at >= self._checked_until:
            self._work += length
            return crc32c(self._buf[p : p + length])
        before = self._register_at(at)
        after = self._register_at(at + length)
        return after ^ multiply(before ^ 0xFFFFFFFF, zero_bytes(length)) ^ 0xFFFFFFFF

    def _register_at(self, offset: int) -> int:
        if not self._marks:
            self._marks_base = self._offset()
            self._marks.append(0)
        j = (offset - self._marks_base) // _MARK_SPACING
        while len(self._marks) <= j:
            start = self._marks_base + (len(self._marks) - 1) * _MARK_SPACING - self._consumed
            self._marks.append(register(self._buf[start : start + _MARK_SPACING], self._marks[-1]))
            self._work += _MARK_SPACING
        start = self._marks_base + j * _MARK_SPACING
        self._work += offset - start
        return register(self._buf[start - self._consumed : offset - self._consumed], self._marks[j])

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
        self._sync = bytes(self._buf[at : at + 4])
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
                header = bytes(self._buf[p : p + RECORD_HEADER])
                length, payload_crc, header_crc = struct.unpack_from("<III", header, 4)
                what = ""
                self._work += 12
                if header[:4] != self._sync or crc32c(header[:12]) != header_crc:
                    what = "record header"
                else:
                    if length > self._options.max_alloc_bytes:
                        raise DecodeError(Errc.allocation_limit_exceeded, at + 4, "record header")
                    if not self._fill(RECORD_HEADER + length):
                        if in_damage:
                            # Damage that runs to the end: skipped, like the rest of the stretch.
                            self.end_offset = self._consumed + len(self._buf)
                            self.skipped_bytes += self.end_offset - damage_start
                        else:
                            self.end_offset, self.torn_tail_bytes = at, self._available()
                        return
                    p = self._pos + RECORD_HEADER
                    if self._payload_crc(at + RECORD_HEADER, p, length) != payload_crc:
                        self._checked_until = max(self._checked_until, at + RECORD_HEADER + length)
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
                payload = bytes(self._buf[p : p + length])
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
                self._work += found - self._pos
                self._pos = found
                return
            self._work += len(self._buf) - self._pos
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
