# SPDX-License-Identifier: MIT
"""The golden files of tests/golden: each reads with its golden schema and writes back
byte-identically; some are checked value by value against their C++ cases (tests/golden/README.md);
the typed files of tests/golden/framed read through their frames."""

from __future__ import annotations

import json

import pytest

import bifrons
from conftest import GOLDEN, assert_same, golden_names

NAMES = golden_names()


def _golden(name: str):  # type: ignore[no-untyped-def]
    return bifrons.load_schema(GOLDEN / f"{name}.schema.json"), (GOLDEN / f"{name}.bin").read_bytes()


# Golden files without a schema: `minimal`, whose classes without a default constructor
# schema<T>() does not describe yet (docs/schema.md, section 11).
WITHOUT_SCHEMA = {"minimal"}


def test_every_golden_file_has_a_schema() -> None:
    assert NAMES == sorted(p.stem for p in GOLDEN.glob("*.bin") if p.stem not in WITHOUT_SCHEMA)
    assert WITHOUT_SCHEMA <= {p.stem for p in GOLDEN.glob("*.bin")}
    assert len(NAMES) >= 28


@pytest.mark.parametrize("name", NAMES)
def test_reads_and_writes_back_byte_for_byte(name: str) -> None:
    schema, data = _golden(name)
    value = schema.decode(data)
    assert schema.encode(value) == data
    # Any bytes-like input, and the value survives a trip through JSON text.
    assert_same(schema.decode(bytearray(data)), value)
    assert_same(schema.decode(memoryview(data)), value)
    assert schema.encode(json.loads(json.dumps(value))) == data


def _order(id_: int, symbol: str, side: int, price: float, volume: float) -> dict:
    return {"id": id_, "symbol": symbol, "side": side, "price": price, "volume": volume}


# The values of tests/golden_cases.hpp, as docs/schema.md section 10 writes them.
EXPECTED = {
    "account": {
        "id": 42,
        "name": "Ada",
        "wallet": {"currency": "EUR", "amount": 1234.5},
        "orders": [
            _order(1, "AAPL", 0, 189.25, 10.0),
            _order(2, "MSFT", 1, 411.5, 2.5),
            _order(3, "BTC-USD", 0, 67250.75, 0.125),
        ],
    },
    "floats": [-0.0, "inf", "nan:7fc00001", 1.5, -0.0, "-inf", "nan:7ff80000deadbeef", "nan:fff8000000000000",
               5e-324, 0.1],
    "integers": [-128, 127, -32768, 32767, -(2**31), 2**31 - 1, -(2**63), 2**63 - 1, 0, -1, -64, 64, -65, 0, 255,
                 65535, 2**32 - 1, 2**64 - 1, 127, 128, 16383, 16384, 2**63],
    "strings": {"ascii": "hello", "utf8": "grüß", "with_nul": "a\0b", "u8": "été", "u16": "Aé\U0001F600",
                "u32": "A\U0001F600\U0010FFFF", "wide": "€üx", "empty": ""},
    "versioned": {"$version": 300, "field0": 7, "field1": "v", "field2": 0xBEEF},
    "vector_bool": [[True, False, True, True, False, False, False, True, True, True, False, False, True], [True] * 8,
                    []],
    "maps_sets": [
        [[-1, "neg"], [0, ""], [300, "big"]],
        ["a", "b", "c"],
        [["j", 1], ["k", 2], ["k", 1]],
        [-1, 3, 3],
        [["e", []], ["w", [{"currency": "EUR", "amount": 1.0}, {"currency": "USD", "amount": 2.5}]]],
        [[7, "seven"]],
        ["only"],
        [],
    ],
    "empty": [{}, "", [], [], {}, [{}, {}], [None, None, None]],
    "deprecated": {"id": 5, "old_name": "", "ratio": 0.75, "old_ratio": 0.0,
                   "old_wallet": {"currency": "", "amount": 0.0}, "label": "kept"},
    "base": {"golden::Animal": {"name": "Rex", "legs": 4}, "field1": True},
    "record_book": {
        "name": "book",
        "ticks": [{"id": 7, "price": 0.125}, {"id": -1, "price": 1000.0}],
        "last": {"id": 8, "price": -7.75},
        "path": [{"x": 0, "y": 0}, {"x": 1, "y": 1}, {"x": -1, "y": -1}],
        "marks": [{"x": 5, "y": -5}],
        "box": [{"x": 10, "y": 20}, {"x": 30, "y": 40}],
        "corners": [{"x": 1, "y": 2}, {"x": 3, "y": 4}, {"x": 5, "y": 6}],
        "tail": -5,
    },
    # unique_ptr -3 (id 1); shared 7 twice (id 2); owner "ab" (3) and its watcher; an expired
    # weak_ptr; a list 10 <-> 20 <-> 30 (4, 5, 6); nodes by value with identity (7, 8, 9), each
    # pointing at the one before; raw pointers; a tree whose leaves point at its root (10).
    "pointers": {
        "null_unique": None,
        "unique": {"id": 1, "value": -3},
        "shared_twice": [{"id": 2, "value": 7}, {"ref": 2}],
        "owner": {"id": 3, "value": "ab"},
        "watcher": {"ref": 3},
        "expired": None,
        "cycle": {"id": 4, "value": {"value": 10, "prev": None, "next": {"id": 5, "value": {
            "value": 20, "prev": {"ref": 4}, "next": {"id": 6, "value": {"value": 30, "next": None, "prev": {"ref": 5}}}}}}},
        "nodes": [{"$id": 7, "value": 1, "next": None}, {"$id": 8, "value": 2, "next": {"ref": 7}},
                  {"$id": 9, "value": 3, "next": {"ref": 8}}],
        "current": {"ref": 9},
        "to_unique": {"ref": 1},
        "tree": {"$id": 10, "field0": 1,
                 "field1": {"id": 11, "value": {"field0": 2, "field1": None, "field2": None, "field3": {"ref": 10}}},
                 "field2": {"id": 12, "value": {"field0": 3, "field1": None, "field2": None, "field3": {"ref": 10}}},
                 "field3": None},
    },
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values_are_the_cases(name: str) -> None:
    schema, data = _golden(name)
    assert_same(schema.decode(data), EXPECTED[name])
    assert schema.encode(EXPECTED[name]) == data


def test_scalars_at_their_edges() -> None:
    schema, data = _golden("scalars")
    value = schema.decode(data)
    assert value["c"] == ord("A") and value["b"] == 0xAB and value["c8"] == 0xE9
    assert value["ll"] == -(2**63) and value["ull"] == 2**64 - 1 and value["wide"] == 2**64 - 1
    assert value["c32"] == 0x10FFFF and value["wc"] == 0x20AC and value["plain"] == 300
    assert value["yes"] is True and value["no"] is False


def test_stream_is_the_tuple_of_its_values() -> None:
    schema, data = _golden("stream")
    value = schema.decode(data)
    assert value[0] == 7 and value[1] == "second" and value[3] == [1, 2, 65535] and value[5] == {}
    assert value[2]["symbol"] == "IBM" and value[4]["currency"] == "GBP"


# ---- typed files ---------------------------------------------------------------------------------


def _map_points_schema() -> bifrons.Schema:
    # framed/map_points.bin is a map<std::string, RecPoint>: no golden case of its own, so its
    # schema is put together from the record of records.schema.json.
    records = json.loads((GOLDEN / "records.schema.json").read_text())
    return bifrons.Schema({
        "bifrons_schema": 1,
        "format": 1,
        "root": {"kind": "map", "key": {"kind": "string", "unit": "char"}, "value": "golden::RecPoint"},
        "types": {"golden::RecPoint": records["types"]["golden::RecPoint"]},
    })


FRAMED = {
    "account": lambda: _golden("account")[0],
    "vector_int32": lambda: _golden("vector_int32")[0],
    "map_points": _map_points_schema,
}


def test_every_framed_file_is_checked() -> None:
    assert sorted(p.stem for p in (GOLDEN / "framed").glob("*.bin")) == sorted(FRAMED)


@pytest.mark.parametrize("name", sorted(FRAMED))
def test_framed_files(name: str) -> None:
    schema = FRAMED[name]()
    framed = (GOLDEN / "framed" / f"{name}.bin").read_bytes()
    frame = bifrons.read_frame(framed)
    assert frame.type_name == schema.type_name
    value = schema.decode_framed(framed)
    assert schema.encode_framed(value) == framed
    assert schema.encode(value) == framed[frame.size :]


def test_framed_values() -> None:
    framed = GOLDEN / "framed"
    account = _golden("account")
    assert_same(account[0].decode_framed((framed / "account.bin").read_bytes()), account[0].decode(account[1]))
    # The example of docs/format.md section 30.
    vector = _golden("vector_int32")[0]
    assert_same(vector.decode_framed((framed / "vector_int32.bin").read_bytes()), [1, -2])
    # 01 | 01 61 | 08 01 00 fe ff: one element, "a" -> a record alone (K = 4) {1, -2}.
    assert_same(_map_points_schema().decode_framed((framed / "map_points.bin").read_bytes()),
                [["a", {"x": 1, "y": -2}]])


def test_frame_names() -> None:
    assert _golden("account")[0].type_name == "golden::Account"
    assert _golden("vector_int32")[0].type_name == "sequence<i32>"
    assert _map_points_schema().type_name == "map<string<char>, golden::RecPoint>"


def test_frame_errors() -> None:
    account, data = _golden("account")
    vector_schema = _golden("vector_int32")[0]
    framed = (GOLDEN / "framed" / "account.bin").read_bytes()

    def error(schema: bifrons.Schema, blob: bytes) -> tuple:
        with pytest.raises(bifrons.DecodeError) as caught:
            schema.decode_framed(blob)
        return caught.value.code, caught.value.offset

    assert error(account, data) == (bifrons.Errc.not_bifrons, 0)
    assert error(account, framed[:3]) == (bifrons.Errc.not_bifrons, 0)
    assert error(account, framed[:4]) == (bifrons.Errc.unexpected_end, 4)
    assert error(account, framed[:4] + b"\x02" + framed[5:]) == (bifrons.Errc.not_bifrons, 4)
    assert error(account, framed[:4] + b"\x81\x00" + framed[5:]) == (bifrons.Errc.malformed_varint, 4)
    assert error(account, framed[:10]) == (bifrons.Errc.unexpected_end, 5)
    assert error(vector_schema, framed) == (bifrons.Errc.type_mismatch, 5)
    # Errors in the value count from the frame's first byte.
    frame_size = bifrons.read_frame(framed).size
    assert error(account, framed[:-1]) == (bifrons.Errc.unexpected_end, len(framed) - 1)  # where it ends
    assert error(account, framed[: frame_size + 3]) == (bifrons.Errc.unexpected_end, frame_size + 3)
    assert error(account, framed + b"\x00") == (bifrons.Errc.trailing_bytes, len(framed))


def test_kafka_values() -> None:
    # A Kafka value of kafka.hpp's default form (docs/kafka.md): 0xbf, the writer's schema
    # fingerprint, then the frame. decode_framed reads it; errors count from the value's start.
    value = (GOLDEN / "kafka" / "vector_int32.bin").read_bytes()
    vector = _golden("vector_int32")[0]
    assert bifrons.kafka_fingerprint(value) == "55eec7361a70e11d"
    assert bifrons.kafka_fingerprint((GOLDEN / "framed" / "vector_int32.bin").read_bytes()) is None
    assert_same(vector.decode_framed(value), [1, -2])
    with pytest.raises(bifrons.DecodeError) as cut:
        vector.decode_framed(value[:-2])  # two elements of four bytes, six left: at the count
    assert cut.value.code == bifrons.Errc.count_exceeds_input and cut.value.offset == 0x1C
    with pytest.raises(bifrons.DecodeError) as other:
        _golden("account")[0].decode_framed(value)
    assert other.value.code == bifrons.Errc.type_mismatch and other.value.offset == 9 + 5
