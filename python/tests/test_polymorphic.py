# SPDX-License-Identifier: MIT
"""Polymorphic pointers (tag 2) and virtual bases (docs/schema.md section 6), on the golden files
polymorphic.bin and polymorphic_unknown.bin: what an older reader's schema does with them, and
what the writer refuses. The golden round trips are in test_golden.py."""

from __future__ import annotations

import json

import pytest

import bifrons
from bifrons import Errc
from conftest import GOLDEN


def _document(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.schema.json").read_text())


def _data(name: str) -> bytes:
    return (GOLDEN / f"{name}.bin").read_bytes()


def test_objects_say_their_registered_class_and_virtual_bases_are_read_once() -> None:
    value = bifrons.load_schema(GOLDEN / "polymorphic.schema.json").decode(_data("polymorphic"))
    assert value["shapes"][0]["type"] == "golden.Circle"
    assert "type" not in value["shapes"][3]  # a plain shape: tag 1
    assert value["diamond"] == {
        "id": 10,
        "type": "golden.Join",
        "value": {
            "golden::PLeft": {"golden::PRoot": {"field0": 1}, "field1": 2},
            "golden::PRight": {"field1": 3},
            "field2": 4,
        },
    }
    assert value["label_as_named"] == {"ref": 9}  # the label, through its second base


def test_a_name_the_schema_does_not_register_is_an_unknown_type() -> None:
    document = _document("polymorphic_unknown")
    del document["polymorphic"]["golden.Triangle"]
    del document["types"]["golden::PTriangle"]
    with pytest.raises(bifrons.DecodeError) as e:
        bifrons.Schema(document).decode(_data("polymorphic_unknown"))
    assert (e.value.code, e.value.offset) == (Errc.unknown_type, 3)


def test_objects_inside_that_an_older_class_does_not_read_take_their_ids() -> None:
    document = _document("polymorphic_unknown")
    document["types"]["golden::PTriangle"]["fields"].pop()  # without its corner
    older = bifrons.Schema(document)
    data = _data("polymorphic_unknown")
    with pytest.raises(bifrons.DecodeError) as e:
        older.decode(data)  # shapes[2] refers to the corner, which was not read
    assert (e.value.code, e.value.offset) == (Errc.unknown_type, 49)
    value = older.decode(data[:49] + b"\x03" + data[50:])
    triangle = value["shapes"][0]
    assert triangle["unread"] == 1 and triangle["value"]["$skipped"] == "02020006020408"
    assert value["shapes"][3]["id"] == 3  # the square: still id 3
    # Written again, the header still counts the unread object, so the ids stay in step.
    again = older.encode(value)
    assert older.decode(again)["shapes"][3]["id"] == 3
    assert older.decode(again)["shapes"][0]["unread"] == 1


def test_a_class_that_does_not_reach_the_pointers_class_is_refused() -> None:
    document = _document("polymorphic")
    del document["types"]["golden::PCircle"]["bases"]
    with pytest.raises(bifrons.DecodeError) as e:
        bifrons.Schema(document).decode(_data("polymorphic"))
    assert (e.value.code, e.value.offset) == (Errc.invalid_value, 3)


def test_the_writer_refuses_classes_the_schema_does_not_register() -> None:
    schema = bifrons.load_schema(GOLDEN / "polymorphic_unknown.schema.json")
    value = schema.decode(_data("polymorphic_unknown"))
    value["shapes"][3]["type"] = "golden.Hexagon"
    with pytest.raises(bifrons.EncodeError) as e:
        schema.encode(value)
    assert e.value.code == Errc.unregistered_type


def test_schemas_that_misuse_the_keys_are_refused() -> None:
    document = _document("polymorphic")
    document["polymorphic"]["golden.Other"] = "golden::PCircle"  # one class under two names
    with pytest.raises(bifrons.SchemaError):
        bifrons.Schema(document)
    document = _document("polymorphic")
    document["types"]["golden::PShape"]["bases"] = ["golden::PNamed"]  # not a registered class
    with pytest.raises(bifrons.SchemaError):
        bifrons.Schema(document)


def test_a_pointer_to_an_abstract_class_holds_only_registered_classes() -> None:
    shape = {"abstract": True, "fields": [{"default": "00", "name": "id", "type": "i32"}], "hook": True,
             "kind": "struct"}
    square = {
        "bases": ["Shape"],
        "fields": [
            {"base": True, "default": "0200", "name": "shape", "type": "Shape"},
            {"default": "00", "name": "side", "type": "i32"},
        ],
        "hook": True,
        "kind": "struct",
    }
    pointer = {"kind": "pointer", "polymorphic": True, "role": "unique", "to": "Shape"}
    schema = bifrons.Schema(
        {"bifrons_schema": 1, "format": 1, "polymorphic": {"x.Square": "Square"},
         "root": {"element": pointer, "kind": "sequence"}, "types": {"Shape": shape, "Square": square}}
    )
    data = bytes([0x01, 0x02, 0x00, 0x01, 0x08, 0x78, 0x2E, 0x53, 0x71, 0x75, 0x61, 0x72, 0x65, 0x01, 0x00,
                  0x06, 0x02, 0x0E, 0x04])
    value = schema.decode(data)
    assert value == [{"id": 1, "type": "x.Square", "value": {"shape": {"id": 7}, "side": 2}}]
    assert schema.encode(value) == data
    with pytest.raises(bifrons.DecodeError) as e:
        schema.decode(bytes([0x01, 0x01, 0x02, 0x0E]))  # tag 1 would create a Shape
    assert (e.value.code, e.value.offset) == (Errc.invalid_value, 1)
    with pytest.raises(bifrons.EncodeError):
        schema.encode([{"id": 1, "value": {"id": 7}}])


def _older_schema() -> bifrons.Schema:
    document = _document("polymorphic_unknown")
    del document["polymorphic"]["golden.Triangle"]
    del document["types"]["golden::PTriangle"]
    return bifrons.Schema(document)


def test_the_unknown_type_error_names_the_type_and_the_option() -> None:
    with pytest.raises(bifrons.DecodeError) as e:
        _older_schema().decode(_data("polymorphic_unknown"))
    assert "golden.Triangle" in str(e.value) and "unknown_types_null" in str(e.value)


def test_unknown_types_null_skips_the_object_and_keeps_ids_in_step() -> None:
    # The C++ library's unknown_type_policy::null, on the same golden file (polymorphic_test.cpp).
    data = _data("polymorphic_unknown")
    value = _older_schema().decode(data, bifrons.ReadOptions(unknown_types_null=True))
    shapes = value["shapes"]
    assert len(shapes) == 5
    assert shapes[0] is None  # the triangle
    assert shapes[1] is None  # a reference to it
    assert shapes[2] is None  # a reference to the circle inside it
    # The square has id 3 only if the skipped triangle's id and its circle's id were counted.
    assert shapes[3]["id"] == 3 and shapes[3]["type"] == "golden.Square"
    assert shapes[4] == {"ref": 3}
    # A skipped body longer than the input: unexpected_end where the input ends.
    cut = bytearray(data)
    assert cut[38] == 0x12
    cut[38] = 0x7E
    with pytest.raises(bifrons.DecodeError) as e:
        _older_schema().decode(bytes(cut), bifrons.ReadOptions(unknown_types_null=True))
    assert (e.value.code, e.value.offset) == (Errc.unexpected_end, len(data))


def test_unknown_types_null_is_a_bool() -> None:
    with pytest.raises(ValueError):
        bifrons.ReadOptions(unknown_types_null=1)  # type: ignore[arg-type]


def test_the_command_line_names_an_unknown_type(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from bifrons.__main__ import main

    schema = tmp_path / "older.schema.json"
    document = _document("polymorphic_unknown")
    del document["polymorphic"]["golden.Triangle"]
    del document["types"]["golden::PTriangle"]
    schema.write_text(json.dumps(document))
    data = str(GOLDEN / "polymorphic_unknown.bin")
    assert main(["--schema", str(schema), data]) == 1
    err = capsys.readouterr().err
    assert "unknown_type (22) at byte 3" in err and "golden.Triangle" in err
    assert main(["--schema", str(schema), "--unknown-types-null", data]) == 0
