# SPDX-License-Identifier: MIT
"""The state of one read and one write: the position, the limits, the objects with ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

from ._errors import DecodeError, EncodeError, Errc

_UNEXPECTED_END = Errc.unexpected_end
_MALFORMED_VARINT = Errc.malformed_varint

# How a reader holds an object with an id (docs/format.md section 23).
SHARED = 0  # introduced by a shared_ptr or a weak_ptr: others may share it
UNIQUE = 1  # introduced by a unique_ptr or an owning raw pointer
BY_VALUE = 2  # a by-value object of a struct with identity
SKIPPED = 3  # counted by a tag-2 header but not read (in fields a newer writer appended)


# What the allocation budget charges for the Python objects a read builds: estimates of what
# 64-bit CPython 3.9-3.13 allocates (sys.getsizeof), rounded up.
SLOT = 8  # a reference: one element of a list, whatever the element
LIST = 56  # an empty list
STR = 80  # a str or bytes object without its characters (49 to 80 bytes)
NUMBER = 32  # an int outside CPython's cache of -5..256 (28-36 bytes), or a float (24)
OBJECT_ENTRY = 96  # an ObjectEntry and its slot in Reader.objects
SET_ENTRY = 48  # a key's share of a set's table (16-byte entries, at most 60 % full, doubling)


def dict_cost(keys: int) -> int:
    """A dict of `keys` string keys: sys.getsizeof gives 184 for 1-5 keys, 464 for 11-21, 832
    for 22-42 (CPython 3.11)."""
    return 184 + 40 * keys


@dataclass(frozen=True)
class ReadOptions:
    """The reader limits of docs/format.md section 27, with the C++ library's defaults.

    ``max_alloc_bytes`` is charged an estimate of the Python objects a read builds (every
    list, dict and string, 8 bytes per element of a list, also for elements that take no
    input bytes), before they are built; a value whose estimate would go past it fails with
    ``allocation_limit_exceeded``. The hash-bucket limit of the C++ library has no
    counterpart: set and map keys are checked in a table whose hashes an input cannot choose.
    """

    max_depth: int = 64
    max_elements: int = 64 << 20
    max_objects: int = 1 << 20
    max_alloc_bytes: int = 256 << 20
    unknown_types_null: bool = False
    """An object of a registered class the schema does not know reads as None, and so does a
    reference to it, where the pointer may be null (the C++ library's unknown_type_policy::null):
    how a reader with an older schema reads a newer writer's subclasses. Otherwise such an
    object fails with ``unknown_type``."""

    def __post_init__(self) -> None:
        for name in ("max_depth", "max_elements", "max_objects", "max_alloc_bytes"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"ReadOptions.{name} is a non-negative int, not {value!r}")
        if type(self.unknown_types_null) is not bool:
            raise ValueError(f"ReadOptions.unknown_types_null is a bool, not {self.unknown_types_null!r}")


class ObjectEntry:
    """An object with an id: its type's spelling (None once forgotten, after a discarded
    deprecated field), how it is held, and what the sharing rules need."""

    __slots__ = ("type", "kind", "in_progress", "owned", "observed_at", "registered")

    def __init__(
        self, type_name: Optional[str], kind: int, in_progress: bool, owned: bool, registered: bool = False
    ) -> None:
        self.type = type_name
        self.kind = kind
        self.in_progress = in_progress
        self.owned = owned
        # Of a registered class (docs/schema.md section 6): pointers to the classes it reaches
        # may refer to it.
        self.registered = registered
        # Where a non-owning pointer first referred to it (a shared object that no shared_ptr
        # may end up owning: the value is refused there).
        self.observed_at: Optional[object] = None

    def copy(self) -> "ObjectEntry":
        other = ObjectEntry(self.type, self.kind, self.in_progress, self.owned, self.registered)
        other.observed_at = self.observed_at
        return other


class Reader:
    """A read of one value: bytes, position, the end of the enclosing struct body, limits."""

    __slots__ = (
        "data",
        "pos",
        "limit",
        "depth_left",
        "max_elements",
        "max_objects",
        "budget",
        "objects",
        "strong_floor",
        "defaults",
        "type_names",
        "virtual_bases",
        "unknown_types_null",
    )

    def __init__(self, data: bytes, options: ReadOptions, defaults: bool = False, pos: int = 0) -> None:
        self.data = data
        self.pos = pos
        self.limit = len(data)
        self.depth_left = options.max_depth
        self.max_elements = options.max_elements
        self.max_objects = options.max_objects
        # What is left of max_alloc_bytes (see charge).
        self.budget = options.max_alloc_bytes
        self.unknown_types_null = options.unknown_types_null
        self.objects: List[ObjectEntry] = []
        # Objects at or above this index were introduced below the nearest weak_ptr: a
        # shared_ptr reference to one of them still in progress closes a cycle of owners.
        self.strong_floor = 0
        # Decoding a field default (docs/schema.md section 5): nothing is read, so by-value
        # objects take no ids.
        self.defaults = defaults
        # The registered names that tag-2 headers listed, by type index - 1.
        self.type_names: List[bytes] = []
        # The virtual bases read in the complete object being read (docs/format.md section 5).
        self.virtual_bases: List[str] = []

    def take(self, n: int) -> int:
        """Consumes n bytes; returns where they start."""
        pos = self.pos
        if self.limit - pos < n:
            raise DecodeError(_UNEXPECTED_END, self.limit)
        self.pos = pos + n
        return pos

    def varint(self) -> int:
        pos = self.pos
        if pos < self.limit:
            b = self.data[pos]
            if b < 0x80:
                self.pos = pos + 1
                return b
        return self.long_varint()

    def long_varint(self) -> int:
        """A minimal LEB128 varint of at most 64 bits; every error at its first byte."""
        start = pos = self.pos
        data = self.data
        limit = self.limit
        value = 0
        shift = 0
        while True:
            if pos >= limit:
                raise DecodeError(_UNEXPECTED_END, limit)
            b = data[pos]
            pos += 1
            if shift == 63 and b > 1:
                raise DecodeError(_MALFORMED_VARINT, start, "more than 64 bits")
            value |= (b & 0x7F) << shift
            if b < 0x80:
                if b == 0 and shift != 0:
                    raise DecodeError(_MALFORMED_VARINT, start, "not minimal")
                self.pos = pos
                return value
            shift += 7

    def charge(self, cost: int, at: int) -> None:
        """Takes `cost` bytes from the allocation budget before they are allocated; the error
        is reported at `at` (a container's count, as in C++)."""
        if cost > self.budget:
            raise DecodeError(
                Errc.allocation_limit_exceeded, at, f"{cost} bytes more, {self.budget} left of max_alloc_bytes"
            )
        self.budget -= cost

    def count(self, minimum: int, per: Optional[int] = SLOT) -> int:
        """A container's count, checked before anything is built, in the C++ reader's order
        (docs/format.md section 27): against max_elements, against the bytes left when each
        element takes at least `minimum` bytes, then against the budget: a list of `per` bytes
        an element (None: the caller charges)."""
        at = self.pos
        n = self.varint()
        if n > self.max_elements:
            raise DecodeError(Errc.element_limit_exceeded, at, f"{n} elements")
        if minimum and n > (self.limit - self.pos) // minimum:
            raise DecodeError(Errc.count_exceeds_input, at, f"{n} elements")
        if per is not None:
            self.charge(LIST + n * per, at)
        return n

    def introduce(
        self, at: int, type_name: Optional[str], kind: int, owned: bool = False, registered: bool = False
    ) -> int:
        """A new object with an id; returns its id (1, 2, 3, ...)."""
        if len(self.objects) >= self.max_objects:
            raise DecodeError(Errc.object_limit_exceeded, at)
        self.charge(OBJECT_ENTRY, at)
        self.objects.append(ObjectEntry(type_name, kind, kind < BY_VALUE, owned, registered))
        return len(self.objects)

    def check_ownership(self) -> None:
        """At the end of the value: an object only weak_ptrs hold dies, and a non-owning
        pointer to it would dangle."""
        for entry in self.objects:
            if entry.observed_at is not None and entry.kind == SHARED and not entry.owned:
                raise DecodeError(
                    Errc.invalid_value, entry.observed_at, "a non-owning pointer to an object no shared_ptr owns"
                )


class Writer:
    """A write of one value: the bytes so far and the objects with ids."""

    __slots__ = ("out", "objects", "strong_floor", "type_indices", "new_names", "polymorphic_depth", "virtual_bases")

    def __init__(self) -> None:
        self.out = bytearray()
        self.objects: List[ObjectEntry] = []
        self.strong_floor = 0
        # Tag 2: the index of each registered name used so far; the names first used inside the
        # outermost tag-2 object being written, which its header lists; how deep in tag-2
        # objects the writer is.
        self.type_indices: Dict[str, int] = {}
        self.new_names: List[str] = []
        self.polymorphic_depth = 0
        self.virtual_bases: List[str] = []

    def varint(self, x: int) -> None:
        out = self.out
        while x >= 0x80:
            out.append((x & 0x7F) | 0x80)
            x >>= 7
        out.append(x)

    def check_ownership(self) -> None:
        for index, entry in enumerate(self.objects):
            if entry.observed_at is not None and entry.kind == SHARED and not entry.owned:
                raise EncodeError(
                    f"a non-owning pointer to object {index + 1}, which only weak pointers hold"
                    " (it would dangle after reading)",
                    Errc.unwritten_pointee,
                )


def varint_bytes(x: int) -> bytes:
    out = bytearray()
    while x >= 0x80:
        out.append((x & 0x7F) | 0x80)
        x >>= 7
    out.append(x)
    return bytes(out)
