# SPDX-License-Identifier: MIT
"""python -m bifrons --schema S [FILE]: prints the value in FILE (or standard input) as JSON.

A typed file (bifrons::to_framed) is read through its frame, which must name the schema's root
type. Exits 1 on bad data, with the error code, offset and field path; 2 on a bad schema or
usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import List, Optional

from ._errors import DecodeError, Errc, SchemaError
from ._frame import MAGIC, kafka_fingerprint
from ._schema import load_schema
from ._state import ReadOptions


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bifrons", description=__doc__.splitlines()[0])
    parser.add_argument("--schema", required=True, help="the schema document (JSON of bifrons::schema<T>())")
    parser.add_argument("file", nargs="?", default="-", help="the bytes to read (default: standard input)")
    defaults = ReadOptions()
    parser.add_argument("--max-depth", type=int, default=defaults.max_depth)
    parser.add_argument("--max-elements", type=int, default=defaults.max_elements)
    parser.add_argument("--max-objects", type=int, default=defaults.max_objects)
    parser.add_argument("--max-alloc-bytes", type=int, default=defaults.max_alloc_bytes)
    parser.add_argument(
        "--unknown-types-null",
        action="store_true",
        help="objects of registered classes the schema does not know read as null (unknown_type_policy::null)",
    )
    parser.add_argument(
        "--framed", action="store_true", help="the file must be typed (bifrons::to_framed): else not_bifrons"
    )
    args = parser.parse_args(argv)
    try:
        schema = load_schema(args.schema)
        options = ReadOptions(
            args.max_depth, args.max_elements, args.max_objects, args.max_alloc_bytes, args.unknown_types_null
        )
    except (OSError, SchemaError, ValueError) as e:
        print(f"bifrons: {args.schema}: {e}", file=sys.stderr)
        return 2
    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except OSError as e:
        print(f"bifrons: {e}", file=sys.stderr)
        return 2
    name = "stdin" if args.file == "-" else args.file
    # A typed file, or a Kafka value with its writer's schema fingerprint before the frame.
    framed = data.startswith(MAGIC) or kafka_fingerprint(data) is not None
    try:
        if framed or args.framed:
            value = schema.decode_framed(data, options)
        else:
            value = schema.decode(data, options)
    except DecodeError as e:
        # An unknown type: the message names it (the codes' own texts say the rest).
        named = f": {e.message}" if e.code == Errc.unknown_type and e.message != e.code.name else ""
        print(f"bifrons: {name}: {e.code.name} ({int(e.code)}) at byte {e.offset}, in {e.path}{named}", file=sys.stderr)
        if not framed and e.code != Errc.not_bifrons:
            print(
                f"bifrons: {name} has no frame, so it was read as an untyped value of the schema's root; if it "
                "should be a typed file (bifrons::to_framed), it is not bifrons data (--framed says so)",
                file=sys.stderr,
            )
        return 1
    print(json.dumps(value, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
