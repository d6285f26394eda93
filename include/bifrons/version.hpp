// SPDX-License-Identifier: MIT
#pragma once
// The bifrons version, which the CMake package version (and the pkg-config version) must equal.

#define BIFRONS_VERSION_MAJOR 0
#define BIFRONS_VERSION_MINOR 1
#define BIFRONS_VERSION_PATCH 0

/// major * 10000 + minor * 100 + patch: 0.1.0 is 100, 1.2.3 would be 10203.
#define BIFRONS_VERSION (BIFRONS_VERSION_MAJOR * 10000 + BIFRONS_VERSION_MINOR * 100 + BIFRONS_VERSION_PATCH)

#define BIFRONS_VERSION_STRING "0.1.0"
