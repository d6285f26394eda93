// Records: an array of fixed-width structs written as one block, which still evolves.
#include <bifrons/bifrons.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace v1 {
struct Tick {
  std::int64_t time_ns = 0;
  double price = 0;
  std::int32_t volume = 0;
};
}  // namespace v1

namespace v2 {
struct Tick {
  std::int64_t time_ns = 0;
  double price = 0;
  std::int32_t volume = 0;
  char venue[4] = {'X', 'N', 'Y', 'S'};  // appended in version 2
};
}  // namespace v2

// One line per type, at global scope: the type's fields get fixed widths, and arrays of it are
// one block (a memcpy when the memory layout is the wire layout).
template <>
inline constexpr bool bifrons::enable_record<v1::Tick> = true;
template <>
inline constexpr bool bifrons::enable_record<v2::Tick> = true;

int main() {
  std::vector<v1::Tick> day;
  for (int i = 0; i < 1000; ++i) day.push_back({1'700'000'000'000'000'000 + i, 100.0 + i / 8.0, i % 50});

  // count, stride (20 bytes), then 1000 records of 20 bytes.
  const auto bytes = bifrons::to_bytes(day);

  // A newer reader takes the 20 bytes it knows of each record and defaults the venue.
  const auto upgraded = bifrons::from_bytes<std::vector<v2::Tick>>(bytes);
  // An older reader of newer data skips the 4 bytes it does not know in each record.
  const auto downgraded = bifrons::from_bytes<std::vector<v1::Tick>>(bifrons::to_bytes(upgraded));

  std::printf("%zu bytes for %zu ticks; last price %.3f, venue %.4s\n", bytes.size(), upgraded.size(),
              upgraded.back().price, upgraded.back().venue);
  return bytes.size() == 3 + 1000 * 20 && upgraded.size() == 1000 && upgraded[999].volume == 999 % 50 &&
                 upgraded[999].venue[0] == 'X' && downgraded.size() == 1000 && downgraded[7].price == day[7].price
             ? 0
             : 1;
}
