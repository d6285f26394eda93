// Writing straight into a caller's fixed buffer (a network or RDMA buffer), and what happens when
// it is too small.
#include <bifrons/bifrons.hpp>

#include <array>
#include <cstdio>
#include <vector>

struct Message {
  std::uint32_t id;
  std::string text;
};

struct Quote {
  std::int64_t id;
  double price;
  char symbol[8];
};

int main() {
  std::array<std::byte, 64> buffer{};
  const std::size_t used = bifrons::to_bytes(Message{7, "fits"}, std::span<std::byte>(buffer));

  // Too big: an error, and not one byte written past the end of the span.
  std::array<std::byte, 8> small{};
  const auto r = bifrons::try_to_bytes(Message{8, std::string(100, 'x')}, std::span<std::byte>(small));

  // A reused buffer sized by size_bound: a Quote has a largest encoding, so one size serves every
  // Quote, and each write takes the one-pass path.
  std::vector<std::byte> reused(bifrons::size_bound(Quote{}));
  const std::size_t quote = bifrons::to_bytes(Quote{-42, 101.5, "ACME"}, std::span<std::byte>(reused));

  const auto back = bifrons::from_bytes<Message>(std::span<const std::byte>(buffer.data(), used));
  std::printf("used %zu bytes; too small: %s (needs %zu)\n", used, bifrons::describe(r.code()), r.offset());
  return used == bifrons::serialized_size(Message{7, "fits"}) && back.text == "fits" && !r &&
                 quote == bifrons::serialized_size(Quote{-42, 101.5, "ACME"}) &&
                 r.code() == bifrons::errc::buffer_too_small && r.offset() == 104
             ? 0
             : 1;
}
