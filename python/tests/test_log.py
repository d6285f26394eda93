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


def _record(sync: bytes, payload: bytes, payload_crc: "int | None" = None, length: "int | None" = None) -> bytes:
    crc = bifrons.crc32c(payload) if payload_crc is None else payload_crc
    header = sync + struct.pack("<II", len(payload) if length is None else length, crc)
    return header + struct.pack("<I", bifrons.crc32c(header)) + payload


def _crc32c_bitwise(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def test_the_pure_crc32c_equals_the_compiled_one_at_every_length() -> None:
    # The compiled CRC (when the crc32c or google-crc32c package is installed, as the python stage
    # installs crc32c) against the table fallback; without one, the fallback against bit by bit.
    import random

    from bifrons import _crc32c

    data = random.Random(35).randbytes(700)
    reference = _crc32c.crc32c if _crc32c.implementation != "python" else lambda d, c=0: _crc32c_bitwise(d)
    for start in range(9):
        for n in range(0, len(data) - start, 1 if _crc32c.implementation != "python" else 13):
            piece = data[start : start + n]
            pure = _crc32c.crc32c_pure(piece)
            assert pure == reference(piece), (_crc32c.implementation, start, n)
            assert _crc32c.crc32c_pure(bytearray(piece)) == pure
            third = n // 3
            assert _crc32c.crc32c_pure(piece[third:], _crc32c.crc32c_pure(piece[:third])) == pure
            if _crc32c.implementation != "python":
                assert bifrons.crc32c(piece[third:], bifrons.crc32c(piece[:third])) == pure
    assert _crc32c.crc32c_pure(b"123456789") == 0xE3069283
    # Joining registers: a's register times x^(8 |b|) plus b's register from 0.
    for split, n in [(0, 0), (1, 5), (100, 0), (13, 300), (0, 699)]:
        a = _crc32c.register(data[:split], 0xFFFFFFFF)
        b = _crc32c.register(data[split : split + n], 0)
        assert _crc32c.multiply(a, _crc32c.zero_bytes(n)) ^ b == _crc32c.register(data[: split + n], 0xFFFFFFFF)


def test_the_fallback_reads_logs_as_the_compiled_crc_does(monkeypatch: pytest.MonkeyPatch) -> None:
    from bifrons import _crc32c

    damaged = (LOGS / "damaged_middle.log").read_bytes()
    compiled = (read(damaged, skip_damaged=True)[0], list(bifrons.read_log(SCHEMA, LOGS / "intact.log")))
    monkeypatch.setattr(_crc32c, "_COMPILED", None)
    pure = (read(damaged, skip_damaged=True)[0], list(bifrons.read_log(SCHEMA, LOGS / "intact.log")))
    assert compiled == pure == ([[1, -2], [300]], MESSAGES)


def test_resynchronising_past_headers_that_claim_large_lengths_is_linear() -> None:
    # As tests/log_test.cpp's LogHostile test: after a damaged record, forged intact headers 16
    # bytes apart, each claiming 256 KiB with a wrong payload CRC, a real record every 1,024 of
    # them, then zeros so that every claim ends inside the log, and a last real record. Checking
    # each candidate from its bytes would checksum 4 GiB; the work must stay a small multiple of
    # the log's size, and every real record must be found.
    claimed = 256 << 10
    data = bytearray((LOGS / "intact.log").read_bytes()[: RECORDS[2]])
    data[RECORDS[1] + 16] ^= 0x40  # the second record's payload
    sync = bytes(data[20:24])
    forged = sync + struct.pack("<II", claimed, 0)
    forged += struct.pack("<I", bifrons.crc32c(forged))
    expected = [MESSAGES[0]]
    kept = RECORDS[1]
    for group in range(8):
        data += forged * 1024
        value = [group, -group, 1000 + group]
        record = _record(sync, SCHEMA.encode(value))
        data += record
        expected.append(value)
        kept += len(record)
    data += bytes(claimed)
    record = _record(sync, SCHEMA.encode([7]))
    data += record
    expected.append([7])
    kept += len(record)
    values, reader = read(bytes(data), skip_damaged=True)
    assert values == expected
    assert (reader.end_offset, reader.torn_tail_bytes) == (len(data), 0)
    assert (reader.damaged_stretches, reader.skipped_bytes) == (9, len(data) - kept)
    assert reader._work <= 16 * len(data)
