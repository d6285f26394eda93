# SPDX-License-Identifier: MIT
"""Every conformance vector of tests/conformance (tests/conformance/README.md): positive vectors
decode to their value and encode to their bytes, negative ones fail with their code and offset."""

from __future__ import annotations

import json

import pytest

import bifrons
from conftest import CONFORMANCE, assert_same


def _vectors() -> list:
    cases = []
    for path in sorted(CONFORMANCE.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["bifrons_conformance"] == 1, path
        for vector in document["vectors"]:
            cases.append(pytest.param(document["schema"], vector, id=f"{path.stem}: {vector['name']}"))
    return cases


VECTORS = _vectors()


def test_the_directory_holds_the_vectors() -> None:
    # 9 files and 51 vectors when written; fewer means a file went missing.
    assert len(VECTORS) >= 51
    kinds = {("error" in case.values[1]) for case in VECTORS}
    assert kinds == {True, False}


@pytest.mark.parametrize("schema_document, vector", VECTORS)
def test_vector(schema_document: dict, vector: dict) -> None:
    schema = bifrons.Schema(schema_document)
    data = bytes.fromhex(vector["hex"])
    options = bifrons.ReadOptions(**vector.get("read_options", {}))
    if "error" in vector:
        with pytest.raises(bifrons.DecodeError) as caught:
            schema.decode(data, options)
        assert (caught.value.code.name, caught.value.offset) == (vector["error"]["code"], vector["error"]["offset"])
        return
    assert_same(schema.decode(data, options), vector["value"])
    encoded = schema.encode(vector["value"])
    assert encoded.hex() == vector.get("encodes_to", vector["hex"])
    if "encodes_to" in vector:
        # What this schema's writer wrote reads back as the value, less what it did not write.
        again = schema.decode(encoded, options)
        assert schema.encode(again) == encoded
