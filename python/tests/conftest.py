# SPDX-License-Identifier: MIT
"""Shared paths and a strict comparison of values."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
CONFORMANCE = REPO / "tests" / "conformance"
DATA = Path(__file__).resolve().parent / "data"


def golden_names() -> list:
    return sorted(p.name[: -len(".schema.json")] for p in GOLDEN.glob("*.schema.json"))


def differences(got: Any, expected: Any, path: str = "") -> list:
    """Where two values differ, type for type: a bool is not 1, 1 is not 1.0, -0.0 is not 0.0
    (floats compared bit for bit)."""
    where = path or "(root)"
    if type(got) is not type(expected):
        return [f"{where}: {got!r} ({type(got).__name__}) != {expected!r} ({type(expected).__name__})"]
    if isinstance(expected, dict):
        if list(got) != list(expected) and set(got) != set(expected):
            return [f"{where}: members {sorted(got)} != {sorted(expected)}"]
        return [d for k in expected for d in differences(got[k], expected[k], f"{path}.{k}")]
    if isinstance(expected, list):
        if len(got) != len(expected):
            return [f"{where}: {len(got)} elements != {len(expected)}"]
        return [d for i, (a, b) in enumerate(zip(got, expected)) for d in differences(a, b, f"{path}[{i}]")]
    if isinstance(expected, float):
        if struct.pack("<d", got) != struct.pack("<d", expected):
            return [f"{where}: {got!r} != {expected!r}"]
        return []
    return [] if got == expected else [f"{where}: {got!r} != {expected!r}"]


def assert_same(got: Any, expected: Any) -> None:
    found = differences(got, expected)
    assert not found, "\n".join(found[:20])
