// SPDX-License-Identifier: MIT
// The self-check the api_* examples share: each claim an example makes is checked, a false one is
// printed, and main() returns non-zero if any failed (ctest runs every example).
#pragma once

#include <cstdio>

struct example_check {
  int failures = 0;
  void operator()(bool ok, const char* what) {
    if (!ok) {
      std::printf("FAILED: %s\n", what);
      ++failures;
    }
  }
};
