# SPDX-License-Identifier: MIT
"""The limits that keep a read bounded whatever the schema and the bytes: the allocation budget
(ReadOptions.max_alloc_bytes), field defaults that expand exponentially, hash flooding of set
and map keys (the security review's findings 12-14).

The inputs that cost gigabytes or minutes without these limits run in a child interpreter whose
address space is limited (RLIMIT_AS) and which is killed after a generous 60 s, so that a
regression fails the test without taking down the machine: no assertion here depends on speed.
"""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest

import bifrons
from hostile_inputs import SET_OF_PAIRS, colliding_pairs, set_of_pairs

Errc = bifrons.Errc
TESTS = Path(__file__).resolve().parent
PACKAGE = Path(bifrons.__file__).resolve().parents[1]


def _bounded(code: str, memory: int = 1 << 30, seconds: int = 60) -> str:
    """Runs code in a child interpreter with at most `memory` bytes of address space; its
    standard output. Fails the test if it does not end within `seconds` or exits non-zero."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PACKAGE), str(TESTS)]))
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True, text=True, timeout=seconds, preexec_fn=limit, env=env,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"still running after {seconds} s")
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _error(schema: bifrons.Schema, data: bytes, options: bifrons.ReadOptions = bifrons.ReadOptions()) -> tuple:
    with pytest.raises(bifrons.DecodeError) as caught:
        schema.decode(data, options)
    return caught.value.code.name, caught.value.offset, caught.value.path


def _schema(root: object, **types: object) -> bifrons.Schema:
    return bifrons.Schema({"bifrons_schema": 1, "format": 1, "root": root, "types": types})


NOTHINGS = _schema({"kind": "sequence", "element": "monostate"})


# ---- the allocation budget (finding 13) ---------------------------------------------------------


def test_read_options_have_the_libraries_budget() -> None:
    assert bifrons.ReadOptions().max_alloc_bytes == 256 << 20  # include/bifrons/read_options.hpp
    with pytest.raises(ValueError, match="max_alloc_bytes"):
        bifrons.ReadOptions(max_alloc_bytes=-1)


def test_records_of_stride_zero_are_charged() -> None:
    """Finding 13: 73 bytes of sequence<golden::RecBook> whose blocks hold 2^26 records of
    stride 0 each held 6 GiB of lists (18 s) before the budget; now the first block is refused
    at its count, before its list is made."""
    out = _bounded("""
        import bifrons
        from hostile_inputs import record_books
        document, data = record_books()
        assert len(data) == 73
        try:
            bifrons.Schema(document).decode(data)
        except bifrons.DecodeError as e:
            print(e.code.name, e.offset, e.path)
    """)
    assert out.split() == ["allocation_limit_exceeded", "3", "[0].ticks"]


def test_elements_of_no_bytes_are_charged_a_slot_each() -> None:
    # 2^20 monostates: a list of 8 MiB and 56 bytes.
    assert len(NOTHINGS.decode(bytes.fromhex("808040"), bifrons.ReadOptions(max_alloc_bytes=(8 << 20) + 56))) == 1 << 20
    assert _error(NOTHINGS, bytes.fromhex("808040"), bifrons.ReadOptions(max_alloc_bytes=8 << 20)) == (
        "allocation_limit_exceeded", 0, "(root)")
    # max_elements comes first (docs/format.md section 27), then the budget: 2^26 monostates.
    assert _error(NOTHINGS, bytes.fromhex("8080808001")) == ("element_limit_exceeded", 0, "(root)")
    assert _error(NOTHINGS, bytes.fromhex("80808020")) == ("allocation_limit_exceeded", 0, "(root)")
    # The budget covers the whole read: two lists of 2^19 fit 8 MiB + 112 bytes, not less.
    pair = _schema({"kind": "tuple", "elements": [{"kind": "sequence", "element": "monostate"}] * 2})
    budget = (8 << 20) + 2 * 56 + 56 + 16  # the two lists, and the tuple's list of 2
    assert len(pair.decode(bytes.fromhex("80802080802000"[:12]), bifrons.ReadOptions(max_alloc_bytes=budget))) == 2
    assert _error(pair, bytes.fromhex("808020808020"), bifrons.ReadOptions(max_alloc_bytes=budget - 1)) == (
        "allocation_limit_exceeded", 3, "<1>")


def test_schema_sizes_are_charged() -> None:
    """Sizes from a hostile schema: an array of 2^32 monostates is 32 GiB of list from no
    bytes; a tuple of many monostates takes no bytes either."""
    out = _bounded("""
        import bifrons
        def schema(root):
            return bifrons.Schema({"bifrons_schema": 1, "format": 1, "root": root, "types": {}})
        for root, data in [
            ({"kind": "array", "element": "monostate", "size": 2**32}, b""),
            ({"kind": "array", "element": {"kind": "array", "element": "monostate", "size": 2**16}, "size": 2**16}, b""),
            ({"kind": "sequence", "element": {"kind": "tuple", "elements": ["monostate"] * 2**16}}, b"\\x80\\x80\\x04"),
            ({"kind": "bitset", "size": 2**28}, bytes(2**25)),  # 8 bytes of list for each bit
        ]:
            try:
                schema(root).decode(data)
                print("read")
            except bifrons.DecodeError as e:
                print(e.code.name, e.offset)
    """, memory=2 << 30)
    assert out.split("\n")[:-1] == ["allocation_limit_exceeded 0"] * 4


def test_memory_stays_within_about_the_budget() -> None:
    """What the budget charges is what the read holds, give or take: Python's own accounting
    (tracemalloc) of reads that the budget stops, or nearly, at 4 MiB."""
    budget = 4 << 20
    options = bifrons.ReadOptions(max_alloc_bytes=budget)
    cases = [
        (NOTHINGS, bytes.fromhex("80808020")),
        (_schema({"kind": "sequence", "element": {"kind": "string", "unit": "char"}}), b"\xff\xff\x07" + bytes(2**17 - 1)),
        (_schema({"kind": "sequence", "element": "S"}, S={"kind": "struct", "fields": [
            {"name": f"f{i}", "type": "i64", "default": "f0ffff03"} for i in range(20)]}),
         bytes.fromhex("808004") + bytes(2**16)),
        (_schema({"kind": "sequence", "element": {"kind": "sequence", "element": "i64"}}), b"\xff\xff\x03" + bytes(2**16 - 1)),
        (_schema({"kind": "set", "key": {"kind": "tuple", "elements": ["i64", "i64"]}}),
         set_of_pairs([(i, -i) for i in range(2**14)])),
        (_schema({"kind": "sequence", "element": "bool"}), b"\xff\xff\x3f" + bytes(2**20 - 1)),
        (_schema({"kind": "sequence", "element": "u16"}), b"\x80\x80\x10" + bytes(2**19)),
    ]
    for schema, data in cases:
        tracemalloc.start()
        try:
            schema.decode(data, options)
        except bifrons.DecodeError as e:
            assert e.code == Errc.allocation_limit_exceeded, e
        finally:
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        assert peak < 2 * budget, f"{schema.type_name}: {peak} bytes"


# ---- field defaults (finding 12) ------------------------------------------------------------


def test_defaults_that_double_at_each_level_load_at_once() -> None:
    """Finding 12: T_k {a: T_k-1 = "00", b: T_k-1 = "00"}. Each default was decoded into its
    own tree: K = 18 took 6 s and 340 MB to load, K = 40 never ended. Defaults are decoded once
    and shared; a value that takes one is charged its size as a tree first."""
    out = _bounded("""
        import bifrons
        from hostile_inputs import doubling_defaults
        schema = bifrons.Schema(doubling_defaults(40))
        try:
            schema.decode(b"\\x00")  # every field from its default: 2^40 T_0s
        except bifrons.DecodeError as e:
            print(e.code.name, e.offset, e.path)
    """, memory=512 << 20)
    assert out.split() == ["allocation_limit_exceeded", "1", ".a"]


def test_defaults_are_trees_the_caller_may_change() -> None:
    schema = bifrons.Schema(__import__("hostile_inputs").doubling_defaults(10))
    value = schema.decode(b"\x00")
    leaves = []
    stack = [value]
    while stack:
        node = stack.pop()
        if "x" in node:
            leaves.append(node)
        else:
            stack += [node["a"], node["b"]]
    assert len(leaves) == 1024 and all(leaf == {"x": 0} for leaf in leaves)
    assert len({id(leaf) for leaf in leaves}) == 1024  # not shared: changing one changes one
    leaves[0]["x"] = 7
    assert schema.decode(b"\x00")["a"]["a"]["a"]["a"]["a"]["a"]["a"]["a"]["a"]["a"] == {"x": 0}
    assert schema.encode(value) == schema.encode(schema.decode(schema.encode(value)))


def test_a_schemas_defaults_share_one_budget() -> None:
    """A default can hold 2^26 elements that take no bytes: the defaults of one schema are
    charged together, max_alloc_bytes (256 MiB), and a schema past it is a SchemaError."""
    many = {"name": "m", "type": {"kind": "sequence", "element": "monostate"}, "default": "80808008"}  # 128 MiB
    fields = [dict(many, name=f"m{i}") for i in range(3)]
    out = _bounded(f"""
        import bifrons
        try:
            bifrons.Schema({{"bifrons_schema": 1, "format": 1, "root": "S",
                            "types": {{"S": {{"kind": "struct", "fields": {fields!r}}}}}}})
            print("loaded")
        except bifrons.SchemaError as e:
            print(e)
    """)
    assert "allocation_limit_exceeded" in out and "fields[1].default" in out, out


# ---- hash flooding (finding 14) ----------------------------------------------------------------


@pytest.mark.skipif(platform.python_implementation() != "CPython", reason="CPython's tuple hash")
def test_keys_with_one_hash_do_not_flood_the_duplicate_check() -> None:
    """Finding 14: distinct pairs of i64 with one hash (hostile_inputs.colliding_pairs) made the
    set of keys read so far a list: 32,000 of them took 38 s. 100,000 here (1.2 MB)."""
    pairs = colliding_pairs(100)
    assert len(set(pairs)) == 100 and len({hash(p) for p in pairs}) == 1
    out = _bounded("""
        import bifrons
        from hostile_inputs import SET_OF_PAIRS, colliding_pairs, set_of_pairs
        pairs = colliding_pairs(100_000)
        assert len({hash(p) for p in pairs}) == 1
        schema = bifrons.Schema(SET_OF_PAIRS)
        data = set_of_pairs(pairs)
        assert schema.encode(pairs) == data  # the writer's check too
        print(len(schema.decode(data)))
        try:  # and the last key again
            schema.decode(set_of_pairs(pairs + [pairs[-1]]))
        except bifrons.DecodeError as e:
            print(e.code.name, e.offset == len(data), e.path)
    """)
    assert out.split() == ["100000", "duplicate_key", "True", "[100000]"]


def test_equal_keys_are_still_found() -> None:
    schema = bifrons.Schema(SET_OF_PAIRS)
    assert _error(schema, set_of_pairs([(1, 2), (3, 4), (1, 2)])) == ("duplicate_key", 5, "[2]")
    floats = _schema({"kind": "set", "key": {"kind": "tuple", "elements": ["f64", "i8"]}})
    # -0.0 equals 0.0; a NaN equals nothing, not even a NaN with the same bits.
    zero, negative_zero, nan = (bytes.fromhex(h) for h in ("0000000000000000", "0000000000000080", "000000000000f87f"))
    assert _error(floats, b"\x02" + zero + b"\x00" + negative_zero + b"\x00") == ("duplicate_key", 10, "[1]")
    assert len(floats.decode(b"\x03" + nan + b"\x00" + nan + b"\x00" + nan + b"\x00")) == 3
    with pytest.raises(bifrons.EncodeError, match="twice"):
        schema.encode([[1, 2], (1, 2)])


def test_command_line_takes_the_budget(capsys: pytest.CaptureFixture) -> None:
    from bifrons.__main__ import main

    from conftest import GOLDEN

    account = [str(GOLDEN / "account.schema.json"), str(GOLDEN / "account.bin")]
    assert main(["--schema", account[0], "--max-alloc-bytes", "100", account[1]]) == 1
    assert "allocation_limit_exceeded (8) at byte 0, in (root)" in capsys.readouterr().err
    assert main(["--schema", account[0], "--max-alloc-bytes", "100000", account[1]]) == 0


def test_base_fields_that_double_at_each_level_load_at_once() -> None:
    """T_k {base a: T_k-1, base b: T_k-1}: whether a struct meets a virtual base was found by
    following every base field, 2^k steps (K = 18: 0.3 s, K = 40: days). Found reading the
    loader after finding 12."""
    out = _bounded("""
        import bifrons
        from hostile_inputs import doubling_defaults
        document = doubling_defaults(40)
        for definition in document["types"].values():
            for field in definition["fields"]:
                if field["name"] in ("a", "b"):
                    field["base"] = True
        schema = bifrons.Schema(document)  # none: every path was followed to its end
        print(schema.type_name)
    """, memory=512 << 20)
    assert out.split() == ["T40"]
