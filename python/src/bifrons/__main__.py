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

from ._errors import DecodeError, SchemaError
from ._frame import MAGIC
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
    args = parser.parse_args(argv)
    try:
        schema = load_schema(args.schema)
        options = ReadOptions(args.max_depth, args.max_elements, args.max_objects, args.max_alloc_bytes)
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
    try:
        if data.startswith(MAGIC):
            value = schema.decode_framed(data, options)
        else:
            value = schema.decode(data, options)
    except DecodeError as e:
        name = "stdin" if args.file == "-" else args.file
        print(f"bifrons: {name}: {e.code.name} ({int(e.code)}) at byte {e.offset}, in {e.path}", file=sys.stderr)
        return 1
    print(json.dumps(value, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
