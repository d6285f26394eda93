# SPDX-License-Identifier: MIT
"""CRC32C (Castagnoli, reflected polynomial 0x82f63b78, as include/bifrons/detail/crc32c.hpp):
the checksum of logs and checksummed frames.

A compiled CRC32C is used when one is importable (the ``google-crc32c`` package's C extension,
or the ``crc32c`` package), since a pure-Python CRC runs at tens of MB/s; otherwise tables
("slicing by 8": 8 x 256 entries, and for inputs of 256 bytes or more 4 x 65,536 entries that
take two bytes per lookup, built on first use in about 30 ms, 1 MiB), with the same results.
Neither package is a dependency.
``implementation`` names the one in use.

``multiply`` and ``zero_bytes`` join CRC registers across a distance, as the C++ reader does to
check a resynchronising candidate's payload without reading it again.
"""

from __future__ import annotations

import struct
from array import array
from typing import Callable, List, Optional, Sequence, Tuple

POLYNOMIAL = 0x82F63B78


def _tables() -> List[List[int]]:
    first = []
    for b in range(256):
        crc = b
        for _ in range(8):
            crc = (crc >> 1) ^ (POLYNOMIAL if crc & 1 else 0)
        first.append(crc)
    tables = [first]
    for _ in range(7):
        last = tables[-1]
        tables.append([(c >> 8) ^ first[c & 0xFF] for c in last])
    return tables


_TABLES = _tables()
_PAIRS: Optional[Sequence["array[int]"]] = None


def _pairs() -> Sequence["array[int]"]:
    # The 8 tables joined two by two: one lookup per two bytes (each table entry for a byte
    # followed by k zero bytes, as in _tables). Arrays, not lists: a fifth of the memory, and
    # faster to index here than lists of 65,536 distinct ints.
    global _PAIRS
    if _PAIRS is None:
        t = _TABLES
        _PAIRS = [array("I", [t[a][v & 0xFF] ^ t[a - 1][v >> 8] for v in range(65536)]) for a in (7, 5, 3, 1)]
    return _PAIRS


def _words_by_pairs(words: memoryview, crc: int) -> int:
    u3, u2, u1, u0 = _pairs()
    for lo, h0, h1 in struct.iter_unpack("<IHH", words):
        lo ^= crc
        crc = u3[lo & 0xFFFF] ^ u2[lo >> 16] ^ u1[h0] ^ u0[h1]
    return crc


def _words_by_bytes(words: memoryview, crc: int) -> int:
    t0, t1, t2, t3, t4, t5, t6, t7 = _TABLES
    for lo, hi in struct.iter_unpack("<II", words):
        lo ^= crc
        crc = (
            t7[lo & 0xFF]
            ^ t6[(lo >> 8) & 0xFF]
            ^ t5[(lo >> 16) & 0xFF]
            ^ t4[lo >> 24]
            ^ t3[hi & 0xFF]
            ^ t2[(hi >> 8) & 0xFF]
            ^ t1[(hi >> 16) & 0xFF]
            ^ t0[hi >> 24]
        )
    return crc


def crc32c_pure(data: bytes, crc: int = 0) -> int:
    """The pure-Python CRC32C of data, continuing crc (the CRC32C of the bytes before)."""
    crc ^= 0xFFFFFFFF
    n = len(data)
    whole = n - n % 8
    # Each 8 bytes: the first 4 xor the register, then one lookup per byte (or per two bytes) in
    # the table of the zero bytes that follow it.
    words = memoryview(data)[:whole]
    crc = _words_by_pairs(words, crc) if n >= 256 else _words_by_bytes(words, crc)
    t0 = _TABLES[0]
    for b in bytes(data[whole:]):
        crc = (crc >> 8) ^ t0[(crc ^ b) & 0xFF]
    return crc ^ 0xFFFFFFFF


def _compiled() -> Tuple[Optional[Callable[[bytes, int], int]], str]:
    try:
        import google_crc32c  # type: ignore[import-not-found,import-untyped,unused-ignore]

        if getattr(google_crc32c, "implementation", "") == "c":
            extend = google_crc32c.extend
            # It takes read-only buffers only.
            return (lambda data, crc: extend(crc, data if isinstance(data, bytes) else bytes(data))), "google-crc32c"
    except ImportError:
        pass
    try:
        import crc32c as crc32c_package  # type: ignore[import-not-found,import-untyped,unused-ignore]

        compute = crc32c_package.crc32c
        return (lambda data, crc: compute(data, value=crc)), "crc32c"
    except (ImportError, AttributeError):
        pass
    return None, "python"


_COMPILED, implementation = _compiled()


def crc32c(data: bytes, crc: int = 0) -> int:
    """CRC32C (Castagnoli) of data, continuing crc: the checksum of logs and checksummed frames."""
    if _COMPILED is not None:
        return _COMPILED(data, crc)
    return crc32c_pure(data, crc)


def multiply(a: int, b: int) -> int:
    """a times b modulo the polynomial, both reflected (x^0 in bit 31)."""
    product = 0
    bit = 1 << 31
    while a:
        if a & bit:
            product ^= b
            a ^= bit
        b = (b >> 1) ^ POLYNOMIAL if b & 1 else b >> 1
        bit >>= 1
    return product


def _byte_powers() -> List[List[int]]:
    # powers[k][d]: x^(8 d 256^k), for a length's 4 bytes (k) and their values (d).
    powers = []
    step = 1 << 23  # x^8: a register times it has one more zero byte
    for _ in range(4):
        row = [1 << 31]
        for _ in range(255):
            row.append(multiply(row[-1], step))
        powers.append(row)
        step = multiply(row[-1], step)  # x^(8 256^(k+1))
    return powers


_POWERS: Optional[List[List[int]]] = None


def zero_bytes(n: int) -> int:
    """x^(8 n) modulo the polynomial: a register times it is the register after n zero bytes
    (n below 2^32; four multiplications at most)."""
    global _POWERS
    if _POWERS is None:
        _POWERS = _byte_powers()
    power = 1 << 31
    for row in _POWERS:
        if n & 0xFF:
            power = multiply(power, row[n & 0xFF])
        n >>= 8
    return power


def register(data: bytes, reg: int) -> int:
    """The CRC register after data, from reg (a register is the CRC before its final xor)."""
    return crc32c(data, reg ^ 0xFFFFFFFF) ^ 0xFFFFFFFF
