# SPDX-License-Identifier: MIT
"""How fast the pure-Python reader and writer are: decodes (and encodes) a golden file in a loop
and prints MB/s of input and microseconds per value, in the process's CPU time (on a machine
shared with other work, wall-clock time measures the others too).

    python3 python/bench_decode.py                    # tests/golden/account.bin
    python3 python/bench_decode.py records --seconds 5
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import bifrons

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def measure(run, size: int, seconds: float) -> tuple:  # type: ignore[no-untyped-def]
    """Best of rounds of about 0.1 s for `seconds`: (MB/s, microseconds per call)."""
    clock = time.process_time
    calls = 1
    while True:  # calls per round, so that a round takes about 0.1 s
        started = clock()
        for _ in range(calls):
            run()
        if clock() - started > 0.1:
            break
        calls *= 2
    best = float("inf")
    deadline = clock() + seconds
    while clock() < deadline:
        started = clock()
        for _ in range(calls):
            run()
        best = min(best, (clock() - started) / calls)
    return size / best / 1e6, best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", nargs="?", default="account", help="a golden case (tests/golden/CASE.bin)")
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    args = parser.parse_args()
    schema = bifrons.load_schema(GOLDEN / f"{args.case}.schema.json")
    data = (GOLDEN / f"{args.case}.bin").read_bytes()
    value = schema.decode(data)
    assert schema.encode(value) == data
    print(f"{args.case}.bin, {len(data)} bytes; Python {platform.python_version()} ({platform.python_implementation()})")
    for what, run in (("decode", lambda: schema.decode(data)), ("encode", lambda: schema.encode(value))):
        rate, micros = measure(run, len(data), args.seconds)
        print(f"  {what}: {rate:.2f} MB/s, {micros:.1f} us per value")


if __name__ == "__main__":
    main()
