// Loop counts for tests that also run under qemu-user (the cross-* stages of scripts/test).
//
// Emulation runs the same code about 10-30x slower. Counts that only buy more
// of the same checking (random inputs, the 100 000 elements of a "large"
// round trip) are a tenth of their native value there; native builds keep the
// full count, and counts a test is *about* (a 100 000-deep nesting that must
// hit the depth limit) never change.
#pragma once

#include <cstddef>

namespace bifrons_test {

#if defined(BIFRONS_TEST_EMULATED) && BIFRONS_TEST_EMULATED
inline constexpr bool emulated = true;
#else
inline constexpr bool emulated = false;
#endif

constexpr std::size_t scaled_count(std::size_t native) { return emulated ? native / 10 : native; }

}  // namespace bifrons_test
