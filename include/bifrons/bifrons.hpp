// SPDX-License-Identifier: MIT
#pragma once
// bifrons: a portable, evolvable binary serialization library. This header brings everything:
// the core API (core.hpp), streaming (io.hpp) and every standard type (types/*.hpp).
// For faster builds include core.hpp and only the types/*.hpp headers you use.

#include "core.hpp"
#include "io.hpp"
#include "pointers.hpp"
#include "polymorphic.hpp"
#include "types/adapters.hpp"
#include "types/array.hpp"
#include "types/atomic.hpp"
#include "types/bitset.hpp"
#include "types/chrono.hpp"
#include "types/complex.hpp"
#include "types/deque.hpp"
#include "types/filesystem.hpp"
#include "types/forward_list.hpp"
#include "types/functional.hpp"
#include "types/list.hpp"
#include "types/map.hpp"
#include "types/memory.hpp"
#include "types/optional.hpp"
#include "types/set.hpp"
#include "types/string.hpp"
#include "types/unordered_map.hpp"
#include "types/unordered_set.hpp"
#include "types/utility.hpp"
#include "types/valarray.hpp"
#include "types/variant.hpp"
#include "types/vector.hpp"
#include "types/views.hpp"
#include "version.hpp"
