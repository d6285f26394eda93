// SPDX-License-Identifier: MIT
#pragma once
// std::filesystem::path: a minimal type (docs/format.md, section 29), written as its UTF-8 form,
// the bytes of a std::u8string (a count, then the bytes), on every host, including those whose
// native paths are wide (Windows). Its hooks are free save_minimal and load_minimal in namespace
// bifrons: the place for the hooks of a type one cannot edit (docs/api.md).

#include <concepts>
#include <filesystem>
#include <string>

#include "../detail/codec.hpp"
#include "string.hpp"

namespace bifrons {
// For std::filesystem::path exactly: a parameter `const path&` would also take every type that
// converts to a path (std::string, const char*), and give them these hooks.
template <class Archive, std::same_as<std::filesystem::path> Path>
std::u8string save_minimal(const Archive&, const Path& path) {
  return path.u8string();
}
template <class Archive, std::same_as<std::filesystem::path> Path>
void load_minimal(const Archive&, Path& path, const std::u8string& utf8) {
  path = std::filesystem::path(utf8);
}
}  // namespace bifrons
