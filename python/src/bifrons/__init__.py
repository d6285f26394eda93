# SPDX-License-Identifier: MIT
"""Read and write bifrons data in Python, given the schema that bifrons::schema<T>() exports.

    import bifrons
    schema = bifrons.load_schema("account.schema.json")
    value = schema.decode(data)          # JSON values: dict, list, int, float, str, bool, None
    assert schema.encode(value) == data

The wire format is docs/format.md, the schema model and the values docs/schema.md.
"""

from ._errors import DecodeError, EncodeError, Errc, Error, SchemaError
from ._frame import Frame, kafka_fingerprint, read_frame
from ._log import LogReader, crc32c, read_log
from ._schema import Schema, load_schema
from ._state import ReadOptions

__all__ = [
    "DecodeError",
    "EncodeError",
    "Errc",
    "Error",
    "Frame",
    "LogReader",
    "ReadOptions",
    "Schema",
    "SchemaError",
    "crc32c",
    "kafka_fingerprint",
    "load_schema",
    "read_frame",
    "read_log",
]

__version__ = "0.1.0"
