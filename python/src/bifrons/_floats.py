# SPDX-License-Identifier: MIT
"""Floating-point values as JSON (docs/schema.md section 10), bit-exact both ways.

A finite value is a Python float; for ``f32`` the shortest decimal that rounds back to the same
32 bits (``0.1``, not ``0.10000000149011612``). Infinities are ``"inf"`` and ``"-inf"``, the
quiet NaN of each width ``"nan"``, any other NaN ``"nan:"`` and its bits in hex.
"""

from __future__ import annotations

import itertools
import math
import struct
from typing import Optional, Union

_F32 = struct.Struct("<f")
_U32 = struct.Struct("<I")
_F64 = struct.Struct("<d")
_U64 = struct.Struct("<Q")

FloatJson = Union[float, str]


def f32_from_bits(bits: int) -> FloatJson:
    if bits & 0x7F800000 == 0x7F800000:
        if bits & 0x007FFFFF == 0:
            return "-inf" if bits >> 31 else "inf"
        return "nan" if bits == 0x7FC00000 else "nan:%08x" % bits
    exact = _F32.unpack(_U32.pack(bits))[0]
    # The shortest decimal that reads back as the same float: what C++'s to_chars(float) gives.
    for digits in range(1, 10):
        candidate = float("%.*g" % (digits, exact))
        try:
            if _F32.pack(candidate) == _F32.pack(exact):
                return candidate
        except OverflowError:
            continue
    return exact


def f64_from_bits(bits: int) -> FloatJson:
    if bits & 0x7FF0000000000000 == 0x7FF0000000000000:
        if bits & 0x000FFFFFFFFFFFFF == 0:
            return "-inf" if bits >> 63 else "inf"
        return "nan" if bits == 0x7FF8000000000000 else "nan:%016x" % bits
    return _F64.unpack(_U64.pack(bits))[0]


def _special_bits(value: str, width: int) -> Optional[int]:
    """The bits of "inf", "-inf", "nan" or "nan:<hex>" at width 4 or 8, or None."""
    if width == 4:
        sign, exponent, quiet = 0x80000000, 0x7F800000, 0x7FC00000
    else:
        sign, exponent, quiet = 0x8000000000000000, 0x7FF0000000000000, 0x7FF8000000000000
    if value == "inf":
        return exponent
    if value == "-inf":
        return sign | exponent
    if value == "nan":
        return quiet
    if value.startswith("nan:") and len(value) == 4 + 2 * width:
        digits = value[4:]
        if all(c in "0123456789abcdef" for c in digits):
            bits = int(digits, 16)
            if bits & exponent == exponent and bits & ~(sign | exponent) != 0:
                return bits
    return None


def float_bits(value: object, width: int) -> Optional[int]:
    """The IEEE-754 bits of a float value at width 4 or 8, or None if it is not one.

    Accepts the JSON forms and, for convenience, Python ints and floats (math.inf, math.nan).
    """
    if isinstance(value, str):
        return _special_bits(value, width)
    if type(value) is int:
        try:
            value = float(value)
        except OverflowError:
            return None
    elif type(value) is not float:
        return None
    try:
        if width == 4:
            return _U32.unpack(_F32.pack(value))[0]
        return _U64.unpack(_F64.pack(value))[0]
    except OverflowError:  # a finite double beyond the range of f32
        return None


class NaN:
    """A NaN as a key: equal to nothing but itself, and its repr too (a serial number, not an
    address that a later object may reuse), for the set of keys read (_codecs._table_key)."""

    __slots__ = ("serial",)
    _serials = itertools.count()

    def __init__(self) -> None:
        self.serial = next(NaN._serials)

    def __repr__(self) -> str:
        return f"NaN#{self.serial}"


def float_key(value: FloatJson) -> object:
    """What decides whether two float keys are equal: -0.0 equals 0.0, a NaN equals nothing."""
    if isinstance(value, str):
        if value.startswith("nan"):
            return NaN()
        return math.inf if value == "inf" else -math.inf
    if value != value:
        return NaN()
    return value + 0.0
