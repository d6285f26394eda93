// docs/api.md, "Schemas and typed files": schema<T>(), schema_name, named(), and the framed form
// (to_framed, from_framed, try_from_framed, read_frame, frame_type_name).
#include <bifrons/bifrons.hpp>
#include <bifrons/frame.hpp>
#include <bifrons/schema.hpp>

#include "example_check.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace shop {

// An aggregate: its fields are named by their members' names.
struct Order {
  std::int64_t id = 0;
  std::string symbol;
  double price = 0;
};

// A class with a hook names its fields with bifrons::named (positional names otherwise).
class Basket {
 public:
  Basket() = default;
  explicit Basket(std::vector<Order> orders) : orders_(std::move(orders)) {}
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::named("orders", orders_), bifrons::named("checksum", bifrons::fixed(checksum_)));
  }
  const std::vector<Order>& orders() const { return orders_; }

 private:
  std::vector<Order> orders_;
  std::uint32_t checksum_ = 0;
};

}  // namespace shop

// The name in schemas and frames; without it, "shop::Basket".
template <>
inline constexpr std::string_view bifrons::schema_name<shop::Basket> = "shop.Basket";

int main() {
  example_check check;

  // The schema: deterministic JSON, to commit and to compare with bifrons-compat.
  const std::string text = bifrons::schema<shop::Basket>();
  check(text.find("\"root\": \"shop.Basket\"") != std::string::npos, "the root is the declared name");
  check(text.find("\"name\": \"checksum\"") != std::string::npos, "named() names a hook's field");
  check(text.find("\"name\": \"symbol\"") != std::string::npos, "an aggregate's members are named");
  check(text.find("\"kind\": \"fixed\"") != std::string::npos, "fixed() is in the schema");

  // Typed files: a frame (magic, format, type name) before the unchanged bytes.
  const shop::Basket basket({{1, "AAPL", 189.25}});
  const std::vector<std::byte> file = bifrons::to_framed(basket);
  check(bifrons::frame_type_name<shop::Basket>() == "shop.Basket", "the frame carries the schema name");
  const auto frame = bifrons::read_frame(file);
  check(frame && frame->type_name == "shop.Basket" && frame->format == 1, "read_frame needs no type");
  check(bifrons::from_framed<shop::Basket>(file).orders().size() == 1, "from_framed reads it back");

  // Another type, or bytes without a frame, are refused instead of misread.
  const auto wrong = bifrons::try_from_framed<shop::Order>(file);
  check(!wrong && wrong.code() == bifrons::errc::type_mismatch, "a file of another type: type_mismatch");
  const auto plain = bifrons::try_from_framed<shop::Basket>(bifrons::to_bytes(basket));
  check(!plain && plain.code() == bifrons::errc::not_bifrons && plain.offset() == 0, "no frame: not_bifrons");

  if (check.failures == 0) std::printf("schema and framed file checked\n");
  return check.failures == 0 ? 0 : 1;
}
