// SPDX-License-Identifier: MIT
#pragma once
// Compile-time facts about the host that every other header relies on.

#include <bit>
#include <climits>
#include <limits>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
#define BIFRONS_HAS_EXCEPTIONS 1
#else
#define BIFRONS_HAS_EXCEPTIONS 0
#endif

// Run-time type information (off with -fno-rtti): only pointers to polymorphic classes and
// their registration need it; everything else compiles without it.
#if defined(__cpp_rtti) || defined(__GXX_RTTI) || defined(_CPPRTTI)
#define BIFRONS_HAS_RTTI 1
#else
#define BIFRONS_HAS_RTTI 0
#endif

// GCC and clang extensions (attributes, __builtin_bswap). Other compilers get portable code; a
// user can also switch them off with -DBIFRONS_NO_COMPILER_EXTENSIONS.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(BIFRONS_NO_COMPILER_EXTENSIONS)
#define BIFRONS_HAS_BUILTINS 1
#else
#define BIFRONS_HAS_BUILTINS 0
#endif

// Hot paths are many tiny functions (one per field); GCC's inliner gives up on them once the
// caller grows, and each call then costs more than the work. Forcing them inline is what keeps
// the per-field cost at a few instructions.
// Unoptimized builds skip it: forced inlining there only makes debug builds (and the test suite)
// slower to compile, for no speed anyone measures.
#if BIFRONS_HAS_BUILTINS && defined(__OPTIMIZE__)
#define BIFRONS_INLINE [[gnu::always_inline]] inline
#define BIFRONS_INLINE_LAMBDA __attribute__((always_inline))
#define BIFRONS_FLATTEN [[gnu::flatten]]
#else
#define BIFRONS_INLINE inline
#define BIFRONS_INLINE_LAMBDA
#define BIFRONS_FLATTEN
#endif
// State that must be one per process even when a shared library built with -fvisibility=hidden
// (and loaded with dlopen) includes bifrons too: the registry of polymorphic types, the writer's
// session, the keys that identify types (registry.hpp, write_session.hpp, objects.hpp).
#if BIFRONS_HAS_BUILTINS
#define BIFRONS_VISIBLE [[gnu::visibility("default")]]
#else
#define BIFRONS_VISIBLE
#endif
// Opt-in (define it as 1 for the whole program, e.g. with CMake's target_compile_definitions on
// every target that includes bifrons): failed reads name where they failed, as a field path
// (`Save.inventory.items[3].count`) and a C++ type, in bifrons::error and bifrons::result. It
// costs every read the bookkeeping; without it, none of that code exists.
#ifndef BIFRONS_ERROR_PATHS
#define BIFRONS_ERROR_PATHS 0
#endif

#if BIFRONS_HAS_BUILTINS
#define BIFRONS_COLD [[gnu::noinline, gnu::cold]]
// For failure paths that take the source: they may be inlined (a call would let the source's
// address escape the flattened read, and its cursor could no longer live in registers) but are
// laid out away from the hot path.
#define BIFRONS_COLD_INLINE [[gnu::cold]]
#else
#define BIFRONS_COLD
#define BIFRONS_COLD_INLINE
#endif

namespace bifrons::detail {

// The wire format is little-endian. Mixed-endian hosts (old ARM FPA) are not supported.
inline constexpr bool host_is_little_endian = std::endian::native == std::endian::little;
static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "bifrons: mixed-endian hosts are not supported");

static_assert(CHAR_BIT == 8, "bifrons: the format is defined over 8-bit bytes");
static_assert(sizeof(int) == 4, "bifrons: int must be 32 bits");
static_assert(sizeof(long long) == 8, "bifrons: long long must be 64 bits");
static_assert(std::numeric_limits<float>::is_iec559 && sizeof(float) == 4, "bifrons: float must be IEEE-754 binary32");
static_assert(std::numeric_limits<double>::is_iec559 && sizeof(double) == 8,
              "bifrons: double must be IEEE-754 binary64");

}  // namespace bifrons::detail
