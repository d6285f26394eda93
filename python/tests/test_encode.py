# SPDX-License-Identifier: MIT
"""Writing: the values a writer accepts and refuses (with the library's codes where it has
them, and the path of the bad part), and evolution between an older and a newer schema."""

from __future__ import annotations

import copy
import json
import math

import pytest

import bifrons
from conftest import GOLDEN, assert_same

Errc = bifrons.Errc


def _schema(root: object, **types: object) -> bifrons.Schema:
    return bifrons.Schema({"bifrons_schema": 1, "format": 1, "root": root, "types": types})


def _refused(schema: bifrons.Schema, value: object) -> bifrons.EncodeError:
    with pytest.raises(bifrons.EncodeError) as caught:
        schema.encode(value)
    return caught.value


ACCOUNT = bifrons.load_schema(GOLDEN / "account.schema.json")
ACCOUNT_BYTES = (GOLDEN / "account.bin").read_bytes()


def _account() -> dict:
    return ACCOUNT.decode(ACCOUNT_BYTES)


def test_bad_values_name_their_place() -> None:
    value = _account()
    value["orders"][2]["price"] = "cheap"
    error = _refused(ACCOUNT, value)
    assert error.path == ".orders[2].price" and error.code is None
    assert "cheap" in str(error)

    value = _account()
    del value["wallet"]["amount"]
    assert _refused(ACCOUNT, value).path == ".wallet.amount"
    assert "missing field 'amount'" in str(_refused(ACCOUNT, value))

    value = _account()
    value["nickname"] = "x"
    assert "no field 'nickname'" in str(_refused(ACCOUNT, value))


def test_integers_fit_their_type_and_are_not_bools() -> None:
    value = _account()
    value["orders"][0]["side"] = 256  # Side is an enum : u8
    error = _refused(ACCOUNT, value)
    assert (error.code, error.path) == (Errc.value_out_of_range, ".orders[0].side")
    value["orders"][0]["side"] = True
    assert _refused(ACCOUNT, value).code is None
    value["orders"][0]["side"] = 1.0
    assert _refused(ACCOUNT, value).code is None
    i64 = _schema("i64")
    assert i64.encode(-(2**63)).hex() == "ffffffffffffffffff01"
    assert _refused(i64, 2**63).code == Errc.value_out_of_range
    blocks = _schema({"kind": "sequence", "element": "i16"})
    assert blocks.encode([1, -1]).hex() == "020100ffff"
    error = _refused(blocks, [1, 2, 40000])
    assert (error.code, error.path) == (Errc.value_out_of_range, "[2]")


def test_members_beginning_with_dollar_are_ignored() -> None:
    value = _account()
    value["$skipped"] = "0102"
    value["$version"] = 9
    value["wallet"]["$id"] = 4
    assert ACCOUNT.encode(value) == ACCOUNT_BYTES


def test_floats() -> None:
    pair = _schema({"kind": "tuple", "elements": ["f32", "f64"]})
    assert pair.encode([1.5, -2.0]).hex() == "0000c03f00000000000000c0"
    assert pair.encode([1, 3]) == pair.encode([1.0, 3.0])
    # The JSON forms, and Python's own infinities and NaN.
    assert pair.encode(["inf", "-inf"]).hex() == "0000807f000000000000f0ff"
    assert pair.encode([math.inf, -math.inf]) == pair.encode(["inf", "-inf"])
    assert pair.encode(["nan", "nan:7ff80000deadbeef"]).hex() == "0000c07fefbeadde0000f87f"
    assert pair.decode(pair.encode(["nan:7fc00001", "nan:fff8000000000000"])) == ["nan:7fc00001", "nan:fff8000000000000"]
    # An f32 reads back as the shortest decimal that has its bits.
    assert pair.decode(pair.encode([0.1, 0.1])) == [0.1, 0.1]
    assert pair.decode(bytes.fromhex("cdcccc3d") + bytes(8)) == [0.1, 0.0]
    assert pair.decode(pair.encode([-0.0, -0.0]))[0] == 0 and math.copysign(1, pair.decode(pair.encode([-0.0, 0]))[0]) < 0
    for bad in ("nan:1234", "nan:7f800000", "infinity", 1e39, True, None, 10**400):
        assert _refused(pair, [bad, 0.0]).path == "<0>"


def test_strings() -> None:
    strings = _schema({"kind": "tuple", "elements": [{"kind": "string", "unit": u} for u in ("char", "u16", "u32")]})
    assert strings.encode(["é", "é", "é"]).hex() == "02c3a901e90001e9000000"
    # Code units that are not text, and bytes for 1-byte units.
    units = [{"units": [255]}, {"units": [0xD800]}, {"units": [0x110000]}]
    assert strings.decode(strings.encode(units)) == units
    assert strings.encode([b"\xff", "", ""]) == strings.encode([{"units": [255]}, "", ""])
    error = _refused(strings, ["", "\ud800", ""])
    assert error.path == "<1>" and "units" in str(error)
    assert _refused(strings, [{"units": [256]}, "", ""]).path == "<0>.units[0]"
    assert _refused(strings, [1, "", ""]).path == "<0>"


def test_maps_take_pairs_or_a_dict_and_refuse_equal_keys() -> None:
    scores = _schema({"kind": "map", "key": {"kind": "string", "unit": "char"}, "value": "i32"})
    assert scores.encode({"a": 1, "b": -1}) == scores.encode([["a", 1], ("b", -1)]) == bytes.fromhex("02016102016201")
    error = _refused(scores, [["a", 1], ["a", 2]])
    assert (error.code, error.path) == (Errc.duplicate_key, "[1]")
    multi = _schema({"kind": "map", "key": "i32", "value": "i32", "multi": True})
    assert multi.encode([[1, 1], [1, 2]]).hex() == "0202020204"
    floats = _schema({"kind": "set", "key": "f64"})
    assert _refused(floats, [0.0, -0.0]).code == Errc.duplicate_key  # -0.0 equals 0.0
    assert len(floats.decode(floats.encode(["nan", "nan"]))) == 2  # a NaN equals nothing
    with pytest.raises(bifrons.DecodeError) as caught:
        floats.decode(floats.encode([0.0]) + b"")  # one key: fine
        floats.decode(bytes.fromhex("02") + bytes(8) + bytes(7) + b"\x80")
    assert (caught.value.code, caught.value.offset) == (Errc.duplicate_key, 9)
    # Strings as text or as code units are the same keys.
    names = _schema({"kind": "set", "key": {"kind": "string", "unit": "char"}})
    assert _refused(names, ["hi", {"units": [104, 105]}]).code == Errc.duplicate_key
    assert names.decode(names.encode(["nan", "nanny"])) == ["nan", "nanny"]


def test_optionals_variants_and_bits() -> None:
    nested = _schema({"kind": "optional", "of": {"kind": "optional", "of": "i32"}})
    assert nested.encode(None).hex() == "00"
    assert nested.encode({"some": None}).hex() == "0100"
    assert nested.encode({"some": 5}).hex() == "01010a"
    assert _refused(nested, 5).code is None
    either = _schema({"kind": "variant", "alternatives": ["monostate", "i32"]})
    assert either.encode({"index": 0, "value": None}).hex() == "00"
    assert either.encode({"index": 1, "value": -1}).hex() == "0101"
    assert "no alternative 2" in str(_refused(either, {"index": 2, "value": None}))
    bits = _schema({"kind": "tuple", "elements": [{"kind": "bitvector"}, {"kind": "bitset", "size": 10}]})
    value = [[True, False, True], [True] + [False] * 8 + [True]]
    assert bits.encode(value).hex() == "03050102"
    assert _refused(bits, [[1], [False] * 10]).path == "<0>[0]"
    assert _refused(bits, [[], [False] * 9]).path == "<1>"


# ---- pointers --------------------------------------------------------------------------------------

POINTERS = bifrons.load_schema(GOLDEN / "pointers.schema.json")
POINTERS_VALUE = POINTERS.decode((GOLDEN / "pointers.bin").read_bytes())


def _pointers(change) -> bifrons.EncodeError:  # type: ignore[no-untyped-def]
    value = copy.deepcopy(POINTERS_VALUE)
    change(value)
    return _refused(POINTERS, value)


def test_pointers_refuse_what_no_writer_writes() -> None:
    # A unique_ptr to an object that another pointer owns.
    error = _pointers(lambda v: v.update(unique={"ref": 2}))
    assert (error.code, error.path) == (Errc.ownership_conflict, ".unique")
    # A reference to an object written later.
    error = _pointers(lambda v: v["shared_twice"].__setitem__(0, {"ref": 3}))
    assert (error.code, error.path) == (Errc.unwritten_pointee, ".shared_twice[0]")
    # A shared_ptr to an object a unique_ptr owns.
    error = _pointers(lambda v: v["shared_twice"].__setitem__(1, {"ref": 1}))
    assert error.code == Errc.ownership_conflict
    # A shared_ptr back to its ancestor through shared_ptrs only: a cycle of owners.
    error = _pointers(lambda v: v["cycle"]["value"]["next"]["value"].update(next={"ref": 4}))
    assert (error.code, error.path) == (Errc.ownership_cycle, ".cycle*.next*.next")
    # A raw pointer does not own: it cannot introduce an object.
    error = _pointers(lambda v: v.update(current={"id": 13, "value": {"value": 1, "next": None}}))
    assert error.code == Errc.unwritten_pointee
    # A reference to an object of another type.
    assert "golden::PNode" in str(_pointers(lambda v: v.update(to_unique={"ref": 9})))
    # Ids are given in order.
    assert "where the writer gives 1" in str(_pointers(lambda v: v.update(unique={"id": 7, "value": 1})))


def test_a_raw_pointer_to_an_object_only_weak_pointers_hold() -> None:
    value = copy.deepcopy(POINTERS_VALUE)
    value["owner"] = None  # the watcher (a weak_ptr) now introduces "ab"
    value["watcher"] = {"id": 3, "value": "ab"}
    assert POINTERS.decode(POINTERS.encode(value))["watcher"] == {"id": 3, "value": "ab"}
    watched = _schema(
        {"kind": "tuple", "elements": [{"kind": "pointer", "role": "weak", "to": "i32"},
                                       {"kind": "pointer", "role": "raw", "to": "i32"}]})
    error = _refused(watched, [{"id": 1, "value": 5}, {"ref": 1}])
    assert error.code == Errc.unwritten_pointee
    with pytest.raises(bifrons.DecodeError) as caught:
        watched.decode(bytes.fromhex("010a03"))
    assert (caught.value.code, caught.value.offset) == (Errc.invalid_value, 2)


def test_pointer_ids_may_be_left_out() -> None:
    value = json.loads(json.dumps(POINTERS_VALUE).replace('"id": ', '"$was": '))
    for walk in [value]:
        stack = [walk]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                node.pop("$was", None)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    assert POINTERS.encode(value) == (GOLDEN / "pointers.bin").read_bytes()


# ---- evolution -------------------------------------------------------------------------------------


def _with_order_field(extra: dict) -> bifrons.Schema:
    document = json.loads((GOLDEN / "account.schema.json").read_text())
    document["types"]["golden::Order"]["fields"].append(extra)
    return bifrons.Schema(document)


def test_old_and_new_writers() -> None:
    newer = _with_order_field({"name": "venue", "type": "u16", "default": "07"})
    # New data to an old reader: the field is skipped, and reported as such.
    value = _account()
    for order in value["orders"]:
        order["venue"] = 300
    new_bytes = newer.encode(value)
    old_view = ACCOUNT.decode(new_bytes)
    assert [o["$skipped"] for o in old_view["orders"]] == ["ac02"] * 3
    assert ACCOUNT.encode(old_view) == ACCOUNT_BYTES
    # Old data to a new reader: the field takes its default.
    new_view = newer.decode(ACCOUNT_BYTES)
    assert [o["venue"] for o in new_view["orders"]] == [7, 7, 7]
    assert_same(newer.decode(new_bytes), value)


def test_defaults_are_fresh_objects() -> None:
    newer = _with_order_field({"name": "tags", "type": {"kind": "sequence", "element": "i32"}, "default": "0101000000"})
    orders = newer.decode(ACCOUNT_BYTES)["orders"]
    assert [o["tags"] for o in orders] == [[1], [1], [1]]
    orders[0]["tags"].append(2)
    assert orders[1]["tags"] == [1]
    assert newer.decode(ACCOUNT_BYTES)["orders"][0]["tags"] == [1]


def test_read_options_are_checked() -> None:
    with pytest.raises(ValueError):
        bifrons.ReadOptions(max_depth=-1)
    with pytest.raises(ValueError):
        bifrons.ReadOptions(max_elements=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ACCOUNT.decode("not bytes")  # type: ignore[arg-type]


def test_errors_say_what_where() -> None:
    with pytest.raises(bifrons.DecodeError) as caught:
        ACCOUNT.decode(ACCOUNT_BYTES[:3] + b"\x7f" + ACCOUNT_BYTES[4:])  # a name of 127 bytes
    error = caught.value
    assert isinstance(error, bifrons.Error)
    assert (error.code, error.offset, error.path) == (Errc.count_exceeds_input, 3, ".name")
    assert str(error).startswith("count_exceeds_input at byte 3, .name")
    assert int(Errc.count_exceeds_input) == 6 and Errc(24) is Errc.not_bifrons


def test_a_weak_link_breaks_a_cycle_of_owners() -> None:
    # Node{strong: shared<Node>, weak: weak<Node>}: a shared_ptr back to an ancestor closes a
    # cycle of owners, unless a weak_ptr introduced an object on the way (docs/format.md
    # section 23).
    node = {"kind": "struct", "fields": [
        {"name": "strong", "type": {"kind": "pointer", "role": "shared", "to": "Node"}, "default": "00"},
        {"name": "weak", "type": {"kind": "pointer", "role": "weak", "to": "Node"}, "default": "00"},
    ]}
    graph = _schema({"kind": "pointer", "role": "shared", "to": "Node"}, Node=node)
    through_weak = {"id": 1, "value": {"strong": None, "weak": {"id": 2, "value": {"strong": {"ref": 1}, "weak": None}}}}
    data = graph.encode(through_weak)
    assert data.hex() == "010a0001040300"
    assert graph.decode(data) == through_weak
    to_itself = {"id": 1, "value": {"strong": None, "weak": {"id": 2, "value": {"strong": {"ref": 2}, "weak": None}}}}
    assert _refused(graph, to_itself).code == Errc.ownership_cycle
    with pytest.raises(bifrons.DecodeError) as caught:
        graph.decode(bytes.fromhex("010a0001040400"))
    assert (caught.value.code, caught.value.offset) == (Errc.invalid_value, 5)
    direct = {"id": 1, "value": {"strong": {"ref": 1}, "weak": None}}
    assert _refused(graph, direct).code == Errc.ownership_cycle


def test_objects_inside_a_retired_field() -> None:
    retired = _schema("S", S={"kind": "struct", "fields": [
        {"name": "old", "type": {"kind": "deprecated", "of": {"kind": "pointer", "role": "unique", "to": "i32"},
                                 "writes": "00"}, "default": "00"},
        {"name": "old_shared", "type": {"kind": "deprecated", "of": {"kind": "pointer", "role": "shared", "to": "i32"},
                                        "writes": "00"}, "default": "00"},
        {"name": "p", "type": {"kind": "pointer", "role": "raw", "to": "i32"}, "default": "00"},
        {"name": "q", "type": {"kind": "pointer", "role": "shared", "to": "i32"}, "default": "00"},
    ]})
    # What was read inside a deprecated field is discarded: a raw pointer cannot refer to it,
    # but a shared object stays alive for the pointers after it.
    with pytest.raises(bifrons.DecodeError) as caught:
        retired.decode(bytes.fromhex("0c010a010c0300"))
    assert (caught.value.code, caught.value.offset) == (Errc.invalid_value, 5)
    assert retired.decode(bytes.fromhex("0c010a010c0004"))["q"] == {"ref": 2}
    # The writer writes `writes` (null pointers): nothing to refer to.
    value = {"old": {"id": 1, "value": 5}, "old_shared": None, "p": {"ref": 1}, "q": None}
    assert _refused(retired, value).code == Errc.unwritten_pointee


def test_a_retired_object_with_identity_takes_an_id() -> None:
    node = {"kind": "struct", "identity": True, "fields": [{"name": "v", "type": "i32", "default": "00"}]}
    holder = _schema("S", Node=node, S={"kind": "struct", "fields": [
        {"name": "old", "type": {"kind": "deprecated", "of": "Node", "writes": "00"}, "default": "00"},
        {"name": "p", "type": {"kind": "pointer", "role": "unique", "to": "i32"}, "default": "00"},
    ]})
    # Reading `writes` (an empty Node envelope) introduces object 1, so p's object is 2.
    data = holder.encode({"old": None, "p": {"id": 2, "value": 3}})
    assert data.hex() == "06000106"
    assert holder.decode(data) == {"old": {"$id": 1, "v": 0}, "p": {"id": 2, "value": 3}}
    assert "where the writer gives 2" in str(_refused(holder, {"old": None, "p": {"id": 1, "value": 3}}))


# ---- python -m bifrons -------------------------------------------------------------------------------


def test_command_line(capsys: pytest.CaptureFixture, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from bifrons.__main__ import main

    schema = str(GOLDEN / "account.schema.json")
    assert main(["--schema", schema, str(GOLDEN / "account.bin")]) == 0
    assert_same(json.loads(capsys.readouterr().out), _account())
    assert main(["--schema", schema, str(GOLDEN / "framed" / "account.bin")]) == 0
    assert_same(json.loads(capsys.readouterr().out), _account())
    cut = tmp_path / "cut.bin"
    cut.write_bytes(ACCOUNT_BYTES[:40])
    assert main(["--schema", schema, str(cut)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"bifrons: {cut}: unexpected_end (1) at byte 40, in (root)"
    assert "has no frame" in err[1]  # it might not be bifrons data at all
    # A text file, an empty one, required to be typed: not bifrons data, as from_framed says.
    for name, content in (("text.txt", b"hello, world\n"), ("empty.bin", b""), ("short.bin", b"\x89PN")):
        path = tmp_path / name
        path.write_bytes(content)
        assert main(["--schema", schema, "--framed", str(path)]) == 1
        assert capsys.readouterr().err.strip() == f"bifrons: {path}: not_bifrons (24) at byte 0, in (root)"
    assert main(["--schema", schema, "--max-depth", "1", str(GOLDEN / "account.bin")]) == 1
    assert "depth_limit_exceeded (7) at byte 7, in .wallet" in capsys.readouterr().err
    assert main(["--schema", str(GOLDEN / "account.bin"), str(GOLDEN / "account.bin")]) == 2
