# SPDX-License-Identifier: MIT
"""Hostile input: truncations and corruptions of the golden files give the C++ reader's codes and
offsets; crafted inputs are refused before anything large is built; random bytes raise nothing but
bifrons.DecodeError."""

from __future__ import annotations

import json
import random
import time

import pytest

import bifrons
from conftest import DATA, GOLDEN, golden_names

Errc = bifrons.Errc
EXPECTATIONS = json.loads((DATA / "golden_expectations.json").read_text())


def _golden(name: str):  # type: ignore[no-untyped-def]
    return bifrons.load_schema(GOLDEN / f"{name}.schema.json"), (GOLDEN / f"{name}.bin").read_bytes()


def _error(schema: bifrons.Schema, data: bytes, options: bifrons.ReadOptions = bifrons.ReadOptions()) -> tuple:
    with pytest.raises(bifrons.DecodeError) as caught:
        schema.decode(data, options)
    return caught.value.code.name, caught.value.offset


def test_the_expectations_cover_every_golden_file() -> None:
    assert sorted(EXPECTATIONS) == golden_names()


@pytest.mark.parametrize("name", golden_names())
def test_every_truncation_fails_where_the_library_fails(name: str) -> None:
    """make_expectations.py took the answers from the C++ reader; a struct announces its body's
    length, so a cut file fails at the envelope that announced the missing bytes."""
    schema, data = _golden(name)
    ranges = EXPECTATIONS[name]["truncations"]
    assert ranges[0][0] == 0 and ranges[-1][1] == len(data) - 1
    for first, last, code, offset in ranges:
        for n in range(first, last + 1):
            assert _error(schema, data[:n]) == (code, offset), f"{name} cut to {n} bytes"


def test_truncations_are_mostly_unexpected_end() -> None:
    codes = {r[2] for found in EXPECTATIONS.values() for r in found["truncations"]}
    assert codes == {"unexpected_end", "count_exceeds_input"}
    # A struct file cut anywhere fails where the input ends (docs/format.md, section 26).
    assert EXPECTATIONS["account"]["truncations"] == [[n, n, "unexpected_end", n] for n in range(96)]


@pytest.mark.parametrize("name", golden_names())
def test_corruptions_fail_where_the_library_fails(name: str) -> None:
    schema, data = _golden(name)
    for corruption in EXPECTATIONS[name]["corruptions"]:
        pos, byte = corruption[:2]
        corrupted = data[:pos] + bytes([byte]) + data[pos + 1 :]
        where = f"{name}: byte {pos} set to {byte:#04x}"
        if len(corruption) == 2:
            value = schema.decode(corrupted)
            # A value that reads always writes, and what is written reads back the same.
            again = schema.encode(value)
            assert schema.encode(schema.decode(again)) == again, where
        else:
            assert _error(schema, corrupted) == tuple(corruption[2:]), where


@pytest.mark.parametrize("name", golden_names())
def test_random_bytes_raise_only_decode_errors(name: str) -> None:
    schema, data = _golden(name)
    rng = random.Random(name)
    for _ in range(200):
        if rng.random() < 0.5:
            blob = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        else:  # a few bytes of the file changed, so that decoding gets deep
            blob = bytearray(data)
            for _ in range(rng.randrange(1, 4)):
                blob[rng.randrange(len(blob))] = rng.randrange(256)
            blob = bytes(blob)
        try:
            value = schema.decode(blob)
        except bifrons.DecodeError as e:
            assert 0 <= e.offset <= len(blob) and isinstance(e.code, Errc)
            continue
        again = schema.encode(value)
        assert schema.encode(schema.decode(again)) == again


# ---- crafted inputs --------------------------------------------------------------------------------


def _schema(root: object, **types: object) -> bifrons.Schema:
    return bifrons.Schema({"bifrons_schema": 1, "format": 1, "root": root, "types": types})


SEQUENCE_I32 = _schema({"kind": "sequence", "element": "i32"})
SEQUENCE_STRINGS = _schema({"kind": "sequence", "element": {"kind": "string", "unit": "char"}})
NOTHINGS = _schema({"kind": "sequence", "element": "monostate"})
TREE = _schema(
    "Tree",
    Tree={"kind": "struct", "fields": [{"name": "children", "type": {"kind": "sequence", "element": "Tree"},
                                        "default": "00"}]},
)
LIST = _schema(
    {"kind": "pointer", "role": "unique", "to": "Link"},
    Link={"kind": "struct", "fields": [
        {"name": "value", "type": "i32", "default": "00"},
        {"name": "next", "type": {"kind": "pointer", "role": "unique", "to": "Link"}, "default": "00"},
    ]},
)


def test_counts_are_checked_before_anything_is_built() -> None:
    started = time.perf_counter()
    # 10^6 elements of 4 bytes announced, 4 bytes there.
    assert _error(SEQUENCE_I32, bytes.fromhex("c0843d00000000")) == ("count_exceeds_input", 0)
    # 2^62 elements: above max_elements, which is checked first; without that limit, too many
    # for the bytes.
    huge = bytes.fromhex("80808080808080804000000000")
    assert _error(SEQUENCE_I32, huge) == ("element_limit_exceeded", 0)
    assert _error(SEQUENCE_I32, huge, bifrons.ReadOptions(max_elements=2**64)) == ("count_exceeds_input", 0)
    # A count above max_elements, whatever the bytes.
    assert _error(SEQUENCE_I32, bytes.fromhex("8080808001"), bifrons.ReadOptions(max_elements=1000)) == (
        "element_limit_exceeded", 0)
    # Strings need a byte each: 10^6 of them in 4 bytes.
    assert _error(SEQUENCE_STRINGS, bytes.fromhex("c0843d00")) == ("count_exceeds_input", 0)
    # A string's length against the bytes of the enclosing struct body, not of the input.
    tree_of_strings = _schema("S", S={"kind": "struct", "fields": [
        {"name": "s", "type": {"kind": "string", "unit": "char"}, "default": "00"}]})
    assert _error(tree_of_strings, bytes.fromhex("0403616200")) == ("count_exceeds_input", 1)
    assert time.perf_counter() - started < 1.0


def test_elements_of_no_bytes_are_bounded_by_max_elements() -> None:
    # A monostate takes no bytes: only max_elements bounds the count (docs/format.md section 27).
    assert _error(NOTHINGS, bytes.fromhex("ffffffff0f")) == ("element_limit_exceeded", 0)
    started = time.perf_counter()
    many = NOTHINGS.decode(bytes.fromhex("808040"))  # 2^20
    assert len(many) == 1 << 20 and many[0] is None and many[-1] is None
    assert time.perf_counter() - started < 1.0
    # Zero-stride records likewise (an older writer whose record had no fields).
    records = json.loads((GOLDEN / "records.schema.json").read_text())
    points = bifrons.Schema({"bifrons_schema": 1, "format": 1,
                             "root": {"kind": "sequence", "element": "golden::RecPoint"},
                             "types": {"golden::RecPoint": records["types"]["golden::RecPoint"]}})
    assert points.decode(bytes.fromhex("0300")) == [{"x": 0, "y": 0}] * 3
    assert _error(points, bytes.fromhex("ffffffff0f00")) == ("element_limit_exceeded", 0)


def test_deep_nesting_stops_at_max_depth() -> None:
    depth = 10_000
    # Tree{children: [Tree{children: [...]}]}: header, count 1, header, count 1, ... as much
    # as fits in each envelope.
    body = b"\x00"
    for _ in range(depth):
        body = bytes([1]) + _envelope(body)
    data = _envelope(body)
    # The 65th envelope is one too many; it starts after 64 headers and counts.
    code, offset = _error(TREE, data)
    assert code == "depth_limit_exceeded"
    assert offset == _offset_of_level(data, 64)
    assert _error(TREE, data, bifrons.ReadOptions(max_depth=3)) == ("depth_limit_exceeded", _offset_of_level(data, 3))
    # A limit beyond what Python's recursion allows still ends in the package's own error.
    with pytest.raises(bifrons.DecodeError) as caught:
        TREE.decode(data, bifrons.ReadOptions(max_depth=10**9))
    assert caught.value.code == Errc.depth_limit_exceeded


def _envelope(body: bytes) -> bytes:
    n = len(body) << 1
    header = bytearray()
    while n >= 0x80:
        header.append((n & 0x7F) | 0x80)
        n >>= 7
    header.append(n)
    return bytes(header) + body


def _offset_of_level(data: bytes, level: int) -> int:
    """Where the envelope nested `level` deep starts (0: the outermost)."""
    pos = 0
    for _ in range(level):
        while data[pos] & 0x80:
            pos += 1
        pos += 2  # the header's last byte, then the count 1
    return pos


def test_pointer_chains_count_as_nesting() -> None:
    # unique_ptr<Link> -> Link{0, next} -> ...: each Link is an envelope.
    body = b"\x00"
    for _ in range(10_000):
        body = b"\x01" + _envelope(b"\x00" + body)
    code, _ = _error(LIST, body)
    assert code == "depth_limit_exceeded"
    chain = b"\x01" + _envelope(b"\x02" + b"\x01" + _envelope(b"\x04\x00"))
    assert LIST.decode(chain) == {"id": 1, "value": {"value": 1, "next": {"id": 2, "value": {"value": 2, "next": None}}}}


def test_varints_longer_than_64_bits_or_not_minimal() -> None:
    u64 = _schema("u64")
    assert _error(u64, bytes.fromhex("ffffffffffffffffff02")) == ("malformed_varint", 0)
    assert _error(u64, bytes.fromhex("ffffffffffffffffff8001")) == ("malformed_varint", 0)
    assert _error(u64, bytes.fromhex("8000")) == ("malformed_varint", 0)
    assert _error(u64, bytes.fromhex("ffff")) == ("unexpected_end", 2)
    assert u64.decode(bytes.fromhex("ffffffffffffffffff01")) == 2**64 - 1
    assert _error(_schema("u32"), bytes.fromhex("8080808010")) == ("value_out_of_range", 0)
    assert _error(_schema("i8"), bytes.fromhex("8002")) == ("value_out_of_range", 0)


def test_pointer_tags_a_reader_refuses() -> None:
    shared = {"kind": "pointer", "role": "shared", "to": "Node"}
    nodes = _schema(
        {"kind": "sequence", "element": shared},
        Node={"kind": "struct", "fields": [{"name": "value", "type": "i32", "default": "00"},
                                           {"name": "next", "type": shared, "default": "00"}]},
    )
    # A node whose next is itself: a shared_ptr back to an ancestor, a cycle of owners
    # (docs/format.md section 23).
    assert _error(nodes, bytes.fromhex("0101040203")) == ("invalid_value", 4)
    # Tag 2, a polymorphic object, is reserved.
    assert _error(nodes, bytes.fromhex("0102")) == ("invalid_value", 1)
    # A reference to an object not read yet; then to one that was.
    assert _error(nodes, bytes.fromhex("0104")) == ("invalid_value", 1)
    assert nodes.decode(bytes.fromhex("020104020003")) == [
        {"id": 1, "value": {"value": 1, "next": None}}, {"ref": 1}]
    # Tag 3 + k for a huge k.
    assert _error(nodes, bytes.fromhex("01ffffffffffffffffff01")) == ("invalid_value", 1)
    assert _error(nodes, bytes.fromhex("ff01"), bifrons.ReadOptions(max_objects=0)) == ("count_exceeds_input", 0)


def test_too_many_objects() -> None:
    ints = _schema({"kind": "sequence", "element": {"kind": "pointer", "role": "unique", "to": "i32"}})
    data = bytes([100]) + b"\x01\x00" * 100
    assert len(ints.decode(data)) == 100
    assert _error(ints, data, bifrons.ReadOptions(max_objects=10)) == ("object_limit_exceeded", 1 + 2 * 10)


def test_hostile_schemas_are_schema_errors() -> None:
    def refused(document: object) -> str:
        with pytest.raises(bifrons.SchemaError) as caught:
            bifrons.Schema(document)  # type: ignore[arg-type]
        return str(caught.value)

    base = {"bifrons_schema": 1, "format": 1, "types": {}}
    assert "unknown kind" in refused({**base, "root": {"kind": "nonsense"}})
    assert "version 1" in refused({**base, "bifrons_schema": 2, "root": "i32"})
    assert "neither a primitive" in refused({**base, "root": "Missing"})
    assert "polymorphic" in refused({**base, "root": "S", "types": {
        "S": {"kind": "struct", "fields": [], "polymorphic": {"C": "C"}}}})
    # A record that holds itself has no size.
    assert "holds itself" in refused({**base, "root": "R", "types": {"R": {"kind": "record", "size": 1, "fields": [
        {"name": "r", "type": "R", "default": "00", "offset": 0, "width": 1}]}}})
    # A struct whose default holds itself by value.
    assert "needs itself" in refused({**base, "root": "S", "types": {"S": {"kind": "struct", "fields": [
        {"name": "s", "type": "S", "default": "00"}]}}})
    assert "does not decode" in refused({**base, "root": "S", "types": {"S": {"kind": "struct", "fields": [
        {"name": "s", "type": "bool", "default": "02"}]}}})
    assert "more than 2^32" in refused({**base, "root": {"kind": "array", "element": "i8", "size": 2**33}})
    assert "hex string" in refused({**base, "root": {"kind": "deprecated", "of": "i8", "writes": "0 0"}})
    assert "record field" in refused({**base, "root": "R", "types": {"R": {"kind": "record", "size": 1, "fields": [
        {"name": "s", "type": {"kind": "string", "unit": "char"}, "default": "00", "offset": 0, "width": 1}]}}})
    deep: object = "i32"
    for _ in range(100_000):
        deep = {"kind": "optional", "of": deep}
    assert "recursion" in refused({**base, "root": deep})
    with pytest.raises(bifrons.SchemaError):
        bifrons.Schema.from_json("[" * 100_000)
    with pytest.raises(bifrons.SchemaError):
        bifrons.Schema.from_json("{not json")
