# SPDX-License-Identifier: MIT
"""A schema document (docs/schema.md) loaded into codecs, and the public reading and writing."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Set, Tuple, Union

from ._codecs import (
    INVALID,
    PRIMITIVES,
    ROLES,
    STRING_UNITS,
    Alias,
    Array,
    Associative,
    Bitset,
    Bitvector,
    Codec,
    Complex,
    Deprecated,
    Enum,
    Field,
    Fixed,
    Integer,
    Optional_,
    Pointer,
    Registered,
    Record,
    Sequence_,
    String,
    Struct,
    Tuple_,
    Variant,
    tree_cost,
)
from ._errors import DecodeError, EncodeError, Errc, Error, SchemaError
from ._frame import MAGIC, frame_header, kafka_fingerprint_prefix_size, read_frame
from ._log import crc32c
from ._state import ReadOptions, Reader, Writer

# Fixed sizes beyond any real type, refused as the C++ tools refuse them.
_MAX_FIXED_SIZE = 1 << 32
_DEFAULT_OPTIONS = ReadOptions()
# Reading a field default or a deprecated field's `writes`: bytes from the schema, not input.
# Python's recursion limit bounds the depth; all the defaults of one schema share one budget,
# max_alloc_bytes (a hostile schema's defaults can hold 2^26 elements that take no bytes each).
_SCHEMA_BYTES_OPTIONS = ReadOptions(max_depth=1 << 30)

Bytes = Union[bytes, bytearray, memoryview]


def _fail(path: str, why: str) -> SchemaError:
    return SchemaError(why, None, path or "(document)")


def _number(value: Any, path: str) -> int:
    if type(value) is not int or value < 0:
        raise _fail(path, f"a non-negative integer, not {value!r}")
    return value


def _allowed(obj: Mapping[str, Any], path: str, keys: Set[str]) -> None:
    for k in obj:
        if k not in keys:
            raise _fail(path, f"unknown key {k!r}")


def _member(obj: Mapping[str, Any], path: str, key: str) -> Any:
    if key not in obj:
        raise _fail(path, f"missing {key!r}")
    return obj[key]


def _flag(obj: Mapping[str, Any], key: str, path: str) -> bool:
    if key not in obj:
        return False
    if obj[key] is not True:
        raise _fail(f"{path}.{key}", "only `true` (absent when false)")
    return True


def _hex(value: Any, path: str) -> bytes:
    if not isinstance(value, str):
        raise _fail(path, "a hex string")
    if len(value) % 2 or value.strip("0123456789abcdefABCDEF"):
        raise _fail(path, "a hex string: pairs of hex digits, without separators")
    return bytes.fromhex(value)


class _Loader:
    def __init__(self, document: Any) -> None:
        self.document = document
        self.named: Dict[str, Codec] = {}
        self.fields: List[Field] = []
        self.deprecated: List[Deprecated] = []
        self.registered = Registered()
        # Decoding the defaults: their budget, and what tree_cost found for the objects in them
        # (which the fields keep alive while the schema loads).
        self.defaults = Reader(b"", _SCHEMA_BYTES_OPTIONS, defaults=True)
        self.costs: Optional[Dict[int, int]] = {}

    def load(self) -> Codec:
        doc = self.document
        if not isinstance(doc, dict):
            raise _fail("", "a schema is a JSON object")
        _allowed(doc, "", {"bifrons_schema", "format", "root", "types", "polymorphic"})
        if _number(_member(doc, "", "bifrons_schema"), "bifrons_schema") != 1:
            raise _fail("bifrons_schema", "only version 1 of the schema model is known")
        if _number(_member(doc, "", "format"), "format") != 1:
            raise _fail("format", "only format 1 is known")
        types = _member(doc, "", "types")
        if not isinstance(types, dict):
            raise _fail("types", "an object")
        for name, definition in types.items():
            if not isinstance(name, str):
                raise _fail("types", f"a type name is a string, not {name!r}")
            self.named[name] = self._declare(name, definition)
        for name, definition in types.items():
            self._define(name, definition)
        root = self._expression(_member(doc, "", "root"), "root")
        self._polymorphic(doc.get("polymorphic"), types)
        meets: Dict[str, bool] = {}
        for codec in self.named.values():
            if isinstance(codec, Record):
                self._layout(codec, [])
            if isinstance(codec, Struct):
                codec.virtual_scope = self._meets_virtual_bases(codec, meets)
        for field in self.fields:
            field.shared_default(self.defaults)
        self.costs = None
        for deprecated in self.deprecated:
            self._written_objects(deprecated)
        return root

    # ---- named types ----------------------------------------------------------------------------

    def _declare(self, name: str, definition: Any) -> Codec:
        path = f"types[{name!r}]"
        if name in PRIMITIVES or not name:
            raise _fail(path, "a reserved or empty name")
        if not isinstance(definition, dict):
            raise _fail(path, "a definition is an object")
        kind = _member(definition, path, "kind")
        if kind == "enum":
            _allowed(definition, path, {"kind", "underlying"})
            underlying = _member(definition, path, "underlying")
            if not isinstance(underlying, str) or underlying not in PRIMITIVES or underlying in (
                "byte", "f32", "f64", "monostate"
            ):
                raise _fail(f"{path}.underlying", "bool, char or an integer type")
            return Enum(name, PRIMITIVES[underlying])
        if kind == "struct":
            _allowed(
                definition, path, {"kind", "fields", "version", "refuse_newer", "identity", "hook", "bases", "abstract"}
            )
            _flag(definition, "refuse_newer", path)  # the reader of a schema's data needs it not
            struct = Struct(name)
            struct.abstract = _flag(definition, "abstract", path)
            if "version" in definition:
                version = _number(definition["version"], f"{path}.version")
                if version > 0xFFFFFFFF:
                    raise _fail(f"{path}.version", "at most 2^32 - 1")
                struct.version = version
            struct.identity = _flag(definition, "identity", path)
            struct.hook = _flag(definition, "hook", path)
            return struct
        if kind == "record":
            _allowed(definition, path, {"kind", "fields", "size"})
            record = Record(name)
            record.size = _number(_member(definition, path, "size"), f"{path}.size")
            return record
        raise _fail(f"{path}.kind", "struct, record or enum")

    def _define(self, name: str, definition: Dict[str, Any]) -> None:
        codec = self.named[name]
        if isinstance(codec, Enum):
            return
        assert isinstance(codec, (Struct, Record))
        path = f"types[{name!r}]"
        is_record = isinstance(codec, Record)
        fields = _member(definition, path, "fields")
        if not isinstance(fields, list):
            raise _fail(f"{path}.fields", "an array")
        names: Set[str] = set()
        for i, f in enumerate(fields):
            fpath = f"{path}.fields[{i}]"
            if not isinstance(f, dict):
                raise _fail(fpath, "a field is an object")
            if is_record:
                _allowed(f, fpath, {"name", "type", "default", "offset", "width"})
            else:
                _allowed(f, fpath, {"name", "type", "default", "base", "virtual"})
            field_name = _member(f, fpath, "name")
            if not isinstance(field_name, str) or field_name.startswith("$"):
                raise _fail(f"{fpath}.name", "a string that does not begin with $")
            if field_name in names:
                raise _fail(f"{fpath}.name", f"a second field named {field_name!r}: values could not hold both")
            names.add(field_name)
            field_codec = self._expression(_member(f, fpath, "type"), f"{fpath}.type")
            default = _hex(_member(f, fpath, "default"), f"{fpath}.default")
            if is_record:
                field = Field(
                    field_name,
                    field_codec,
                    default,
                    offset=_number(_member(f, fpath, "offset"), f"{fpath}.offset"),
                    width=_number(_member(f, fpath, "width"), f"{fpath}.width"),
                )
                field._decode = _record_default_decoder(fpath)
            else:
                field = Field(
                    field_name,
                    field_codec,
                    default,
                    base=_flag(f, "base", fpath),
                    virtual=_flag(f, "virtual", fpath),
                )
                if field.virtual and not (field.base and isinstance(field_codec, Struct)):
                    raise _fail(f"{fpath}.virtual", "only on a base field of a struct")
                field._decode = _struct_default_decoder(fpath, self)
            codec.fields.append(field)
            self.fields.append(field)
        if isinstance(codec, Struct):
            codec.finish()

    def _polymorphic(self, registered: Any, types: Dict[str, Any]) -> None:
        """The registered names (docs/schema.md section 6): each of one struct, each struct under
        one name; "bases" only on those structs, naming other types."""
        if registered is not None:
            if not isinstance(registered, dict) or not registered:
                raise _fail("polymorphic", "an object, absent when empty")
            for name, target in registered.items():
                path = f"polymorphic[{name!r}]"
                if not isinstance(name, str) or not 1 <= len(name.encode("utf-8")) <= 255:
                    raise _fail(path, "a registered name has 1 to 255 bytes")
                struct_ = self.named.get(target) if isinstance(target, str) else None
                if not isinstance(struct_, Struct):
                    raise _fail(path, "the name of a struct")
                if struct_.spelling in self.registered.structs:
                    raise _fail(path, f"{target!r} is registered under two names")
                self.registered.add(name, struct_)
        for name, definition in types.items():
            if "bases" not in definition:
                continue
            path = f"types[{name!r}].bases"
            bases = definition["bases"]
            if name not in self.registered.structs:
                raise _fail(path, 'only a registered class (a value of "polymorphic") lists bases')
            if not isinstance(bases, list) or not bases:
                raise _fail(path, "an array of names, absent when empty")
            for b in bases:
                if not isinstance(b, str) or b not in self.named or b == name:
                    raise _fail(path, "names of other types")
            self.named[name].bases = frozenset(bases)  # type: ignore[attr-defined]

    def _meets_virtual_bases(self, struct_: Struct, meets: Dict[str, bool]) -> bool:
        """Whether a struct's base fields (and theirs) name a virtual base. Each struct is
        looked at once (meets: by name), else two base fields of one type at each level of a
        chain would take 2^levels steps. A struct that holds itself (which its defaults refuse
        unless they are "") is taken as meeting none while it is looked at."""
        found = meets.get(struct_.name)
        if found is None:
            meets[struct_.name] = False
            found = meets[struct_.name] = any(
                f.virtual or (f.base and isinstance(f.codec, Struct) and self._meets_virtual_bases(f.codec, meets))
                for f in struct_.fields
            )
        return found

    def _layout(self, record: Record, visiting: List[str]) -> int:
        """Checks a record's offsets, widths, defaults and size against its fields' types."""
        if record.record_width is not None:
            return record.record_width
        path = f"types[{record.name!r}]"
        if record.name in visiting:
            raise _fail(path, f"a record that holds itself ({' -> '.join(visiting + [record.name])})")
        visiting = visiting + [record.name]
        offset = 0
        for f in record.fields:
            width = self._field_width(f.codec, visiting, f"{path}.fields[{f.name!r}]")
            if f.offset != offset or f.width != width or len(f.default_bytes) != width:
                raise _fail(path, f"field {f.name!r} has an offset, width or default that its type does not give")
            offset += width
        if offset != record.size:
            raise _fail(f"{path}.size", "not the sum of the fields' widths")
        record.finish()
        return record.size

    def _field_width(self, codec: Codec, visiting: List[str], path: str) -> int:
        if isinstance(codec, Record):
            return self._layout(codec, visiting)
        if isinstance(codec, Enum) or codec.block_width:
            return codec.record_width  # type: ignore[return-value]
        if isinstance(codec, Array) and not codec.varint:
            codec.record_width = codec.size * self._field_width(codec.element, visiting, path)
            return codec.record_width
        raise _fail(path, f"{codec.spelling} cannot be a record field")

    def _written_objects(self, deprecated: Deprecated) -> None:
        """What reading a deprecated field's `writes` introduces: a writer counts those ids."""
        r = Reader(deprecated.writes, _SCHEMA_BYTES_OPTIONS)
        try:
            deprecated.read(r)
            if r.pos != len(deprecated.writes):
                raise DecodeError(Errc.trailing_bytes, r.pos)
        except DecodeError as e:
            raise _fail(deprecated.spelling, f"its writes bytes do not decode ({e})") from None
        deprecated.written_objects = r.objects

    # ---- type expressions -----------------------------------------------------------------------

    def _expression(self, v: Any, path: str) -> Codec:
        if isinstance(v, str):
            if v in PRIMITIVES:
                return PRIMITIVES[v]
            if v in self.named:
                return self.named[v]
            raise _fail(path, f"{v!r} is neither a primitive nor a type of \"types\"")
        if not isinstance(v, dict):
            raise _fail(path, "a type expression is a string or an object")
        kind = _member(v, path, "kind")

        def sub(key: str) -> Codec:
            return self._expression(_member(v, path, key), f"{path}.{key}")

        def subs(key: str) -> List[Codec]:
            items = _member(v, path, key)
            if not isinstance(items, list):
                raise _fail(f"{path}.{key}", "an array")
            return [self._expression(item, f"{path}.{key}[{i}]") for i, item in enumerate(items)]

        def size() -> int:
            n = _number(_member(v, path, "size"), f"{path}.size")
            if n > _MAX_FIXED_SIZE:
                raise _fail(f"{path}.size", "more than 2^32")
            return n

        if kind == "string":
            _allowed(v, path, {"kind", "unit", "view"})
            unit = _member(v, path, "unit")
            if unit not in STRING_UNITS:
                raise _fail(f"{path}.unit", "char, u16 or u32")
            return String(*STRING_UNITS[unit], view=_flag(v, "view", path))
        if kind == "sequence":
            _allowed(v, path, {"kind", "element", "varint", "view"})
            return Sequence_(sub("element"), _flag(v, "varint", path), _flag(v, "view", path))
        if kind == "bitvector":
            _allowed(v, path, {"kind"})
            return Bitvector()
        if kind == "array":
            _allowed(v, path, {"kind", "element", "size", "varint"})
            return Array(sub("element"), size(), _flag(v, "varint", path))
        if kind == "bitset":
            _allowed(v, path, {"kind", "size"})
            return Bitset(size())
        if kind == "set":
            _allowed(v, path, {"kind", "key", "multi"})
            return Associative(sub("key"), None, _flag(v, "multi", path))
        if kind == "map":
            _allowed(v, path, {"kind", "key", "value", "multi"})
            return Associative(sub("key"), sub("value"), _flag(v, "multi", path))
        if kind == "tuple":
            _allowed(v, path, {"kind", "elements"})
            return Tuple_(subs("elements"))
        if kind == "variant":
            _allowed(v, path, {"kind", "alternatives"})
            alternatives = subs("alternatives")
            if not alternatives:
                raise _fail(path, "a variant has alternatives")
            return Variant(alternatives)
        if kind == "complex":
            _allowed(v, path, {"kind", "of"})
            return Complex(sub("of"))
        if kind == "optional":
            _allowed(v, path, {"kind", "of"})
            return Optional_(sub("of"))
        if kind == "fixed":
            _allowed(v, path, {"kind", "of"})
            of = sub("of")
            if not isinstance(of, (Integer, Enum)):
                raise _fail(f"{path}.of", "an integer type or an enum")
            return Fixed(of)
        if kind == "deprecated":
            _allowed(v, path, {"kind", "of", "writes"})
            deprecated = Deprecated(sub("of"), _hex(_member(v, path, "writes"), f"{path}.writes"))
            self.deprecated.append(deprecated)
            return deprecated
        if kind == "duration":
            _allowed(v, path, {"kind", "rep", "period"})
            rep = sub("rep")
            period = _member(v, path, "period")
            if not isinstance(period, str):
                raise _fail(f"{path}.period", 'a string "num/den"')
            return Alias(f"duration<{rep.spelling}, {period}>", rep)
        if kind == "time_point":
            _allowed(v, path, {"kind", "clock", "duration"})
            clock = _member(v, path, "clock")
            if not isinstance(clock, str):
                raise _fail(f"{path}.clock", "a string")
            duration = sub("duration")
            if not (isinstance(duration, Alias) and duration.spelling.startswith("duration<")):
                raise _fail(f"{path}.duration", "a duration")
            return Alias(f"time_point<{clock}, {duration.spelling}>", duration.inner)
        if kind == "pointer":
            _allowed(v, path, {"kind", "role", "to", "polymorphic"})
            role = _member(v, path, "role")
            if role not in ROLES:
                raise _fail(f"{path}.role", ", ".join(ROLES))
            to = sub("to")
            polymorphic = _flag(v, "polymorphic", path)
            if polymorphic and not isinstance(to, Struct):
                raise _fail(f"{path}.polymorphic", "only on a pointer to a struct")
            return Pointer(role, to, self.registered if polymorphic else None)
        raise _fail(f"{path}.kind", f"unknown kind {kind!r}")


def _struct_default_decoder(path: str, loader: _Loader):  # type: ignore[no-untyped-def]
    def decode(field: Field, outer: Reader) -> Tuple[Any, int]:
        data = field.default_bytes
        if not data and field.codec.min_size != 0:
            return None, 0  # a default that cannot be written alone (docs/schema.md section 5)
        r = Reader(data, _SCHEMA_BYTES_OPTIONS, defaults=True)
        r.budget = outer.budget  # the schema's budget, passed on to defaults read inside
        try:
            value = field.codec.read(r)
            if r.pos != len(data):
                raise DecodeError(Errc.trailing_bytes, r.pos)
        except DecodeError as e:
            raise _fail(f"{path}.default", f"does not decode as {field.codec.spelling} ({e})") from None
        outer.budget = r.budget
        assert loader.costs is not None
        return value, tree_cost(value, loader.costs)

    return decode


def _record_default_decoder(path: str):  # type: ignore[no-untyped-def]
    def decode(field: Field, outer: Reader) -> Tuple[Any, int]:
        value = field.codec.fixed(field.default_bytes, 0)  # type: ignore[attr-defined]
        if value is INVALID:
            raise _fail(f"{path}.default", f"not a valid {field.codec.spelling}")
        return value, tree_cost(value, {})  # as many objects as bytes in the schema

    return decode


def _input(data: Bytes) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"bifrons reads bytes, bytearray or memoryview, not {type(data).__name__}")


def _read_value(codec: Codec, r: Reader) -> Any:
    try:
        value = codec.read(r)
        if r.pos != len(r.data):
            raise DecodeError(Errc.trailing_bytes, r.pos, f"{len(r.data) - r.pos} bytes after the value")
        r.check_ownership()
        return value
    except RecursionError:
        raise DecodeError(
            Errc.depth_limit_exceeded, r.pos, "nested deeper than Python's recursion limit: lower max_depth"
        ) from None
    except MemoryError:
        raise DecodeError(Errc.out_of_memory, 0) from None


class Schema:
    """A schema document (docs/schema.md), ready to read and write values of its root type.

    ``Schema(document)`` takes the parsed JSON (a dict), ``Schema.from_json(text)`` the text;
    both raise :class:`SchemaError` for a document that does not follow docs/schema.md.
    """

    def __init__(self, document: Mapping[str, Any]) -> None:
        try:
            self._root = _Loader(document).load()
        except RecursionError:
            raise SchemaError("nested deeper than Python's recursion limit", None, "(document)") from None
        except SchemaError:
            raise
        except Error as e:
            raise SchemaError(e.message, e.code, e.path) from None
        self.document = document
        self.type_name: str = self._root.spelling
        """The root type's one-line spelling (docs/schema.md section 8): the name in a frame."""
        self._frame_name = frame_header(self.type_name)[len(MAGIC) + 1 :]

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Schema":
        try:
            document = json.loads(text)
        except (ValueError, RecursionError) as e:
            raise SchemaError(f"not JSON: {e}", None, "(document)") from None
        return cls(document)

    def decode(self, data: Bytes, options: Optional[ReadOptions] = None) -> Any:
        """The value of the root type that `data` holds, as JSON values (docs/schema.md section
        10). Raises :class:`DecodeError` with the library's code and offset on bad bytes,
        including bytes after the value (``trailing_bytes``)."""
        return _read_value(self._root, Reader(_input(data), options or _DEFAULT_OPTIONS))

    def encode(self, value: Any) -> bytes:
        """The bytes of a value of the root type. Raises :class:`EncodeError` for a value that
        does not fit the schema (with the library's code where it has one)."""
        w = Writer()
        try:
            self._root.write(w, value)
            w.check_ownership()
        except RecursionError:
            raise EncodeError(
                "nested deeper than Python's recursion limit", Errc.depth_limit_exceeded
            ) from None
        return bytes(w.out)

    def decode_framed(self, data: Bytes, options: Optional[ReadOptions] = None) -> Any:
        """A typed file (docs/format.md section 30): checks the frame names this schema's root
        type (``not_bifrons``, ``type_mismatch``), then reads the value after it. Offsets count
        from the frame's first byte. A Kafka value whose frame follows its writer's schema
        fingerprint (``0xbf`` and 8 bytes, docs/kafka.md) is read from its frame, and offsets then
        count from the value's first byte."""
        data = _input(data)
        prefix = kafka_fingerprint_prefix_size(data)
        if prefix:
            try:
                return self.decode_framed(data[prefix:], options)
            except DecodeError as e:
                e.offset += prefix
                raise
        frame = read_frame(data)
        if frame.checksummed:
            # Checked before the name, as the C++ reader does: damage is reported as damage.
            if len(data) - frame.size < 4:
                raise DecodeError(Errc.unexpected_end, len(data), "the frame's checksum")
            end = len(data) - 4
            if crc32c(data[:end]) != int.from_bytes(data[end:], "little"):
                raise DecodeError(Errc.checksum_mismatch, end, "the frame's checksum")
            data = data[:end]
        if data[frame.name_offset : frame.size] != self._frame_name:
            raise DecodeError(Errc.type_mismatch, frame.name_offset, f"the frame names {frame.type_name!r}")
        return _read_value(self._root, Reader(data, options or _DEFAULT_OPTIONS, pos=frame.size))

    def encode_framed(self, value: Any) -> bytes:
        """The frame naming the root type, then the value's bytes."""
        return frame_header(self.type_name) + self.encode(value)

    def __repr__(self) -> str:
        return f"<bifrons.Schema of {self.type_name}>"


def load_schema(path: Union[str, "os.PathLike[str]"]) -> Schema:
    """Reads a schema document from a file (for instance tests/golden/account.schema.json)."""
    with open(path, "rb") as f:
        text = f.read()
    return Schema.from_json(text)
