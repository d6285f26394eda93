// Reading bytes from an untrusted source: limits, error codes and offsets, no exceptions needed.
#include <bifrons/bifrons.hpp>

#include <cstdio>
#include <string_view>

int main() {
  // A varint count of 2^60 strings: rejected before anything is allocated.
  const std::string_view hostile("\x80\x80\x80\x80\x80\x80\x80\x80\x10", 9);
  const auto r = bifrons::try_from_bytes<std::vector<std::string>>(hostile);
  std::printf("hostile: %s at byte %zu\n", bifrons::describe(r.code()), r.offset());

  // Tight limits for a small service: 1 MiB of allocations, nesting 16.
  bifrons::read_options options;
  options.max_alloc_bytes = 1 << 20;
  options.max_depth = 16;
  const auto big = bifrons::to_bytes(std::vector<std::int32_t>(1 << 20, 7));  // would need 4 MiB
  const auto limited = bifrons::try_from_bytes<std::vector<std::int32_t>>(big, options);
  std::printf("limited: %s\n", bifrons::describe(limited.code()));

  return !r && r.code() == bifrons::errc::element_limit_exceeded && r.offset() == 0 && !limited &&
                 limited.code() == bifrons::errc::allocation_limit_exceeded
             ? 0
             : 1;
}
