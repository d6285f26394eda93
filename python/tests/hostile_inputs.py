# SPDX-License-Identifier: MIT
"""Inputs of the security review's findings (12-14), shared by test_limits.py and the
subprocesses it runs them in (which bound their memory and time)."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from conftest import GOLDEN


def varint(x: int) -> bytes:
    out = bytearray()
    while x >= 0x80:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)


def zigzag(x: int) -> int:
    return (x << 1) ^ (x >> 63)


def doubling_defaults(k: int) -> Dict[str, Any]:
    """Finding 12: T_j {a: T_j-1 = "00", b: T_j-1 = "00"}: the default of T_k, an empty
    envelope, is a tree of 2^k T_0s."""
    types: Dict[str, Any] = {"T0": {"kind": "struct", "fields": [{"name": "x", "type": "i32", "default": "00"}]}}
    for j in range(1, k + 1):
        types[f"T{j}"] = {"kind": "struct", "fields": [
            {"name": "a", "type": f"T{j - 1}", "default": "00"},
            {"name": "b", "type": f"T{j - 1}", "default": "00"},
        ]}
    return {"bifrons_schema": 1, "format": 1, "root": f"T{k}", "types": types}


def record_books() -> Tuple[Dict[str, Any], bytes]:
    """Finding 13: 73 bytes of sequence<golden::RecBook>: 4 books, each with 3 blocks of 2^26
    records of stride 0 (ticks, path, marks; `last` an empty record). 6 GiB as lists."""
    document = json.loads((GOLDEN / "record_book.schema.json").read_text())
    document["root"] = {"kind": "sequence", "element": "golden::RecBook"}
    block = varint(1 << 26) + b"\x00"  # count, stride 0
    body = b"\x00" + block + b"\x00" + block + block  # name "", ticks, last, path, marks
    book = varint(len(body) << 1) + body
    return document, varint(4) + book * 4


# CPython's tuple hash (3.8 and later, xxHash's rounds): acc = P5; for each element,
# acc = rotl(acc + hash(element) * P2, 31) * P1; then acc += len ^ (P5 ^ 3527539). Each step
# can be undone, so for any first element a second one can be found that gives the pair any hash.
_M = 1 << 64
_P1, _P2, _P5 = 11400714785074694791, 14029467366897019727, 2870177450012600261
_HASH_MODULUS = (1 << 61) - 1  # an int's hash is itself modulo this (sys.hash_info.modulus)


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) % _M


def colliding_pairs(n: int) -> List[Tuple[int, int]]:
    """n distinct pairs of i64 with one hash, (a, b) for a = 0, 1, 2, ...: b solves the last
    round for a fixed accumulator (about one a in four has an int b of that hash)."""
    target = 0x0123456789ABCDEF  # the accumulator after both rounds
    before_last = _rotl(target * pow(_P1, -1, _M) % _M, 64 - 31)
    p2_inverse = pow(_P2, -1, _M)
    pairs = []
    a = 0
    while len(pairs) < n:
        acc = _rotl((_P5 + (hash(a) % _M) * _P2) % _M, 31) * _P1 % _M
        lane = (before_last - acc) * p2_inverse % _M  # the hash b must have, mod 2^64
        if lane < _HASH_MODULUS:
            pairs.append((a, lane))
        elif _M - lane < _HASH_MODULUS and lane != _M - 1:  # -1 is no int's hash
            pairs.append((a, lane - _M))
        a += 1
    return pairs


def set_of_pairs(pairs: List[Tuple[int, int]]) -> bytes:
    """The bytes of a set<tuple<i64, i64>> of these pairs (zigzag varints)."""
    return varint(len(pairs)) + b"".join(varint(zigzag(a)) + varint(zigzag(b)) for a, b in pairs)


SET_OF_PAIRS = {"bifrons_schema": 1, "format": 1, "types": {},
                "root": {"kind": "set", "key": {"kind": "tuple", "elements": ["i64", "i64"]}}}
