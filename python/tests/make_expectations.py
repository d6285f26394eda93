# SPDX-License-Identifier: MIT
"""Writes tests/data/golden_expectations.json: what the C++ reader reports for every truncation
and for single-byte corruptions of every golden file, so that test_hostile.py can hold the
Python reader to the same codes and offsets.

The answers come from bifrons-inspect, whose decoder tests/tools/inspect_test.cpp checks against
the library itself on the same truncations and corruptions. Run it after a change to the golden
files or to the reader (nothing else changes the answers):

    cmake --preset quick && cmake --build build/quick --target bifrons-inspect
    python3 python/tests/make_expectations.py build/quick/tools/bifrons-inspect

It also compares the values that both readers accept, and fails on any disagreement.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parents[1] / "tests" / "golden"
OUTPUT = HERE / "data" / "golden_expectations.json"
sys.path.insert(0, str(HERE.parent / "src"))

import bifrons  # noqa: E402

# The values each byte of a file is set to (when it differs), and how much of a large file.
CORRUPT_WITH = (0x00, 0xFF, 0x80)
CORRUPT_HEAD, CORRUPT_TAIL, CORRUPT_ALL_UP_TO = 96, 32, 400

_ERROR = re.compile(r"bifrons-inspect: stdin: (\w+) \(\d+\) at byte (\d+),")


def inspect(tool: str, schema: Path, data: bytes):  # type: ignore[no-untyped-def]
    run = subprocess.run([tool, "--schema", str(schema)], input=data, capture_output=True, check=False)
    if run.returncode == 0:
        return ("ok", json.loads(run.stdout))
    match = _ERROR.search(run.stderr.decode())
    if run.returncode != 1 or not match:
        raise SystemExit(f"bifrons-inspect failed: {run.stderr.decode()}")
    return (match.group(1), int(match.group(2)))


def python_answer(schema: bifrons.Schema, data: bytes):  # type: ignore[no-untyped-def]
    try:
        return ("ok", schema.decode(data))
    except bifrons.DecodeError as e:
        return (e.code.name, e.offset)


def ranges(answers):  # type: ignore[no-untyped-def]
    """[first, last, code, offset] for each run of truncation lengths with one answer."""
    out = []
    for n, (code, offset) in enumerate(answers):
        if out and out[-1][2] == code and out[-1][3] == offset and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n, code, offset])
    return out


def main() -> None:
    tool = sys.argv[1]
    disagreements = []
    files = {}
    for schema_path in sorted(GOLDEN.glob("*.schema.json")):
        name = schema_path.name[: -len(".schema.json")]
        data = (GOLDEN / f"{name}.bin").read_bytes()
        schema = bifrons.load_schema(schema_path)
        truncations = []
        for n in range(len(data)):
            expected = inspect(tool, schema_path, data[:n])
            if expected[0] == "ok":
                raise SystemExit(f"{name}: a truncation to {n} bytes reads")
            if python_answer(schema, data[:n]) != expected:
                disagreements.append(f"{name} truncated to {n}: C++ {expected}")
            truncations.append(expected)
        positions = list(range(len(data)))
        if len(data) > CORRUPT_ALL_UP_TO:
            positions = positions[:CORRUPT_HEAD] + positions[-CORRUPT_TAIL:]
        corruptions = []
        for pos in positions:
            for byte in CORRUPT_WITH:
                if data[pos] == byte:
                    continue
                corrupted = data[:pos] + bytes([byte]) + data[pos + 1 :]
                expected = inspect(tool, schema_path, corrupted)
                got = python_answer(schema, corrupted)
                if expected[0] == "ok":
                    # Compare as JSON values: both readers print shortest round-trip numbers.
                    if got[0] != "ok" or json.loads(json.dumps(got[1])) != expected[1]:
                        disagreements.append(f"{name} byte {pos} = {byte:#04x}: C++ reads, Python {got[0]}")
                    corruptions.append([pos, byte])
                else:
                    if got != expected:
                        disagreements.append(f"{name} byte {pos} = {byte:#04x}: C++ {expected}, Python {got}")
                    corruptions.append([pos, byte, expected[0], expected[1]])
        files[name] = {"truncations": ranges(truncations), "corruptions": corruptions}
        print(f"{name}: {len(data)} truncations, {len(corruptions)} corruptions", file=sys.stderr)
    if disagreements:
        raise SystemExit("the readers disagree:\n  " + "\n  ".join(disagreements))
    OUTPUT.parent.mkdir(exist_ok=True)
    lines = ["{"]
    for i, (name, found) in enumerate(files.items()):
        lines.append(f'  "{name}": {{')
        lines.append(f'    "truncations": {json.dumps(found["truncations"])},')
        lines.append(f'    "corruptions": {json.dumps(found["corruptions"])}')
        lines.append("  }" + ("," if i + 1 < len(files) else ""))
    lines.append("}")
    OUTPUT.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
