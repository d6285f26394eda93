// Writing straight into a caller's fixed buffer (a network or RDMA buffer), and what happens when
// it is too small.
#include <bifrons/bifrons.hpp>

#include <array>
#include <cstdio>

struct Message {
  std::uint32_t id;
  std::string text;
};

int main() {
  std::array<std::byte, 64> buffer{};
  const std::size_t used = bifrons::to_bytes(Message{7, "fits"}, std::span<std::byte>(buffer));

  // Too big: an error, and not one byte written past the end of the span.
  std::array<std::byte, 8> small{};
  const auto r = bifrons::try_to_bytes(Message{8, std::string(100, 'x')}, std::span<std::byte>(small));

  const auto back = bifrons::from_bytes<Message>(std::span<const std::byte>(buffer.data(), used));
  std::printf("used %zu bytes; too small: %s (needs %zu)\n", used, bifrons::describe(r.code()), r.offset());
  return used == bifrons::serialized_size(Message{7, "fits"}) && back.text == "fits" && !r &&
                 r.code() == bifrons::errc::buffer_too_small && r.offset() == 104
             ? 0
             : 1;
}
