// std::reference_wrapper (bifrons/types/functional.hpp): a non-owning pointer that is never null.
#include <bifrons/types/functional.hpp>

#include <cstdint>
#include <functional>
#include <memory>

#include "test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

// A class with a hook: reflection cannot count the members of an aggregate that holds a
// reference_wrapper (it converts from almost anything).
struct Target {
  std::unique_ptr<std::int32_t> a;
  std::unique_ptr<std::int32_t> b;
  std::reference_wrapper<std::int32_t> chosen;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, b, chosen);
  }
};

TEST(ReferenceWrapper, RebindsToTheNewObject) {
  Target t{std::make_unique<std::int32_t>(1), std::make_unique<std::int32_t>(2), std::ref(*t.a)};
  t.chosen = *t.b;
  // a (id 1), b (id 2), chosen -> id 2 (tag 4).
  EXPECT_EQ(hex_of(t), "0a 01 02 01 04 04");
  std::int32_t placeholder = 0;
  Target back{nullptr, nullptr, std::ref(placeholder)};
  bifrons::from_bytes(bifrons::to_bytes(t), back);
  ASSERT_TRUE(back.a && back.b);
  EXPECT_EQ(&back.chosen.get(), back.b.get());
  EXPECT_EQ(back.chosen.get(), 2);
}

TEST(ReferenceWrapper, NeverNull) {
  std::int32_t placeholder = 0;
  Target back{nullptr, nullptr, std::ref(placeholder)};
  // chosen = tag 0: a reference cannot be null.
  EXPECT_THROW(bifrons::from_bytes(B({0x0a, 0x01, 0x02, 0x01, 0x04, 0x00}), back), bifrons::error);
  EXPECT_EQ(&back.chosen.get(), &placeholder);
  const auto r = [&] {
    try {
      bifrons::from_bytes(B({0x0a, 0x01, 0x02, 0x01, 0x04, 0x00}), back);
    } catch (const bifrons::error& e) {
      return std::pair{e.code(), e.offset()};
    }
    return std::pair{errc::ok, std::size_t{0}};
  }();
  EXPECT_EQ(r.first, errc::invalid_value);
  EXPECT_EQ(r.second, 5u);
}

TEST(ReferenceWrapper, AnObjectNotWrittenIsRefusedAtWrite) {
  std::int32_t outside = 3;
  Target t{std::make_unique<std::int32_t>(1), nullptr, std::ref(outside)};
  std::array<std::byte, 32> buffer{};
  const auto r = bifrons::try_to_bytes(t, buffer);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::unwritten_pointee);
}

}  // namespace
}  // namespace bifrons_test
