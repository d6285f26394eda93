// docs/api.md, "Writing": every form of to_bytes, try_to_bytes and serialized_size.
#include <bifrons/bifrons.hpp>

#include "example_check.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

struct Point {
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::string label;
};

int main() {
  const Point p{3, -4, "a"};
  example_check check;

  // serialized_size: the exact size, computed without allocating.
  // Point{3, -4, "a"}: header 08 (a 4-byte body, shifted left once), zigzag(3) = 06, zigzag(-4) = 07, "a" = 01 61.
  const std::size_t size = bifrons::serialized_size(p);
  check(size == 5, "serialized_size");

  // to_bytes(value): a new std::vector<std::byte>.
  const std::vector<std::byte> bytes = bifrons::to_bytes(p);
  const std::vector<std::byte> expected{std::byte{0x08}, std::byte{0x06}, std::byte{0x07}, std::byte{0x01},
                                        std::byte{0x61}};
  check(bytes == expected, "to_bytes(value)");

  // to_bytes(value, out): appends to a vector of bytes or chars, or a std::string.
  std::string text = "hdr:";
  bifrons::to_bytes(p, text);
  check(text.size() == 4 + size && text.compare(0, 4, "hdr:") == 0 && text[4] == '\x08', "to_bytes(value, string)");
  std::vector<char> chars;
  bifrons::to_bytes(p, chars);
  bifrons::to_bytes(std::int32_t{-1}, chars);  // a second value, appended: zigzag(-1) = 01
  check(chars.size() == size + 1 && chars.back() == '\x01', "to_bytes(value, vector<char>)");

  // to_bytes(value, span): into a caller's buffer; returns the bytes used.
  std::array<std::byte, 64> buffer{};
  const std::size_t used = bifrons::to_bytes(p, std::span<std::byte>(buffer));
  check(used == size && std::equal(expected.begin(), expected.end(), buffer.begin()), "to_bytes(value, span)");

  // ... and throws bifrons::error (buffer_too_small, offset = the size needed) when it does not fit,
  // writing nothing.
  std::array<std::byte, 4> small{};
  try {
    (void)bifrons::to_bytes(p, std::span<std::byte>(small));
    check(false, "to_bytes(value, span) too small: no exception");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::buffer_too_small && e.offset() == size, "to_bytes(value, span) too small");
  }
  check(small == std::array<std::byte, 4>{}, "nothing written into a small buffer");

  // try_to_bytes: the same without exceptions; a result<std::size_t>.
  const bifrons::result<std::size_t> fits = bifrons::try_to_bytes(p, std::span<std::byte>(buffer));
  check(fits && *fits == size, "try_to_bytes fits");
  const bifrons::result<std::size_t> too_small = bifrons::try_to_bytes(p, std::span<std::byte>(small));
  check(!too_small && too_small.code() == bifrons::errc::buffer_too_small && too_small.offset() == size,
        "try_to_bytes too small");

  std::printf("Point: %zu bytes; %d failure(s)\n", size, check.failures);
  return check.failures == 0 ? 0 : 1;
}
