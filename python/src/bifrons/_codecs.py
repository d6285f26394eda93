# SPDX-License-Identifier: MIT
"""One codec per type expression of a schema: reads bytes into values, writes values to bytes.

Each codec follows docs/format.md for its type and docs/schema.md section 10 for its values, with
the library's error codes and offsets. The schema loader (_schema.py) builds the codecs of a
document and checks what a codec relies on (record layouts, defaults, fixed widths).
"""

from __future__ import annotations

import struct
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from ._errors import DecodeError, EncodeError, Errc, Error, SchemaError
from ._floats import f32_from_bits, f64_from_bits, float_bits, float_key
from ._state import (
    BY_VALUE,
    LIST,
    NUMBER,
    SET_ENTRY,
    SHARED,
    SKIPPED,
    SLOT,
    STR,
    UNIQUE,
    ObjectEntry,
    Reader,
    Writer,
    dict_cost,
    varint_bytes,
)

_UNEXPECTED_END = Errc.unexpected_end
_INVALID_VALUE = Errc.invalid_value

# What a fixed-width read returns for bytes its type does not allow (a bool other than 0 or 1).
INVALID = object()

_unpack_f64 = struct.Struct("<d").unpack_from
_pack_f64 = struct.Struct("<d").pack


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _expected(what: str, value: Any) -> EncodeError:
    return EncodeError(f"expected {what}, got {_show(value)}")


def _all_ints(values: Sequence[Any]) -> bool:
    """Whether every element is an int (not a bool), without a Python loop."""
    return set(map(type, values)) <= {int}


def _is_list(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def tree_copy(value: Any) -> Any:
    """A value that the caller may change without changing the original: every dict and list
    copied, also those that appear more than once in it (decoded defaults share their parts)."""
    if type(value) is dict:
        return {k: tree_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [tree_copy(v) for v in value]
    return value  # None, bool, int, float, str: immutable


def tree_cost(value: Any, memo: Dict[int, int]) -> int:
    """What tree_copy(value) costs the allocation budget. Parts that appear more than once are
    counted each time, but visited once (memo: id -> cost, for objects that outlive it), so
    this takes time in the value's distinct objects, not in its size as a tree."""
    t = type(value)
    if t is dict or t is list:
        found = memo.get(id(value))
        if found is None:
            if t is list and value and value.count(value[0]) == len(value):
                # All one element (zero-size elements share one object): list.count compares
                # at C speed, where a walk took 3 s for a default of 2^24 monostates.
                found = LIST + len(value) * (SLOT + tree_cost(value[0], memo))
            else:
                items = value.values() if t is dict else value
                found = (dict_cost(len(value)) if t is dict else LIST + SLOT * len(value)) + sum(
                    tree_cost(v, memo) for v in items
                )
            memo[id(value)] = found
        return found
    if value is None or t is bool:
        return 0
    return sys.getsizeof(value)


def _table_key(token: Any) -> Tuple[Any, int]:
    """What a set of keys holds for a key's token, and what that costs the budget.

    CPython hashes ints without a secret, and a tuple's hash is a function of its elements'
    hashes that anyone can invert: distinct tuples of ints with one hash are easy to compute
    (hash flooding: 32,000 such keys took 38 s to check). str and bytes are hashed with
    SipHash and a key chosen at random for each process, so a token that is not one of those
    (or an int, which hashes to itself modulo 2^61 - 1, and so collides with at most a few
    other 64-bit values) is checked as its repr: equal for equal tokens, since every token is
    made of None, bools, ints, floats, str, bytes, tuples and _floats.NaN (unique reprs).
    """
    t = type(token)
    if t is int:
        return token, SET_ENTRY + NUMBER
    if t is not str and t is not bytes:
        token = repr(token)
    return token, SET_ENTRY + STR + len(token)


class Codec:
    """The reading and writing of one type expression.

    ``min_size`` is the fewest bytes a value takes (docs/schema.md section 9), ``element_min``
    the fewest it takes as an element of a sequence or array (a block element's width),
    ``block_width`` is non-zero for block elements, ``record_width`` the width of a type that
    can be a record field (None otherwise), ``nullable`` says whether the value's JSON form
    may be null (an optional of it then wraps it as {"some": value}).
    """

    spelling = "?"
    min_size = 1
    element_min = 1
    block_width = 0
    record_width: Optional[int] = None
    nullable = False
    # The budget's charge for a value's own object, beyond its slot in a list: numbers, for
    # their elements of sequences and arrays and record fields. Containers, dicts and strings
    # charge themselves when they are read.
    item_cost = 0

    def read(self, r: Reader) -> Any:
        raise NotImplementedError

    def write(self, w: Writer, value: Any) -> None:
        raise NotImplementedError

    def read_introduced(self, r: Reader) -> Any:
        """The object a pointer introduces (its id is the pointer's)."""
        return self.read(r)

    def write_introduced(self, w: Writer, value: Any) -> None:
        self.write(w, value)

    def key(self, value: Any, meta: bool) -> Any:
        """A hashable token: equal for keys that are equal (docs/schema.md section 9). With
        meta, the members that begin with $ count (values read); without, they do not (values
        to write, whose $ members a writer ignores)."""
        return value

    def __repr__(self) -> str:
        return f"<codec {self.spelling}>"


# ---- primitives ---------------------------------------------------------------------------------


class Boolean(Codec):
    spelling = "bool"
    block_width = 1
    record_width = 1

    def read(self, r: Reader) -> bool:
        pos = r.pos
        if pos >= r.limit:
            raise DecodeError(_UNEXPECTED_END, r.limit)
        b = r.data[pos]
        if b > 1:
            raise DecodeError(_INVALID_VALUE, pos, f"a bool byte {b:#04x}")
        r.pos = pos + 1
        return b == 1

    def write(self, w: Writer, value: Any) -> None:
        if value is True:
            w.out.append(1)
        elif value is False:
            w.out.append(0)
        else:
            raise _expected("a bool", value)

    def read_block(self, r: Reader, n: int) -> List[bool]:
        at = r.take(n)
        chunk = r.data[at : at + n]
        if n and max(chunk) > 1:
            bad = next(i for i, b in enumerate(chunk) if b > 1)  # reported at that element
            raise DecodeError(_INVALID_VALUE, at + bad, "a bool byte other than 00 or 01 in the block")
        return [b == 1 for b in chunk]

    def write_block(self, w: Writer, values: Sequence[Any]) -> None:
        block = bytearray(len(values))
        for i, value in enumerate(values):
            if value is True:
                block[i] = 1
            elif value is not False:
                raise _expected("a bool", value)._within(f"[{i}]")
        w.out += block

    def fixed(self, data: bytes, at: int) -> Any:
        b = data[at]
        return INVALID if b > 1 else b == 1

    def put_fixed(self, out: bytearray, value: Any) -> None:
        if value is True:
            out.append(1)
        elif value is False:
            out.append(0)
        else:
            raise _expected("a bool", value)


class Octet(Codec):
    """char and byte: one raw byte, its value the number 0-255."""

    block_width = 1
    record_width = 1

    def __init__(self, name: str) -> None:
        self.spelling = name

    def read(self, r: Reader) -> int:
        pos = r.pos
        if pos >= r.limit:
            raise DecodeError(_UNEXPECTED_END, r.limit)
        r.pos = pos + 1
        return r.data[pos]

    def write(self, w: Writer, value: Any) -> None:
        if type(value) is not int or not 0 <= value <= 255:
            raise _expected("a byte value 0-255", value)
        w.out.append(value)

    def read_block(self, r: Reader, n: int) -> List[int]:
        at = r.take(n)
        return list(r.data[at : at + n])

    def write_block(self, w: Writer, values: Sequence[Any]) -> None:
        if isinstance(values, (bytes, bytearray)):
            w.out += values
            return
        if _all_ints(values):
            try:
                w.out += bytes(values)
                return
            except ValueError:
                pass
        for i, value in enumerate(values):
            if type(value) is not int or not 0 <= value <= 255:
                raise _expected("a byte value 0-255", value)._within(f"[{i}]")

    def fixed(self, data: bytes, at: int) -> int:
        return data[at]

    def put_fixed(self, out: bytearray, value: Any) -> None:
        if type(value) is not int or not 0 <= value <= 255:
            raise _expected("a byte value 0-255", value)
        out.append(value)


_INT_CODES = {(1, True): "b", (1, False): "B", (2, True): "h", (2, False): "H", (4, True): "i", (4, False): "I",
              (8, True): "q", (8, False): "Q"}


class Integer(Codec):
    """i8 ... u64: a varint (zigzag for signed types) alone, `width` bytes in blocks and records."""

    def __init__(self, name: str, width: int, signed: bool) -> None:
        self.spelling = name
        self.block_width = self.element_min = self.record_width = width
        self.item_cost = 0 if name == "u8" else NUMBER  # 0-255 are CPython's cached ints
        self.signed = signed
        self.max_raw = (1 << (8 * width)) - 1
        if signed:
            self.lowest, self.highest = -(1 << (8 * width - 1)), (1 << (8 * width - 1)) - 1
        else:
            self.lowest, self.highest = 0, self.max_raw
        self.code = _INT_CODES[(width, signed)]

    def read(self, r: Reader) -> int:
        pos = r.pos
        if pos < r.limit:
            b = r.data[pos]
            if b < 0x80:
                r.pos = pos + 1
                return ((b >> 1) ^ -(b & 1)) if self.signed else b
        raw = r.long_varint()
        if raw > self.max_raw:
            raise DecodeError(Errc.value_out_of_range, pos, f"{raw} does not fit {self.spelling}")
        return ((raw >> 1) ^ -(raw & 1)) if self.signed else raw

    def _check(self, value: Any) -> None:
        if type(value) is not int:
            raise _expected(f"an integer ({self.spelling})", value)
        if not self.lowest <= value <= self.highest:
            raise EncodeError(f"{value} does not fit {self.spelling}", Errc.value_out_of_range)

    def write(self, w: Writer, value: Any) -> None:
        if type(value) is not int or not self.lowest <= value <= self.highest:
            self._check(value)
        w.varint(((value << 1) ^ (value >> 63)) if self.signed else value)

    def read_block(self, r: Reader, n: int) -> List[int]:
        width = self.block_width
        at = r.take(n * width)
        if self.code == "B":
            return list(r.data[at : at + n])
        return list(struct.unpack_from(f"<{n}{self.code}", r.data, at))

    def write_block(self, w: Writer, values: Sequence[Any]) -> None:
        if self.code == "B" and isinstance(values, (bytes, bytearray)):
            w.out += values
            return
        if _all_ints(values):
            try:
                if self.code == "B":
                    w.out += bytes(values)
                else:
                    w.out += struct.pack(f"<{len(values)}{self.code}", *values)
                return
            except (struct.error, ValueError):
                pass  # a value out of range: found below
        for i, value in enumerate(values):
            try:
                self._check(value)
            except Error as e:
                raise e._within(f"[{i}]")

    def fixed(self, data: bytes, at: int) -> int:
        return int.from_bytes(data[at : at + self.block_width], "little", signed=self.signed)

    def put_fixed(self, out: bytearray, value: Any) -> None:
        self._check(value)
        out += value.to_bytes(self.block_width, "little", signed=self.signed)


class Float(Codec):
    """f32 and f64: IEEE-754 bits, little-endian, everywhere."""

    def __init__(self, width: int) -> None:
        self.spelling = "f32" if width == 4 else "f64"
        self.block_width = self.element_min = self.record_width = self.min_size = width
        self.item_cost = NUMBER
        self.from_bits = f32_from_bits if width == 4 else f64_from_bits
        self.bits_code = "I" if width == 4 else "Q"

    def read(self, r: Reader) -> Any:
        pos = r.pos
        width = self.block_width
        if r.limit - pos < width:
            raise DecodeError(_UNEXPECTED_END, r.limit)
        r.pos = pos + width
        if width == 8:
            x = _unpack_f64(r.data, pos)[0]
            if x - x == 0.0:  # finite: the float itself
                return x
        return self.from_bits(int.from_bytes(r.data[pos : pos + width], "little"))

    def _bits(self, value: Any) -> int:
        bits = float_bits(value, self.block_width)
        if bits is None:
            raise _expected(f"a number, 'inf', '-inf', 'nan' or 'nan:<bits>' that fits {self.spelling}", value)
        return bits

    def write(self, w: Writer, value: Any) -> None:
        if type(value) is float and self.block_width == 8:
            w.out += _pack_f64(value)
        else:
            w.out += self._bits(value).to_bytes(self.block_width, "little")

    def read_block(self, r: Reader, n: int) -> List[Any]:
        at = r.take(n * self.block_width)
        if self.block_width == 8:
            values = list(struct.unpack_from(f"<{n}d", r.data, at))
            for i, x in enumerate(values):
                if x - x != 0.0:  # an infinity or a NaN: its JSON form is a string
                    values[i] = f64_from_bits(struct.unpack_from("<Q", r.data, at + 8 * i)[0])
            return values
        return [f32_from_bits(bits) for bits in struct.unpack_from(f"<{n}I", r.data, at)]

    def write_block(self, w: Writer, values: Sequence[Any]) -> None:
        bits = []
        for i, value in enumerate(values):
            try:
                bits.append(self._bits(value))
            except Error as e:
                raise e._within(f"[{i}]")
        w.out += struct.pack(f"<{len(bits)}{self.bits_code}", *bits)

    def fixed(self, data: bytes, at: int) -> Any:
        return self.from_bits(int.from_bytes(data[at : at + self.block_width], "little"))

    def put_fixed(self, out: bytearray, value: Any) -> None:
        out += self._bits(value).to_bytes(self.block_width, "little")

    def key(self, value: Any, meta: bool) -> Any:
        return float_key(value)


class Monostate(Codec):
    spelling = "monostate"
    min_size = element_min = 0
    nullable = True

    def read(self, r: Reader) -> None:
        return None

    def write(self, w: Writer, value: Any) -> None:
        if value is not None:
            raise _expected("null (monostate)", value)


# ---- named types --------------------------------------------------------------------------------


class Enum(Codec):
    """An enum: its underlying primitive, but never a block element."""

    def __init__(self, name: str, underlying: Codec) -> None:
        self.spelling = self.name = name
        self.underlying = underlying
        self.record_width = underlying.block_width
        self.item_cost = underlying.item_cost
        self.read = underlying.read  # type: ignore[method-assign]
        self.write = underlying.write  # type: ignore[method-assign]
        self.fixed = underlying.fixed  # type: ignore[attr-defined]
        self.put_fixed = underlying.put_fixed  # type: ignore[attr-defined]

    def key(self, value: Any, meta: bool) -> Any:
        return self.underlying.key(value, meta)


class Field:
    """A field of a struct or record; its default is decoded once, when the schema loads."""

    __slots__ = ("name", "codec", "default_bytes", "base", "virtual", "offset", "width", "_default", "_state",
                 "_decode", "cost")

    def __init__(self, name: str, codec: Codec, default_bytes: bytes, base: bool = False, offset: int = 0,
                 width: int = 0, virtual: bool = False) -> None:
        self.name = name
        self.codec = codec
        self.default_bytes = default_bytes
        self.base = base
        # A virtual base: written only where the complete object first meets it (format.md §5).
        self.virtual = virtual
        self.offset = offset
        self.width = width
        self._default: Any = None
        self._state = 0  # 0: not decoded, 1: decoding, 2: decoded
        # Decodes the default bytes, with the schema loader's budget (a Reader); returns the
        # value and what a copy of it costs (tree_cost).
        self._decode: Optional[Callable[["Field", Reader], Tuple[Any, int]]] = None
        self.cost = 0

    def shared_default(self, r: Reader) -> Any:
        """The decoded default itself, decoded the first time it is needed (when the schema
        loads), charged to r's budget. Defaults inside defaults are these objects, shared:
        T_k {a: T_k-1, b: T_k-1}, both fields of default "00", costs k objects to load, not 2^k."""
        if self._state != 2:
            if self._state == 1:
                raise SchemaError(f"the default of field {self.name!r} needs itself")
            self._state = 1
            assert self._decode is not None
            self._default, self.cost = self._decode(self, r)
            self._state = 2
        return self._default

    def default(self, r: Reader) -> Any:
        """The value a field the data lacks takes (docs/schema.md section 5): a copy that the
        caller may change, charged its size as a tree (shared parts each time) before it is
        made, at the end of the data's struct. Reading a default (r.defaults), the shared one."""
        if r.defaults:
            return self.shared_default(r)
        r.charge(self.cost, r.pos)
        return tree_copy(self._default)

    def copy_default(self) -> Any:
        """A record field's default, uncharged: a record's cost covers all its fields."""
        return tree_copy(self._default)


class Struct(Codec):
    """A struct: an envelope (its body's length and a version flag), then its fields."""

    def __init__(self, name: str) -> None:
        self.spelling = self.name = name
        self.fields: List[Field] = []
        self.version: Optional[int] = None
        self.identity = False
        self.hook = False
        # A registered class: the names of the classes it reaches (docs/schema.md section 6).
        self.bases: frozenset = frozenset()
        # Whether its objects meet virtual bases: a complete object keeps track of those it read.
        self.virtual_scope = False
        # No object has it as its own class: tag 1 cannot create one.
        self.abstract = False
        self._names: frozenset = frozenset()
        self._readers: List[Tuple[str, Callable[[Reader], Any], Field]] = []
        self._virtual_fields = False

    def finish(self) -> None:
        self._names = frozenset(f.name for f in self.fields)
        self._virtual_fields = any(f.virtual for f in self.fields)
        # The value's dict: the fields and "$version", "$id", "$skipped".
        self.dict_cost = dict_cost(len(self.fields) + 3)
        self._readers = [(f.name, self._field_reader(f), f) for f in self.fields]
        self._writers = [(f.name, self._field_writer(f)) for f in self.fields]

    @staticmethod
    def _field_reader(f: Field) -> Callable[[Reader], Any]:
        codec = f.codec
        if f.base and isinstance(codec, Struct):
            return lambda r: codec.read(r, False, True)  # a subobject of the complete object
        return codec.read

    @staticmethod
    def _field_writer(f: Field) -> Callable[[Writer, Any], None]:
        codec = f.codec
        if f.base and isinstance(codec, Struct):
            return lambda w, v: codec.write(w, v, False, True)
        return codec.write

    def read_introduced(self, r: Reader) -> Dict[str, Any]:
        return self.read(r, True)

    def read(  # type: ignore[override]
        self, r: Reader, introduced: bool = False, base: bool = False
    ) -> Dict[str, Any]:
        if self.virtual_scope and not base:
            outer = r.virtual_bases
            r.virtual_bases = []
            try:
                return self._read(r, introduced)
            finally:
                r.virtual_bases = outer
        return self._read(r, introduced)

    def _read(self, r: Reader, introduced: bool) -> Dict[str, Any]:
        start = r.pos
        object_id = None
        if self.identity and not introduced and not r.defaults:
            object_id = r.introduce(start, self.name, BY_VALUE)
        if r.depth_left == 0:
            raise DecodeError(Errc.depth_limit_exceeded, start)
        r.depth_left -= 1
        header = r.varint()
        length = header >> 1
        if length > r.limit - r.pos:
            raise DecodeError(_UNEXPECTED_END, r.limit, f"a body of {length} bytes, {r.limit - r.pos} left")
        r.charge(self.dict_cost, start)
        saved_limit = r.limit
        end = r.limit = r.pos + length
        value: Dict[str, Any] = {}
        if header & 1:
            at = r.pos
            version = r.varint()
            if version > 0xFFFFFFFF:
                raise DecodeError(Errc.value_out_of_range, at, "a class version above 2^32 - 1")
            value["$version"] = version
        if object_id is not None:
            value["$id"] = object_id
        if self._virtual_fields:
            self._read_fields_meeting_virtual_bases(r, end, value)
        else:
            name = None
            try:
                for name, read, field in self._readers:
                    if r.pos == end:
                        value[name] = field.default(r)
                    else:
                        value[name] = read(r)
            except Error as e:
                raise e._within("." + name)  # type: ignore[operator]
        if r.pos < end:
            r.charge(STR + 2 * (end - r.pos), r.pos)
            value["$skipped"] = r.data[r.pos : end].hex()
        r.pos = end
        r.limit = saved_limit
        r.depth_left += 1
        return value

    def _read_fields_meeting_virtual_bases(self, r: Reader, end: int, value: Dict[str, Any]) -> None:
        """The fields, where a virtual base met before in the complete object has no bytes and
        no value (docs/schema.md section 6)."""
        for name, read, field in self._readers:
            try:
                if field.virtual and field.codec.name in r.virtual_bases:  # type: ignore[attr-defined]
                    continue
                if r.pos == end:
                    value[name] = field.default(r)
                else:
                    if field.virtual:
                        r.virtual_bases.append(field.codec.name)  # type: ignore[attr-defined]
                    value[name] = read(r)
            except Error as e:
                raise e._within("." + name)

    def write_introduced(self, w: Writer, value: Any) -> None:
        self.write(w, value, True)

    def write(  # type: ignore[override]
        self, w: Writer, value: Any, introduced: bool = False, base: bool = False
    ) -> None:
        if self.virtual_scope and not base:
            outer = w.virtual_bases
            w.virtual_bases = []
            try:
                self._write(w, value, introduced)
            finally:
                w.virtual_bases = outer
            return
        self._write(w, value, introduced)

    def _write(self, w: Writer, value: Any, introduced: bool) -> None:
        if not isinstance(value, dict):
            raise _expected(f"an object ({self.name})", value)
        if self.identity and not introduced:
            w.objects.append(ObjectEntry(self.name, BY_VALUE, False, False))
        out = w.out
        start = len(out)
        if self.version is not None:
            w.varint(self.version)
        name = None
        try:
            for (name, write), field in zip(self._writers, self.fields):
                if field.virtual:
                    base_name = field.codec.name  # type: ignore[attr-defined]
                    if base_name in w.virtual_bases:
                        continue  # written where the complete object first met it
                    w.virtual_bases.append(base_name)
                try:
                    member = value[name]
                except KeyError:
                    raise EncodeError(f"missing field {name!r} of {self.name}") from None
                write(w, member)
        except Error as e:
            raise e._within("." + name)  # type: ignore[operator]
        if len(value) != len(self.fields):
            _refuse_unknown_members(value, self._names, self.name)
        header = ((len(out) - start) << 1) | (self.version is not None)
        if header < 0x80:
            out.insert(start, header)
        else:
            out[start:start] = varint_bytes(header)

    def key(self, value: Any, meta: bool) -> Any:
        # A virtual base met before is absent from the value (docs/schema.md section 6): a str,
        # which no codec's token is (found by test_fuzz.py: a KeyError).
        token = tuple(f.codec.key(value[f.name], meta) if f.name in value else "$absent" for f in self.fields)
        if meta:
            token += tuple((k, v) for k, v in value.items() if k.startswith("$"))
        return token


def _refuse_unknown_members(value: Dict[Any, Any], names: frozenset, type_name: str) -> None:
    for k in value:
        if not isinstance(k, str) or (k not in names and not k.startswith("$")):
            raise EncodeError(f"{type_name} has no field {k!r}")


class Record(Codec):
    """A record: fixed-width fields without an envelope; its size travels as a header (alone)
    or a stride (in sequences and arrays)."""

    def __init__(self, name: str) -> None:
        self.spelling = self.name = name
        self.fields: List[Field] = []
        self.size = 0
        self._ends: frozenset = frozenset()
        self._names: frozenset = frozenset()

    def finish(self) -> None:
        self.record_width = self.size
        self._ends = frozenset(f.offset + f.width for f in self.fields)
        self._names = frozenset(f.name for f in self.fields)
        # Every value of a record has the same shape, read or default: its dict (and
        # "$skipped"), its numbers, its arrays' lists and its records' dicts.
        self.value_cost = dict_cost(len(self.fields) + 1) + sum(_fixed_cost(f.codec) for f in self.fields)

    def cost(self, length: int) -> int:
        """A record of `length` bytes in the data, the bytes after our fields as hex."""
        return self.value_cost + (STR + 2 * (length - self.size) if length > self.size else 0)

    def whole_fields(self, length: int) -> bool:
        """Whether a record of `length` bytes in the data ends at a boundary of our fields."""
        return length >= self.size or length == 0 or length in self._ends

    def at(self, r: Reader, p: int, length: int) -> Dict[str, Any]:
        """The record of `length` bytes at p: its fields, the missing ones at their defaults."""
        data = r.data
        value: Dict[str, Any] = {}
        for f in self.fields:
            if f.offset + f.width <= length:
                v = f.codec.fixed(data, p + f.offset)  # type: ignore[attr-defined]
                if v is INVALID:
                    raise DecodeError(_INVALID_VALUE, p + f.offset)._within("." + f.name)
                value[f.name] = v
            else:
                value[f.name] = f.copy_default()
        if length > self.size:
            value["$skipped"] = data[p + self.size : p + length].hex()
        return value

    def read(self, r: Reader) -> Dict[str, Any]:
        start = r.pos
        header = r.varint()
        length = header >> 1
        if length > r.limit - r.pos:
            raise DecodeError(_UNEXPECTED_END, r.limit, f"a record of {length} bytes, {r.limit - r.pos} left")
        if header & 1:
            raise DecodeError(_INVALID_VALUE, start, "a record header with the version bit")
        if not self.whole_fields(length):
            raise DecodeError(Errc.invalid_stride, start, f"{length} bytes end inside a field of {self.name}")
        r.charge(self.cost(length), start)
        p = r.pos
        r.pos = p + length
        return self.at(r, p, length)

    def stride(self, r: Reader) -> int:
        at = r.pos
        stride = r.varint()
        if not self.whole_fields(stride):
            raise DecodeError(Errc.invalid_stride, at, f"a stride of {stride} ends inside a field of {self.name}")
        return stride

    def read_block(self, r: Reader) -> List[Dict[str, Any]]:
        """A sequence of records: the count, then the stride and the records."""
        start = r.pos
        n = r.varint()
        if n == 0:
            return []
        stride = self.stride(r)
        left = r.limit - r.pos
        if stride > left:
            raise DecodeError(Errc.count_exceeds_input, start, f"a stride of {stride}, {left} bytes left")
        if n > r.max_elements:
            raise DecodeError(Errc.element_limit_exceeded, start, f"{n} elements")
        if stride and n > left // stride:
            raise DecodeError(Errc.count_exceeds_input, start, f"{n} records of {stride} bytes, {left} left")
        self._charge(r, n, stride, start)
        p = r.pos
        r.pos = p + n * stride
        return self._records(r, p, n, stride)

    def read_array(self, r: Reader, size: int) -> List[Dict[str, Any]]:
        """A fixed array of records: the stride, then the records."""
        if size == 0:
            return []
        at = r.pos
        stride = self.stride(r)
        if stride and size > (r.limit - r.pos) // stride:
            raise DecodeError(_UNEXPECTED_END, r.limit, f"{size} records of {stride} bytes, {r.limit - r.pos} left")
        self._charge(r, size, stride, at)
        p = r.pos
        r.pos = p + size * stride
        return self._records(r, p, size, stride)

    def _charge(self, r: Reader, n: int, stride: int, at: int) -> None:
        """The list of n records. Records of stride 0 are one shared dict (see _records), but
        as many records in the value (and its JSON) as the count says, and the C++ reader
        charges each its sizeof: each is charged a whole record, as zero-size tuples are."""
        r.charge(LIST + (SLOT + self.cost(stride)) * n, at)

    def _records(self, r: Reader, p: int, n: int, stride: int) -> List[Dict[str, Any]]:
        if stride == 0:
            # Records of no bytes are all the same value: one object, n references to it.
            return [self.at(r, p, 0)] * n
        i = 0
        try:
            return [self.at(r, p + i * stride, stride) for i in range(n)]
        except Error as e:
            raise e._within(f"[{i}]")

    def write(self, w: Writer, value: Any) -> None:
        w.varint(self.size << 1)
        self.put_fixed(w.out, value)

    def write_block(self, w: Writer, values: Sequence[Any]) -> None:
        w.varint(len(values))
        if values:
            self.write_records(w, values)

    def write_records(self, w: Writer, values: Sequence[Any]) -> None:
        w.varint(self.size)
        i = 0
        try:
            for i, value in enumerate(values):
                self.put_fixed(w.out, value)
        except Error as e:
            raise e._within(f"[{i}]")

    def fixed(self, data: bytes, at: int) -> Any:
        value = {}
        for f in self.fields:
            v = f.codec.fixed(data, at + f.offset)  # type: ignore[attr-defined]
            if v is INVALID:
                return INVALID
            value[f.name] = v
        return value

    def put_fixed(self, out: bytearray, value: Any) -> None:
        if not isinstance(value, dict):
            raise _expected(f"an object ({self.name})", value)
        name = None
        try:
            for f in self.fields:
                name = f.name
                try:
                    member = value[name]
                except KeyError:
                    raise EncodeError(f"missing field {name!r} of {self.name}") from None
                f.codec.put_fixed(out, member)  # type: ignore[attr-defined]
        except Error as e:
            raise e._within("." + name)  # type: ignore[operator]
        if len(value) != len(self.fields):
            _refuse_unknown_members(value, self._names, self.name)

    def key(self, value: Any, meta: bool) -> Any:
        token = tuple(f.codec.key(value[f.name], meta) for f in self.fields)
        if meta:
            token += tuple((k, v) for k, v in value.items() if k.startswith("$"))
        return token


# ---- strings and containers -----------------------------------------------------------------------

_ENCODINGS = {1: "utf-8", 2: "utf-16-le", 4: "utf-32-le"}
_UNIT_CODES = {1: "B", 2: "H", 4: "I"}


class String(Codec):
    """A string of char, u16 or u32 code units: text when the units are valid UTF-8, UTF-16 or
    Unicode scalar values, else {"units": [...]}."""

    def __init__(self, unit: str, width: int, view: bool) -> None:
        self.spelling = f"string_view<{unit}>" if view else f"string<{unit}>"
        self.width = width
        self.encoding = _ENCODINGS[width]
        self.max_unit = (1 << (8 * width)) - 1

    def read(self, r: Reader) -> Any:
        width = self.width
        if width == 1:
            # The common case first: a one-byte count, the bytes all there, within the limits.
            pos = r.pos
            data = r.data
            if pos < r.limit:
                n = data[pos]
                end = pos + 1 + n
                if n < 0x80 and end <= r.limit and n <= r.max_elements and STR + n <= r.budget:
                    r.budget -= STR + n
                    r.pos = end
                    try:
                        return data[pos + 1 : end].decode("utf-8")
                    except UnicodeDecodeError:
                        return {"units": list(data[pos + 1 : end])}
        at = r.pos
        n = r.count(width, None)
        # A str takes at most as many bytes as its code units: a character that Python holds in
        # 2 or 4 bytes takes as many in UTF-8, UTF-16 and UTF-32.
        r.charge(STR + n * width, at)
        p = r.take(n * width)
        chunk = r.data[p : p + n * width]
        try:
            return chunk.decode(self.encoding)
        except UnicodeDecodeError:
            r.charge(dict_cost(1) + LIST + n * (SLOT + (0 if width == 1 else NUMBER)), at)
            if width == 1:
                return {"units": list(chunk)}
            return {"units": list(struct.unpack(f"<{n}{_UNIT_CODES[width]}", chunk))}

    def units(self, value: Any) -> bytes:
        """The code units of a value, as the bytes of the block."""
        if isinstance(value, str):
            try:
                return value.encode(self.encoding)
            except UnicodeEncodeError:
                raise EncodeError(
                    f"text that is not valid {self.encoding} (unpaired surrogates): write it as {{\"units\": [...]}}"
                ) from None
        if isinstance(value, dict) and len(value) == 1 and "units" in value:
            units = value["units"]
            if not _is_list(units):
                raise _expected("a list of code units", units)
            for i, unit in enumerate(units):
                if type(unit) is not int or not 0 <= unit <= self.max_unit:
                    raise _expected(f"a code unit 0-{self.max_unit}", unit)._within(f".units[{i}]")
            return struct.pack(f"<{len(units)}{_UNIT_CODES[self.width]}", *units)
        if self.width == 1 and isinstance(value, (bytes, bytearray)):
            return bytes(value)
        raise _expected('a string or {"units": [...]}', value)

    def write(self, w: Writer, value: Any) -> None:
        units = self.units(value)
        w.varint(len(units) // self.width)
        w.out += units

    def key(self, value: Any, meta: bool) -> Any:
        return self.units(value)


class Sequence_(Codec):
    """A sequence: its count, then a block, a block of records, or the elements one by one."""

    def __init__(self, element: Codec, varint: bool, view: bool) -> None:
        self.element = element
        self.varint = varint
        if view:
            self.spelling = f"span<{element.spelling}>"
        else:
            self.spelling = f"sequence<{element.spelling}{', varint' if varint else ''}>"
        self.minimum = element.min_size if varint else element.element_min
        self.per = SLOT + element.item_cost
        if isinstance(element, Record):
            self.read = element.read_block  # type: ignore[method-assign]
            self.write = self._write_records  # type: ignore[method-assign]
        elif element.block_width and not self.varint:
            self.read = self._read_block  # type: ignore[method-assign]
            self.write = self._write_block  # type: ignore[method-assign]

    def read(self, r: Reader) -> List[Any]:  # type: ignore[override]
        n = r.count(self.minimum, self.per)
        read = self.element.read
        if self.minimum == 0 and n:
            # Elements of no bytes are all the same value: one object, n references to it.
            return [read(r)] * n
        out: List[Any] = []
        append = out.append
        i = 0
        try:
            for i in range(n):
                append(read(r))
        except Error as e:
            raise e._within(f"[{i}]")
        return out

    def _read_block(self, r: Reader) -> List[Any]:
        return self.element.read_block(r, r.count(self.minimum, self.per))  # type: ignore[attr-defined]

    def _check(self, value: Any) -> None:
        if not _is_list(value) and not (self.element.block_width == 1 and isinstance(value, (bytes, bytearray))):
            raise _expected("a list", value)

    def write(self, w: Writer, value: Any) -> None:  # type: ignore[override]
        if not _is_list(value):
            raise _expected("a list", value)
        w.varint(len(value))
        write = self.element.write
        i = 0
        try:
            for i, element in enumerate(value):
                write(w, element)
        except Error as e:
            raise e._within(f"[{i}]")

    def _write_block(self, w: Writer, value: Any) -> None:
        self._check(value)
        w.varint(len(value))
        self.element.write_block(w, value)  # type: ignore[attr-defined]

    def _write_records(self, w: Writer, value: Any) -> None:
        if not _is_list(value):
            raise _expected("a list", value)
        self.element.write_block(w, value)  # type: ignore[attr-defined]

    def key(self, value: Any, meta: bool) -> Any:
        key = self.element.key
        return tuple(key(x, meta) for x in value)


class Array(Codec):
    """A fixed array: its elements without a count (records: the stride, then the records)."""

    def __init__(self, element: Codec, size: int, varint: bool) -> None:
        self.element = element
        self.size = size
        self.varint = varint
        self.spelling = f"array<{element.spelling}, {size}{', varint' if varint else ''}>"
        if isinstance(element, Record):
            self.min_size = 1 if size else 0
        else:
            self.min_size = size * (element.min_size if varint else element.element_min)
        self.element_min = self.min_size
        if isinstance(element, Record):
            self.mode = "records"
        elif element.block_width and not self.varint:
            self.mode = "block"
        else:
            self.mode = "elements"
        # Its list. A size from the schema can be 2^32, of elements that take no bytes.
        self.list_cost = LIST + size * (SLOT + element.item_cost)
        if self.min_size == 0:
            self.item_cost = self.list_cost  # see Tuple_

    def read(self, r: Reader) -> List[Any]:
        if self.mode == "block":
            if self.size * self.element.block_width > r.limit - r.pos:
                raise DecodeError(_UNEXPECTED_END, r.limit)  # as read_block would, before the budget
            r.charge(self.list_cost, r.pos)
            return self.element.read_block(r, self.size)  # type: ignore[attr-defined]
        if self.mode == "records":
            return self.element.read_array(r, self.size)  # type: ignore[attr-defined]
        r.charge(self.list_cost, r.pos)
        read = self.element.read
        if self.min_size == 0 and self.size:
            return [read(r)] * self.size
        out: List[Any] = []
        i = 0
        try:
            for i in range(self.size):
                out.append(read(r))
        except Error as e:
            raise e._within(f"[{i}]")
        return out

    def write(self, w: Writer, value: Any) -> None:
        if not (_is_list(value) or (self.element.block_width == 1 and isinstance(value, (bytes, bytearray)))):
            raise _expected(f"a list of {self.size}", value)
        if len(value) != self.size:
            raise EncodeError(f"{len(value)} elements for {self.spelling}")
        if self.mode == "block":
            self.element.write_block(w, value)  # type: ignore[attr-defined]
        elif self.mode == "records":
            if self.size:
                self.element.write_records(w, value)  # type: ignore[attr-defined]
        else:
            write = self.element.write
            i = 0
            try:
                for i, element in enumerate(value):
                    write(w, element)
            except Error as e:
                raise e._within(f"[{i}]")

    def fixed(self, data: bytes, at: int) -> Any:
        element = self.element
        width = element.record_width
        out = []
        for i in range(self.size):
            v = element.fixed(data, at + i * width)  # type: ignore[attr-defined,operator]
            if v is INVALID:
                return INVALID
            out.append(v)
        return out

    def put_fixed(self, out: bytearray, value: Any) -> None:
        if not _is_list(value) or len(value) != self.size:
            raise _expected(f"a list of {self.size}", value)
        i = 0
        try:
            for i, element in enumerate(value):
                self.element.put_fixed(out, element)  # type: ignore[attr-defined]
        except Error as e:
            raise e._within(f"[{i}]")

    def key(self, value: Any, meta: bool) -> Any:
        key = self.element.key
        return tuple(key(x, meta) for x in value)


def _bits_value(r: Reader, at: int, n: int, nbytes: int) -> List[bool]:
    data = r.data
    if n % 8 and data[at + nbytes - 1] >> (n % 8):
        raise DecodeError(_INVALID_VALUE, at + nbytes - 1, "padding bits set")
    return [(data[at + (i >> 3)] >> (i & 7)) & 1 == 1 for i in range(n)]


def _bits_bytes(value: Any, n: int) -> bytearray:
    packed = bytearray((n + 7) // 8)
    for i, bit in enumerate(value):
        if bit is True:
            packed[i >> 3] |= 1 << (i & 7)
        elif bit is not False:
            raise _expected("a bool", bit)._within(f"[{i}]")
    return packed


class Bitvector(Codec):
    """std::vector<bool>: the count, then the bits packed 8 to a byte."""

    spelling = "bitvector"

    def read(self, r: Reader) -> List[bool]:
        at = r.pos
        n = r.count(0, None)
        nbytes = (n + 7) // 8
        if nbytes > r.limit - r.pos:
            raise DecodeError(Errc.count_exceeds_input, at, f"{n} bits")
        r.charge(LIST + SLOT * n, at)  # 64 bytes of list for each input byte
        return _bits_value(r, r.take(nbytes), n, nbytes)

    def write(self, w: Writer, value: Any) -> None:
        if not _is_list(value):
            raise _expected("a list of bools", value)
        w.varint(len(value))
        w.out += _bits_bytes(value, len(value))

    def key(self, value: Any, meta: bool) -> Any:
        return tuple(value)


class Bitset(Codec):
    def __init__(self, size: int) -> None:
        self.size = size
        self.spelling = f"bitset<{size}>"
        self.min_size = self.element_min = (size + 7) // 8
        if size == 0:
            self.item_cost = LIST  # see Tuple_

    def read(self, r: Reader) -> List[bool]:
        at = r.take(self.min_size)
        r.charge(LIST + SLOT * self.size, at)
        return _bits_value(r, at, self.size, self.min_size)

    def write(self, w: Writer, value: Any) -> None:
        if not _is_list(value) or len(value) != self.size:
            raise _expected(f"a list of {self.size} bools", value)
        w.out += _bits_bytes(value, self.size)

    def key(self, value: Any, meta: bool) -> Any:
        return tuple(value)


class Associative(Codec):
    """set and map (and their multi forms): the count, then each key (and value) in its own
    encoding; unique forms refuse a key equal to an earlier one."""

    def __init__(self, key: Codec, value: Optional[Codec], multi: bool) -> None:
        self.key_codec = key
        self.value_codec = value
        self.multi = multi
        if value is None:
            self.spelling = f"{'multiset' if multi else 'set'}<{key.spelling}>"
            self.minimum = key.min_size
            self.per = SLOT + key.item_cost
        else:
            self.spelling = f"{'multimap' if multi else 'map'}<{key.spelling}, {value.spelling}>"
            self.minimum = key.min_size + value.min_size
            self.per = SLOT + LIST + 2 * SLOT + key.item_cost + value.item_cost  # a [key, value] list

    def _element(self, r: Reader) -> Any:
        k = self.key_codec.read(r)
        if self.value_codec is None:
            return k, k
        return k, [k, self.value_codec.read(r)]

    def read(self, r: Reader) -> List[Any]:
        n = r.count(self.minimum, self.per)
        if self.minimum == 0 and n:
            # Elements of no bytes are all the same value, and so all equal keys.
            at = r.pos
            element = self._element(r)[1]
            if n > 1 and not self.multi:
                raise DecodeError(Errc.duplicate_key, at)._within("[1]")
            return [element] * n
        out: List[Any] = []
        # The keys read so far, as _table_key makes them: a duplicate is refused at once, at
        # the element, as the C++ reader does when it inserts. (Comparing each key with the
        # previous one would need keys in order, which readers do not require: docs/format.md
        # section 12; sorting at the end would report a later element's error first.)
        seen: Optional[set] = None if self.multi else set()
        token = self.key_codec.key
        i = 0
        try:
            for i in range(n):
                at = r.pos
                k, element = self._element(r)
                if seen is not None:
                    t, cost = _table_key(token(k, True))
                    if t in seen:
                        raise DecodeError(Errc.duplicate_key, at)
                    r.charge(cost, at)
                    seen.add(t)
                out.append(element)
        except Error as e:
            raise e._within(f"[{i}]")
        return out

    def write(self, w: Writer, value: Any) -> None:
        is_map = self.value_codec is not None
        if is_map and isinstance(value, dict):
            value = list(value.items())
        if not _is_list(value):
            raise _expected("a list of [key, value] pairs" if is_map else "a list of keys", value)
        w.varint(len(value))
        seen = None if self.multi else set()
        key_codec = self.key_codec
        i = 0
        try:
            for i, element in enumerate(value):
                if is_map:
                    if not _is_list(element) or len(element) != 2:
                        raise _expected("a [key, value] pair", element)
                    k = element[0]
                    key_codec.write(w, k)
                    self.value_codec.write(w, element[1])  # type: ignore[union-attr]
                else:
                    k = element
                    key_codec.write(w, k)
                if seen is not None:
                    t = _table_key(key_codec.key(k, False))[0]
                    if t in seen:
                        raise EncodeError(f"the key {_show(k)} twice", Errc.duplicate_key)
                    seen.add(t)
        except Error as e:
            raise e._within(f"[{i}]")

    def key(self, value: Any, meta: bool) -> Any:
        if self.value_codec is None:
            return tuple(self.key_codec.key(k, meta) for k in value)
        if isinstance(value, dict):
            value = list(value.items())
        return tuple((self.key_codec.key(k, meta), self.value_codec.key(v, meta)) for k, v in value)


class Tuple_(Codec):
    def __init__(self, elements: List[Codec]) -> None:
        self.elements = elements
        self.spelling = f"tuple<{', '.join(e.spelling for e in elements)}>"
        self.min_size = self.element_min = sum(e.min_size for e in elements)
        # Its list, and its numbers: a tuple of many elements can take few bytes.
        self.list_cost = LIST + sum(SLOT + e.item_cost for e in elements)
        if self.min_size == 0:
            # A value of no bytes: containers share one such value for all their elements
            # (Sequence_.read), but it is as many values as elements in the value's JSON, so
            # each element is charged the whole value (array<array<monostate, 2^16>, 2^16>
            # is refused, not 2^32 nulls in one list of 2^16 references).
            self.item_cost = self.list_cost

    def read(self, r: Reader) -> List[Any]:
        r.charge(self.list_cost, r.pos)
        out: List[Any] = []
        i = 0
        try:
            for i, element in enumerate(self.elements):
                out.append(element.read(r))
        except Error as e:
            raise e._within(f"<{i}>")
        return out

    def write(self, w: Writer, value: Any) -> None:
        if not _is_list(value) or len(value) != len(self.elements):
            raise _expected(f"a list of {len(self.elements)} ({self.spelling})", value)
        i = 0
        try:
            for i, element in enumerate(self.elements):
                element.write(w, value[i])
        except Error as e:
            raise e._within(f"<{i}>")

    def key(self, value: Any, meta: bool) -> Any:
        return tuple(e.key(v, meta) for e, v in zip(self.elements, value))


class Complex(Codec):
    def __init__(self, of: Codec) -> None:
        self.of = of
        self.spelling = f"complex<{of.spelling}>"
        self.min_size = self.element_min = 2 * of.min_size
        if self.min_size == 0:
            self.item_cost = LIST + 2 * (SLOT + of.item_cost)  # see Tuple_

    def read(self, r: Reader) -> List[Any]:
        r.charge(LIST + 2 * SLOT, r.pos)
        return [self.of.read(r), self.of.read(r)]

    def write(self, w: Writer, value: Any) -> None:
        if not _is_list(value) or len(value) != 2:
            raise _expected("[real, imaginary]", value)
        self.of.write(w, value[0])
        self.of.write(w, value[1])

    def key(self, value: Any, meta: bool) -> Any:
        return (self.of.key(value[0], meta), self.of.key(value[1], meta))


class Optional_(Codec):
    nullable = True

    def __init__(self, of: Codec) -> None:
        self.of = of
        self.spelling = f"optional<{of.spelling}>"

    def read(self, r: Reader) -> Any:
        pos = r.pos
        if pos >= r.limit:
            raise DecodeError(_UNEXPECTED_END, r.limit)
        tag = r.data[pos]
        r.pos = pos + 1
        if tag == 0:
            return None
        if tag != 1:
            raise DecodeError(_INVALID_VALUE, pos, f"an optional's tag {tag:#04x}")
        if self.of.nullable:
            r.charge(dict_cost(1), pos)
            return {"some": self.of.read(r)}
        return self.of.read(r)

    def write(self, w: Writer, value: Any) -> None:
        if value is None:
            w.out.append(0)
            return
        if self.of.nullable:
            if not isinstance(value, dict) or len(value) != 1 or "some" not in value:
                raise _expected('null or {"some": value}', value)
            value = value["some"]
        w.out.append(1)
        self.of.write(w, value)

    def key(self, value: Any, meta: bool) -> Any:
        if value is None:
            return None
        return ("some", self.of.key(value["some"] if self.of.nullable else value, meta))


class Variant(Codec):
    def __init__(self, alternatives: List[Codec]) -> None:
        self.alternatives = alternatives
        self.spelling = f"variant<{', '.join(a.spelling for a in alternatives)}>"

    def read(self, r: Reader) -> Dict[str, Any]:
        at = r.pos
        index = r.varint()
        if index >= len(self.alternatives):
            raise DecodeError(_INVALID_VALUE, at, f"alternative {index} of {len(self.alternatives)}")
        r.charge(dict_cost(2), at)
        try:
            return {"index": index, "value": self.alternatives[index].read(r)}
        except Error as e:
            raise e._within(f"<alternative {index}>")

    def write(self, w: Writer, value: Any) -> None:
        if not isinstance(value, dict) or set(value) != {"index", "value"}:
            raise _expected('{"index": i, "value": value}', value)
        index = value["index"]
        if type(index) is not int or not 0 <= index < len(self.alternatives):
            raise EncodeError(f"no alternative {_show(index)} in {self.spelling}")
        w.varint(index)
        try:
            self.alternatives[index].write(w, value["value"])
        except Error as e:
            raise e._within(f"<alternative {index}>")

    def key(self, value: Any, meta: bool) -> Any:
        index = value["index"]
        return (index, self.alternatives[index].key(value["value"], meta))


class Alias(Codec):
    """duration and time_point: the count in its rep's encoding; period and clock are meaning,
    not bytes."""

    def __init__(self, spelling: str, inner: Codec) -> None:
        self.spelling = spelling
        self.inner = inner
        self.min_size = self.element_min = inner.min_size
        self.nullable = inner.nullable
        self.item_cost = inner.item_cost
        self.read = inner.read  # type: ignore[method-assign]
        self.write = inner.write  # type: ignore[method-assign]
        self.key = inner.key  # type: ignore[method-assign]


class Fixed(Codec):
    """bifrons::fixed(x): an integer or an enum's underlying integer at its block width."""

    def __init__(self, of: Codec) -> None:
        self.of = of
        self.spelling = f"fixed<{of.spelling}>"
        self.base = of.underlying if isinstance(of, Enum) else of
        self.min_size = self.element_min = self.base.block_width
        self.item_cost = self.base.item_cost

    def read(self, r: Reader) -> Any:
        at = r.take(self.min_size)
        value = self.base.fixed(r.data, at)  # type: ignore[attr-defined]
        if value is INVALID:
            raise DecodeError(Errc.value_out_of_range, at)
        return value

    def write(self, w: Writer, value: Any) -> None:
        self.base.put_fixed(w.out, value)  # type: ignore[attr-defined]

    def key(self, value: Any, meta: bool) -> Any:
        return self.base.key(value, meta)


class Deprecated(Codec):
    """A retired field: reads a value and discards it; writes the bytes of the schema's
    `writes`."""

    def __init__(self, of: Codec, writes: bytes) -> None:
        self.of = of
        self.writes = writes
        self.spelling = f"deprecated<{of.spelling}>"
        self.min_size = self.element_min = of.min_size
        self.nullable = of.nullable
        self.item_cost = of.item_cost
        # The objects with ids that reading `writes` introduces (set by the schema loader).
        self.written_objects: List[ObjectEntry] = []

    def read(self, r: Reader) -> Any:
        mark = len(r.objects)
        value = self.of.read(r)
        # Discarded: references to what was read inside become errors, but shared objects stay
        # alive (the reader keeps them until the value ends).
        for entry in r.objects[mark:]:
            if entry.kind != SHARED:
                entry.type = None
        return value

    def write(self, w: Writer, value: Any) -> None:
        w.out += self.writes
        w.objects.extend(entry.copy() for entry in self.written_objects)

    def key(self, value: Any, meta: bool) -> Any:
        # A value read is the key it read; a value written is always `writes`: two of them in
        # a set are a duplicate that a reader would refuse (found by test_fuzz.py).
        return self.of.key(value, meta) if meta else self.writes


_ROLES = ("unique", "owning", "shared", "weak", "raw", "reference")


class Pointer(Codec):
    """A pointer: tag 0 (null), 1 (a new object), 2 (a new object of a registered class, when the
    pointer is polymorphic: docs/schema.md section 6), 3 + k (a reference to object k + 1)."""

    nullable = True

    def __init__(self, role: str, to: Codec, registered: Optional["Registered"] = None) -> None:
        self.role = role
        self.to = to
        self.spelling = f"{role}<{to.spelling}>"
        self.owns_alone = role in ("unique", "owning")
        self.shares = role in ("shared", "weak")
        # Polymorphic: the schema's registered classes, which the pointer may hold.
        self.registered = registered

    def _may_name(self, entry: ObjectEntry) -> bool:
        """Whether a reference of this pointer may name the object."""
        if entry.type == self.to.spelling:
            return True
        return (
            self.registered is not None
            and entry.registered
            and entry.type is not None
            and self.registered.reaches(entry.type, self.to.spelling)
        )

    def _read_header(self, r: Reader) -> Tuple[Optional[str], Optional["Struct"], int]:
        """After tag 2: the registered name and its struct (None if the schema does not know the
        name), and the count of objects inside (docs/format.md section 23)."""
        at = r.pos
        index = r.varint()
        if index == 0:
            count_at = r.pos
            names = r.varint()
            if names == 0 or names > (r.limit - r.pos) // 2:  # a name takes at least 2 bytes
                raise DecodeError(_INVALID_VALUE, count_at, f"{names} type names")
            for _ in range(names):
                name_at = r.pos
                length = r.varint()
                if length == 0 or length > 255:
                    raise DecodeError(_INVALID_VALUE, name_at, f"a type name of {length} bytes")
                p = r.take(length)
                r.charge(SLOT + STR + length, name_at)
                r.type_names.append(r.data[p : p + length])
            at = r.pos
            index = r.varint()
        if index == 0 or index > len(r.type_names):
            raise DecodeError(_INVALID_VALUE, at, f"type index {index}, not named before")
        count_at = r.pos
        inside = r.varint()
        # Every object inside takes a byte of the struct envelope that follows: counted against its
        # length, as the C++ reader does, before the name is looked up.
        body = r.pos
        envelope = r.varint() >> 1
        r.pos = body
        if inside > envelope or inside > r.limit - r.pos:
            raise DecodeError(_INVALID_VALUE, count_at, f"{inside} objects inside")
        assert self.registered is not None
        spelled = bytes(r.type_names[index - 1])
        found = self.registered.by_bytes.get(spelled)
        if found is None:
            return spelled.decode("utf-8", "replace"), None, inside  # the name the data holds
        return found[0], found[1], inside

    def read(self, r: Reader) -> Any:
        at = r.pos
        tag = r.varint()
        role = self.role
        if tag == 0 and role != "reference":
            return None
        if tag == 1 and (self.owns_alone or self.shares):
            if getattr(self.to, "abstract", False):
                raise DecodeError(_INVALID_VALUE, at, f"tag 1: {self.to.spelling} is abstract")
            index = len(r.objects)
            registered = self.registered is not None and self.to.spelling in self.registered.structs
            r.introduce(at, self.to.spelling, SHARED if self.shares else UNIQUE, role == "shared", registered)
            r.charge(dict_cost(2), at)
            floor = r.strong_floor
            if role == "weak":
                r.strong_floor = index
            try:
                value = self.to.read_introduced(r)
            except Error as e:
                raise e._within("*")
            r.strong_floor = floor
            r.objects[index].in_progress = False
            return {"id": index + 1, "value": value}
        if tag == 2 and self.registered is not None and (self.owns_alone or self.shares):
            return self._read_polymorphic(r, at)
        if tag < 3 or self.owns_alone:
            raise DecodeError(_INVALID_VALUE, at, f"tag {tag} in a {role} pointer")
        index = tag - 3
        if index >= len(r.objects):
            raise DecodeError(_INVALID_VALUE, at, f"a reference to object {index + 1}, not read yet")
        entry = r.objects[index]
        if entry.kind == SKIPPED:
            if r.unknown_types_null and role != "reference":
                return None
            raise DecodeError(Errc.unknown_type, at, f"a reference to object {index + 1}, which was not read")
        if not self._may_name(entry):
            raise DecodeError(_INVALID_VALUE, at, f"a reference to object {index + 1}, of another type or discarded")
        if self.shares:
            if entry.kind != SHARED:
                raise DecodeError(_INVALID_VALUE, at, f"object {index + 1} cannot be shared")
            if role == "shared":
                if entry.in_progress and index >= r.strong_floor:
                    raise DecodeError(_INVALID_VALUE, at, "a shared_ptr back to an ancestor: a cycle of owners")
                entry.owned = True
        elif entry.kind == SHARED and entry.observed_at is None:
            entry.observed_at = at
        r.charge(dict_cost(1), at)
        return {"ref": tag - 2}

    def _read_polymorphic(self, r: Reader, at: int) -> Any:
        name, struct_, inside = self._read_header(r)
        if struct_ is None:
            if not r.unknown_types_null:
                raise DecodeError(
                    Errc.unknown_type,
                    at,
                    f"the data holds an object of type {name!r}, which this schema does not register; "
                    "read with ReadOptions(unknown_types_null=True) to read such pointers as None",
                )
            return self._skip_unknown_object(r, at, inside)
        assert self.registered is not None and name is not None
        if not self.registered.reaches(struct_.spelling, self.to.spelling):
            raise DecodeError(_INVALID_VALUE, at, f"{name!r} does not derive from {self.to.spelling}")
        role = self.role
        index = len(r.objects)
        r.introduce(at, struct_.spelling, SHARED if self.shares else UNIQUE, role == "shared", True)
        r.charge(dict_cost(4), at)
        floor = r.strong_floor
        if role == "weak":
            r.strong_floor = index
        try:
            value = struct_.read_introduced(r)
        except Error as e:
            raise e._within(f"*({name})")
        r.strong_floor = floor
        r.objects[index].in_progress = False
        # An older reader may read fewer of the objects inside (the rest were in fields it does
        # not know): they take their ids all the same. Never more.
        read_inside = len(r.objects) - (index + 1)
        if read_inside > inside:
            raise DecodeError(_INVALID_VALUE, at, f"{read_inside} objects inside, the header says {inside}")
        for _ in range(inside - read_inside):
            r.introduce(at, None, SKIPPED)  # each charged; `inside` is at most the bytes left
        if read_inside < inside:
            return {"id": index + 1, "type": name, "value": value, "unread": inside - read_inside}
        return {"id": index + 1, "type": name, "value": value}

    @staticmethod
    def _skip_unknown_object(r: Reader, at: int, inside: int) -> None:
        """Under unknown_types_null: the envelope of an object of a class the schema does not
        know is skipped; it and the objects inside it take their ids, and the pointer reads as None."""
        length = r.varint() >> 1
        if length > r.limit - r.pos:
            raise DecodeError(Errc.unexpected_end, r.limit, f"a skipped object of {length} bytes")
        if inside > length:
            raise DecodeError(_INVALID_VALUE, at, f"{inside} objects inside {length} bytes")
        r.take(length)
        for _ in range(inside + 1):
            r.introduce(at, None, SKIPPED)  # each charged; `inside` is at most the bytes left
        return None

    def _write_polymorphic(self, w: Writer, value: Dict[str, Any]) -> None:
        """Tag 2: the header lists the names first used inside the outermost tag-2 object."""
        name = value["type"]
        registered = self.registered
        struct_ = registered.by_name.get(name) if registered is not None and isinstance(name, str) else None
        if struct_ is None or registered is None or not registered.reaches(struct_.spelling, self.to.spelling):
            raise EncodeError(
                f"{_show(name)} is not a registered class that a {self.spelling} may hold", Errc.unregistered_type
            )
        role = self.role
        index = len(w.objects)
        if "id" in value and value["id"] != index + 1:
            raise EncodeError(f"object id {_show(value['id'])} where the writer gives {index + 1}")
        w.objects.append(ObjectEntry(struct_.spelling, SHARED if self.shares else UNIQUE, True, role == "shared", True))
        outermost = w.polymorphic_depth == 0
        type_index = w.type_indices.get(name)
        if type_index is None:
            type_index = w.type_indices[name] = len(w.type_indices) + 1
            w.new_names.append(name)
        floor = w.strong_floor
        if role == "weak":
            w.strong_floor = index
        start = len(w.out)
        w.polymorphic_depth += 1
        try:
            struct_.write_introduced(w, value["value"])
        except Error as e:
            raise e._within(f"*({name})")
        finally:
            w.polymorphic_depth -= 1
        w.strong_floor = floor
        w.objects[index].in_progress = False
        unread = value.get("unread", 0)
        if type(unread) is not int or unread < 0:
            raise _expected("a count of objects (unread)", unread)
        for _ in range(unread):  # counted, as the data had them, but not written
            w.objects.append(ObjectEntry(None, SKIPPED, False, False))
        header = bytearray([2])
        if outermost and w.new_names:
            header += varint_bytes(0) + varint_bytes(len(w.new_names))
            for listed in w.new_names:
                encoded = listed.encode("utf-8")
                header += varint_bytes(len(encoded)) + encoded
            w.new_names = []
        header += varint_bytes(type_index) + varint_bytes(len(w.objects) - (index + 1))
        w.out[start:start] = header

    def write(self, w: Writer, value: Any) -> None:
        role = self.role
        if value is None:
            if role == "reference":
                raise EncodeError('a reference is never null: {"ref": k}')
            w.out.append(0)
            return
        if isinstance(value, dict) and len(value) == 1 and "ref" in value:
            self._write_reference(w, value["ref"])
            return
        if not isinstance(value, dict) or "value" not in value or not set(value) <= {"id", "type", "value", "unread"}:
            raise _expected(
                'null, {"id": k, "value": value}, {"id": k, "type": name, "value": value} or {"ref": k}', value
            )
        if not (self.owns_alone or self.shares):
            raise EncodeError(
                f'a {role} pointer does not own: it refers ({{"ref": k}}) to an object written before it',
                Errc.unwritten_pointee,
            )
        if "type" in value:
            self._write_polymorphic(w, value)
            return
        if getattr(self.to, "abstract", False):
            raise EncodeError(f"{self.to.spelling} is abstract: an object of it needs its registered class (\"type\")")
        index = len(w.objects)
        if "id" in value and value["id"] != index + 1:
            raise EncodeError(f"object id {_show(value['id'])} where the writer gives {index + 1}")
        w.objects.append(ObjectEntry(self.to.spelling, SHARED if self.shares else UNIQUE, True, role == "shared"))
        floor = w.strong_floor
        if role == "weak":
            w.strong_floor = index
        w.out.append(1)
        try:
            self.to.write_introduced(w, value["value"])
        except Error as e:
            raise e._within("*")
        w.strong_floor = floor
        w.objects[index].in_progress = False

    def _write_reference(self, w: Writer, k: Any) -> None:
        role = self.role
        if type(k) is not int or k < 1:
            raise _expected("an object id 1, 2, 3, ...", k)
        if self.owns_alone:
            raise EncodeError(f"a {role} pointer to object {k}, which is owned already", Errc.ownership_conflict)
        if k > len(w.objects) or w.objects[k - 1].type is None:
            raise EncodeError(f"a reference to object {k}, which is not written before it", Errc.unwritten_pointee)
        entry = w.objects[k - 1]
        if not self._may_name(entry):
            raise EncodeError(f"a reference to object {k}, a {entry.type}, from a {self.spelling}")
        if self.shares:
            if entry.kind != SHARED:
                raise EncodeError(
                    f"a {role} pointer to object {k}, which a unique pointer or a by-value member owns",
                    Errc.ownership_conflict,
                )
            if role == "shared":
                if entry.in_progress and k - 1 >= w.strong_floor:
                    raise EncodeError(
                        f"a shared pointer back to object {k}, an ancestor: a cycle of owners", Errc.ownership_cycle
                    )
                entry.owned = True
        elif entry.kind == SHARED and entry.observed_at is None:
            entry.observed_at = True
        w.varint(k + 2)

    def key(self, value: Any, meta: bool) -> Any:
        if value is None:
            return None
        if "ref" in value:
            return ("ref", value["ref"])
        if "type" in value and self.registered is not None and value["type"] in self.registered.by_name:
            struct_ = self.registered.by_name[value["type"]]
            return ("id", value.get("id") if meta else None, value["type"], struct_.key(value["value"], meta))
        return ("id", value.get("id") if meta else None, self.to.key(value["value"], meta))


def _fixed_cost(codec: Codec) -> int:
    """The value of a record field: a number (a bool or a byte is a cached object), an array's
    list, a record's dict."""
    if isinstance(codec, Record):
        return codec.value_cost
    if isinstance(codec, Array):
        return LIST + codec.size * (SLOT + _fixed_cost(codec.element))
    return codec.item_cost


class Registered:
    """The registered classes of a schema (its "polymorphic" member, docs/schema.md section 6)."""

    def __init__(self) -> None:
        self.by_name: Dict[str, "Struct"] = {}
        self.by_bytes: Dict[bytes, Tuple[str, "Struct"]] = {}
        self.by_spelling: Dict[str, "Struct"] = {}
        self.structs: Set[str] = set()  # added to in place: a copy per class took n^2 steps

    def add(self, name: str, struct_: "Struct") -> None:
        self.by_name[name] = struct_
        self.by_bytes[name.encode("utf-8")] = (name, struct_)
        self.by_spelling[struct_.spelling] = struct_
        self.structs.add(struct_.spelling)

    def reaches(self, type_name: str, to: str) -> bool:
        """Whether an object of the registered class type_name may stand for a `to`."""
        if type_name == to:
            return True
        found = self.by_name_of_struct(type_name)
        return found is not None and to in found.bases

    def by_name_of_struct(self, type_name: str) -> Optional["Struct"]:
        # A dict, not a search of by_name: this runs for every polymorphic pointer read.
        return self.by_spelling.get(type_name)



PRIMITIVES: Dict[str, Codec] = {
    "bool": Boolean(),
    "char": Octet("char"),
    "byte": Octet("byte"),
    "i8": Integer("i8", 1, True),
    "i16": Integer("i16", 2, True),
    "i32": Integer("i32", 4, True),
    "i64": Integer("i64", 8, True),
    "u8": Integer("u8", 1, False),
    "u16": Integer("u16", 2, False),
    "u32": Integer("u32", 4, False),
    "u64": Integer("u64", 8, False),
    "f32": Float(4),
    "f64": Float(8),
    "monostate": Monostate(),
}

STRING_UNITS: Dict[str, Tuple[str, int]] = {"char": ("char", 1), "u16": ("u16", 2), "u32": ("u32", 4)}
ROLES = _ROLES
