# SPDX-License-Identifier: MIT
"""Mutation fuzzing of the reader with hostile schemas and hostile bytes.

Seeds: the golden files of tests/golden and the conformance vectors of tests/conformance, each a
schema and bytes. A case mutates the bytes, the schema, or both, and holds the package to what it
promises for any schema and any data (python/README.md, "Reading untrusted bytes"):

- a schema loads or raises SchemaError;
- a read returns a value or raises DecodeError (with an offset inside the input), and Python's
  own accounting (tracemalloc) sees it hold no more than about its max_alloc_bytes plus what its
  input's bytes pay for;
- a value that reads writes (or raises EncodeError), and what is written reads back the same.

The test runs a few thousand cases with fixed seeds. A longer campaign, from the repository root:

    PYTHONPATH=python/src:python/tests python3 python/tests/test_fuzz.py --seconds 1200 --seed 1

prints the executions and saves each failing case (schema, bytes, what happened) as JSON.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
import tracemalloc
import traceback
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest

import bifrons
from conftest import CONFORMANCE, GOLDEN

# Small, so that the budget is what stops hostile counts (and the cases stay fast).
BUDGET = 1 << 20
OPTIONS = bifrons.ReadOptions(max_alloc_bytes=BUDGET)
# What a read may hold beyond its budget: what the budget does not charge (numbers, at most
# 36 bytes for each input byte, and the input itself), and the interpreter's own
# bookkeeping (exceptions, frames, the first use of a code path).
PER_INPUT_BYTE = 64
SLACK = 256 << 10


def seeds() -> List[Tuple[str, Dict[str, Any], bytes]]:
    found = []
    for path in sorted(GOLDEN.glob("*.schema.json")):
        name = path.name[: -len(".schema.json")]
        found.append((f"golden/{name}", json.loads(path.read_text()), (GOLDEN / f"{name}.bin").read_bytes()))
    for path in sorted(CONFORMANCE.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        for vector in document["vectors"]:
            found.append((f"conformance/{path.stem}/{vector['name']}", document["schema"], bytes.fromhex(vector["hex"])))
    return found


# ---- mutations ------------------------------------------------------------------------------------

_COUNTS = [b"\x00", b"\x01", b"\x7f", b"\x80\x01", b"\xff\xff\x03", b"\x80\x80\x80\x20", b"\xff\xff\xff\xff\x0f",
           b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"]


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        op = rng.randrange(6)
        at = rng.randrange(len(out) + 1)
        if op == 0 and out:  # one byte
            out[min(at, len(out) - 1)] = rng.choice([0, 1, 2, 0x7F, 0x80, 0xFF, rng.randrange(256)])
        elif op == 1:  # a count, a tag, a header
            out[at:at] = rng.choice(_COUNTS)
        elif op == 2 and out:  # a cut
            del out[at : at + rng.randrange(1, 9)]
        elif op == 3 and out:  # a copy of a part elsewhere (a repeated element)
            start = rng.randrange(len(out))
            out[at:at] = out[start : start + rng.randrange(1, 33)]
        elif op == 4:
            del out[at:]
        else:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5)))
    return bytes(out)


_PRIMITIVES = ["bool", "char", "byte", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64",
               "monostate"]
_SIZES = [0, 1, 2, 3, 255, 1 << 16, 1 << 26, 1 << 32, 1 << 33, -1]
_HEX = ["", "00", "01", "02", "0400", "8080800c", "80808020", "ffffffff0f", "0100", "0200", "030000", "04000000"]


def _nodes(value: Any, found: List[Any]) -> List[Any]:
    """Every dict and list in a document."""
    if isinstance(value, dict):
        found.append(value)
        for v in value.values():
            _nodes(v, found)
    elif isinstance(value, list):
        found.append(value)
        for v in value:
            _nodes(v, found)
    return found


def _expressions(document: Dict[str, Any]) -> List[Any]:
    """Type expressions to put elsewhere: primitives, the document's names, its composite types."""
    names = list(document.get("types", {})) if isinstance(document.get("types"), dict) else []
    found: List[Any] = _PRIMITIVES + names
    found += [n for n in _nodes(document, []) if isinstance(n, dict) and "kind" in n and "fields" not in n]
    return found


def _wrap(rng: random.Random, inner: Any) -> Any:
    kind = rng.choice(["sequence", "array", "optional", "set", "map", "tuple", "variant", "pointer", "complex",
                       "deprecated", "fixed"])
    if kind == "sequence":
        return {"kind": kind, "element": inner, **({"varint": True} if rng.random() < 0.2 else {})}
    if kind == "array":
        return {"kind": kind, "element": inner, "size": rng.choice(_SIZES[:-1])}
    if kind in ("optional", "complex", "fixed"):
        return {"kind": kind, "of": inner}
    if kind == "set":
        return {"kind": kind, "key": inner, **({"multi": True} if rng.random() < 0.2 else {})}
    if kind == "map":
        return {"kind": kind, "key": inner, "value": rng.choice(_PRIMITIVES)}
    if kind == "tuple":
        return {"kind": kind, "elements": [copy.deepcopy(inner) for _ in range(rng.choice([1, 2, 3, 50]))]}
    if kind == "variant":
        return {"kind": kind, "alternatives": [rng.choice(_PRIMITIVES), inner]}
    if kind == "pointer":
        return {"kind": kind, "role": rng.choice(["unique", "shared", "weak", "raw", "owning", "reference"]), "to": inner}
    return {"kind": kind, "of": inner, "writes": rng.choice(_HEX)}


def mutate_schema(rng: random.Random, document: Dict[str, Any]) -> Dict[str, Any]:
    doc = copy.deepcopy(document)
    for _ in range(rng.choice([1, 1, 2, 3])):
        nodes = [n for n in _nodes(doc, []) if isinstance(n, dict)]
        node = rng.choice(nodes)
        expressions = _expressions(doc)
        keys = list(node)
        op = rng.randrange(10)
        if op == 0 and keys:  # another type in a place of a type
            for key in ("type", "element", "of", "key", "value", "to", "root", "rep"):
                if key in node:
                    node[key] = copy.deepcopy(rng.choice(expressions))
                    break
        elif op == 1:  # wrap a type in a composite one
            for key in ("type", "element", "of", "key", "value", "to", "root"):
                if key in node:
                    node[key] = _wrap(rng, node[key])
                    break
        elif op == 2 and "size" in node:
            node["size"] = rng.choice(_SIZES)
        elif op == 3 and ("default" in node or "writes" in node):
            key = "default" if "default" in node else "writes"
            node[key] = rng.choice(_HEX + [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9))).hex()])
        elif op == 4 and isinstance(node.get("fields"), list):  # a field more: of its own type, or a copy
            fields = node["fields"]
            if fields and rng.random() < 0.5:
                extra = copy.deepcopy(rng.choice(fields))
                extra["name"] = f"{extra.get('name')}_{rng.randrange(100)}"
            else:
                own = next((name for name, t in doc["types"].items() if t is node), "i32")
                extra = {"name": f"x{rng.randrange(100)}", "type": rng.choice([own, rng.choice(expressions)]),
                         "default": rng.choice(_HEX)}
                if node.get("kind") == "record":
                    extra.update(offset=node.get("size", 0), width=rng.choice([0, 1, 4]))
            fields.insert(rng.randrange(len(fields) + 1), extra)
        elif op == 5 and "kind" in node:
            node["kind"] = rng.choice(["struct", "record", "enum", "sequence", "array", "set", "map", "tuple",
                                       "optional", "variant", "string", "pointer", "bitset", "bitvector", "complex"])
        elif op == 6:  # a flag
            node[rng.choice(["varint", "multi", "view", "identity", "virtual", "base", "abstract", "hook"])] = True
        elif op == 7 and keys:
            del node[rng.choice(keys)]
        elif op == 8 and "version" in node or op == 8 and node.get("kind") == "struct":
            node["version"] = rng.choice([0, 1, 7, 1 << 32])
        elif op == 9 and isinstance(doc.get("types"), dict) and doc["types"]:  # the root: another type
            doc["root"] = rng.choice(list(doc["types"]) + [_wrap(rng, doc.get("root", "i32"))])
    return doc


# ---- the properties ----------------------------------------------------------------------------------


class Finding(Exception):
    pass


def check(document: Any, data: bytes) -> str:
    """One case; raises Finding if a promise is broken, else says what happened."""
    tracemalloc.start()
    try:
        try:
            schema = bifrons.Schema(document)
        except bifrons.SchemaError:
            return "schema refused"
        schema_peak = tracemalloc.get_traced_memory()[1]
        # A schema's defaults share one budget of 256 MiB; these are small.
        if schema_peak > (300 << 20):
            raise Finding(f"loading the schema held {schema_peak} bytes")
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        try:
            value = schema.decode(data, OPTIONS)
        except bifrons.DecodeError as e:
            if not 0 <= e.offset <= len(data) or not isinstance(e.code, bifrons.Errc):
                raise Finding(f"an error outside the input: {e!r} at {e.offset}") from None
            outcome = f"decode error {e.code.name}"
            value = None
        else:
            outcome = "decoded"
        held = tracemalloc.get_traced_memory()[1] - before
        if held > 2 * BUDGET + PER_INPUT_BYTE * len(data) + SLACK:
            raise Finding(f"the read held {held} bytes ({outcome})")
    finally:
        tracemalloc.stop()
    if value is None and outcome != "decoded":
        return outcome
    try:
        again = schema.encode(value)
    except bifrons.EncodeError:
        # A hostile schema can give a value no writer writes: a bool field of default ""
        # (read as null), a reference to an object a deprecated field discarded.
        return "decoded, no encoding"
    try:
        # Written in full (records of stride 0 at their size, fields that took defaults):
        # more bytes, read with the default budget.
        value_again = schema.decode(again)
    except bifrons.DecodeError as e:
        raise Finding(f"what was written does not read: {e}") from None
    if schema.encode(value_again) != again:
        raise Finding("what was written reads as another value")
    return outcome


def case(rng: random.Random, corpus: List[Tuple[str, Dict[str, Any], bytes]]) -> Tuple[str, Any, bytes]:
    name, document, data = rng.choice(corpus)
    what = rng.random()
    if what < 0.4:
        return name, document, mutate_bytes(rng, data)
    if what < 0.8:
        return name, mutate_schema(rng, document), data
    return name, mutate_schema(rng, document), mutate_bytes(rng, data)


def run(seed: int, executions: Optional[int] = None, seconds: Optional[float] = None,
        report: Callable[[str, Any, bytes, str], None] = lambda *a: None,
        slow: Optional[Callable[[str, Any, bytes, float], None]] = None) -> Dict[str, int]:
    """Runs cases until `executions` or `seconds`; `slow` hears of each case that took more than
    a second of CPU time (campaigns only: no test depends on speed)."""
    corpus = seeds()
    rng = random.Random(seed)
    outcomes: Dict[str, int] = {}
    start = time.monotonic()
    done = 0
    while (executions is None or done < executions) and (seconds is None or time.monotonic() - start < seconds):
        name, document, data = case(rng, corpus)
        cpu = time.process_time()
        try:
            outcome = check(document, data)
        except Finding as e:
            outcome = "FINDING"
            report(name, document, data, str(e))
        except Exception:  # anything but the package's own errors
            outcome = "FINDING"
            report(name, document, data, traceback.format_exc())
        cpu = time.process_time() - cpu
        if slow is not None and cpu > 1.0:
            slow(name, document, data, cpu)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        done += 1
    return outcomes


@pytest.mark.parametrize("seed", range(4))
def test_mutated_schemas_and_bytes(seed: int) -> None:
    found: List[str] = []

    def report(name: str, document: Any, data: bytes, what: str) -> None:
        found.append(f"{name}: {what}\nbytes {data.hex()}\nschema {json.dumps(document)}")

    outcomes = run(seed, executions=800, report=report)
    assert not found, "\n\n".join(found[:3])
    # The mutations reach the reader: most schemas load, and reads both succeed and fail.
    assert outcomes.get("decoded", 0) > 50 and sum(n for k, n in outcomes.items() if k.startswith("decode error")) > 200
    assert outcomes.get("schema refused", 0) < 400


def test_found_by_fuzzing() -> None:
    # A set of deprecated keys: every key is written as the schema's `writes`, so two of them
    # are written as one key twice, which no reader reads (the writer compared the values).
    keyed = bifrons.Schema({"bifrons_schema": 1, "format": 1, "types": {},
                            "root": {"kind": "set", "key": {"kind": "deprecated", "of": "i32", "writes": "01"}}})
    assert keyed.decode(bytes.fromhex("020402")) == [2, 1]
    with pytest.raises(bifrons.EncodeError) as caught:
        keyed.encode([2, 1])
    assert caught.value.code == bifrons.Errc.duplicate_key and caught.value.path == "[1]"
    assert keyed.encode([2]) == bytes.fromhex("0101")
    # A set of a diamond J {base L, base R}, L and R with the virtual base V: the second V is
    # absent from the value, and the key of a J looked it up (KeyError).
    def struct(*fields: dict) -> dict:
        return {"kind": "struct", "fields": [{"default": "00", **f} for f in fields]}

    diamonds = bifrons.Schema({"bifrons_schema": 1, "format": 1, "root": {"kind": "set", "key": "J"}, "types": {
        "V": struct({"name": "x", "type": "i8"}),
        "L": struct({"name": "v", "type": "V", "base": True, "virtual": True}),
        "R": struct({"name": "v", "type": "V", "base": True, "virtual": True}),
        "J": struct({"name": "l", "type": "L", "base": True}, {"name": "r", "type": "R", "base": True}),
    }})
    data = bytes.fromhex("01" "08" "04" "0202" "00")
    assert diamonds.decode(data) == [{"l": {"v": {"x": 1}}, "r": {}}]
    assert diamonds.encode(diamonds.decode(data)) == data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"))
    args = parser.parse_args()
    findings: List[str] = []

    def report(name: str, document: Any, data: bytes, what: str) -> None:
        args.out.mkdir(exist_ok=True)
        path = args.out / f"finding-{args.seed}-{len(findings)}.json"
        path.write_text(json.dumps({"seed": name, "what": what, "hex": data.hex(), "schema": document}, indent=1))
        findings.append(str(path))
        print(f"FINDING {path}: {what.splitlines()[-1]}", flush=True)

    def slow(name: str, document: Any, data: bytes, cpu: float) -> None:
        args.out.mkdir(exist_ok=True)
        path = args.out / f"slow-{args.seed}-{cpu:.1f}s.json"
        path.write_text(json.dumps({"seed": name, "cpu": cpu, "hex": data.hex(), "schema": document}, indent=1))
        print(f"SLOW {path}", flush=True)

    started = time.monotonic()
    outcomes = run(args.seed, seconds=args.seconds, report=report, slow=slow)
    total = sum(outcomes.values())
    print(f"{total} executions in {time.monotonic() - started:.0f} s, {len(findings)} findings")
    for outcome, n in sorted(outcomes.items(), key=lambda kv: -kv[1]):
        print(f"  {n:8d}  {outcome}")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
