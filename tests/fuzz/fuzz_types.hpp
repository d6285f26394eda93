#pragma once
// Small user types shared by the fuzz harnesses.

#include <bifrons/bifrons.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace fuzz {

enum class Kind : std::uint8_t { none = 0, alpha = 1, beta = 2, gamma = 200 };
enum Level : std::int16_t { level_low = -300, level_mid = 0, level_high = 300 };  // unscoped, fixed type

struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
  bool operator==(const Point&) const = default;
  auto operator<=>(const Point&) const = default;
};

/// A record (fixed-width fields; arrays of it are one block): 16 bytes, padding in memory.
struct Sample {
  std::int32_t id = 0;
  double value = 0;
  std::uint16_t flags = 0;
  bool live = false;
  Kind kind = Kind::none;
  bool operator==(const Sample&) const = default;
};

/// A record whose memory layout is its wire layout (a memcpy and a possible view).
struct Pixel {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;
  std::uint8_t a = 0;
  bool operator==(const Pixel&) const = default;
};

}  // namespace fuzz

template <>
inline constexpr bool bifrons::enable_record<fuzz::Sample> = true;
template <>
inline constexpr bool bifrons::enable_record<fuzz::Pixel> = true;
