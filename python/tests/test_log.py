# SPDX-License-Identifier: MIT
"""Logs (docs/format.md section 36): the golden logs of tests/golden/log read as the C++
log_reader reads them (tests/golden_test.cpp, "GoldenLogs"); every bit flip detected, every
truncation a torn tail; damaged records stopped at or skipped; limits before reading."""

from __future__ import annotations

import io
import struct

import pytest

import bifrons
from conftest import GOLDEN

SCHEMA = bifrons.load_schema(GOLDEN / "vector_int32.schema.json")
LOGS = GOLDEN / "log"
MESSAGES = [[1, -2], [], [300]]
RECORDS = [28, 53, 70, 91]  # each record's offset, then the end of intact.log


def read(data: bytes, **kwargs):  # type: ignore[no-untyped-def]
    reader = bifrons.read_log(SCHEMA, io.BytesIO(data), **kwargs)
    return list(reader), reader


def test_crc32c_check_value() -> None:
    assert bifrons.crc32c(b"123456789") == 0xE3069283
    assert bifrons.crc32c(b"6789", bifrons.crc32c(b"12345")) == 0xE3069283


def test_golden_logs() -> None:
    reader = bifrons.read_log(SCHEMA, LOGS / "intact.log")
    assert list(reader) == MESSAGES
    assert (reader.end_offset, reader.torn_tail_bytes, reader.type_name) == (91, 0, "sequence<i32>")
    reader = bifrons.read_log(SCHEMA, LOGS / "torn_tail.log")
    assert list(reader) == MESSAGES
    assert (reader.end_offset, reader.torn_tail_bytes) == (91, 10)
    damaged = (LOGS / "damaged_middle.log").read_bytes()
    got = []
    with pytest.raises(bifrons.DecodeError) as e:
        for value in bifrons.read_log(SCHEMA, io.BytesIO(damaged)):
            got.append(value)
    assert got == [[1, -2]]
    assert (e.value.code, e.value.offset) == (bifrons.Errc.checksum_mismatch, 53)
    values, reader = read(damaged, skip_damaged=True)
    assert values == [[1, -2], [300]]
    assert (reader.damaged_stretches, reader.skipped_bytes) == (1, 17)


def test_every_bit_flip_is_detected() -> None:
    data = (LOGS / "intact.log").read_bytes()
    for bit in range(8 * len(data)):
        damaged = bytearray(data)
        damaged[bit // 8] ^= 1 << (bit % 8)
        got = []
        with pytest.raises(bifrons.DecodeError) as e:
            for value in bifrons.read_log(SCHEMA, io.BytesIO(bytes(damaged))):
                got.append(value)
        at = bit // 8
        if at >= RECORDS[0]:
            record = max(i for i in range(3) if RECORDS[i] <= at)
            assert (e.value.code, e.value.offset) == (bifrons.Errc.checksum_mismatch, RECORDS[record])
            assert got == MESSAGES[:record]


def test_every_truncation_is_a_torn_tail() -> None:
    data = (LOGS / "intact.log").read_bytes()
    for n in range(RECORDS[0], len(data) + 1):
        values, reader = read(data[:n])
        whole = max(i for i in range(4) if RECORDS[i] <= n)
        assert values == MESSAGES[:whole]
        assert (reader.end_offset, reader.torn_tail_bytes) == (RECORDS[whole], n - RECORDS[whole])
    for n in range(RECORDS[0]):
        with pytest.raises(bifrons.DecodeError):
            read(data[:n])


def test_a_length_above_the_limit_fails_before_reading() -> None:
    data = (LOGS / "intact.log").read_bytes()
    sync = data[20:24]
    header = sync + struct.pack("<II", 0xFFFFFFF0, 0)
    record = header + struct.pack("<I", bifrons.crc32c(header))
    with pytest.raises(bifrons.DecodeError) as e:
        read(data + record, options=bifrons.ReadOptions(max_alloc_bytes=1 << 20))
    assert (e.value.code, e.value.offset) == (bifrons.Errc.allocation_limit_exceeded, 95)


def test_another_type_is_a_type_mismatch() -> None:
    account = bifrons.load_schema(GOLDEN / "account.schema.json")
    with pytest.raises(bifrons.DecodeError) as e:
        bifrons.read_log(account, LOGS / "intact.log")
    assert (e.value.code, e.value.offset) == (bifrons.Errc.type_mismatch, 5)


def test_checksummed_frame() -> None:
    data = (GOLDEN / "framed_crc32c" / "vector_int32.bin").read_bytes()
    assert bifrons.read_frame(data).checksummed
    assert SCHEMA.decode_framed(data) == [1, -2]
    for bit in range(8 * len(data)):
        damaged = bytearray(data)
        damaged[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(bifrons.DecodeError) as e:
            SCHEMA.decode_framed(bytes(damaged))
        if bit // 8 >= 6:
            assert (e.value.code, e.value.offset) == (bifrons.Errc.checksum_mismatch, 28)
