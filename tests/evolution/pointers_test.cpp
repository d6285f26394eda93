// Changing pointer kinds (docs/evolution.md, the pointer rows): which changes keep old and new
// programs reading each other's data, checked in both directions.

#include "evolution_support.hpp"

#include <functional>

namespace evo {
namespace {

/// A by-value class with identity, for the last test.
struct Marked {
  std::int32_t v = 0;
};

}  // namespace
}  // namespace evo

template <>
inline constexpr bool bifrons::enable_identity<evo::Marked> = true;

namespace evo {
namespace {

using bifrons::errc;

template <class To, class From>
bifrons::result<To> read_as(const From& value) {
  return bifrons::try_from_bytes<To>(bifrons::to_bytes(value));
}

TEST(PointerEvolution, UniqueToSharedWhileNothingIsShared) {
  struct U {
    std::unique_ptr<std::int32_t> a, b;
  };
  struct S {
    std::shared_ptr<std::int32_t> a, b;
  };
  // unique -> shared: always.
  const auto s = read_as<S>(U{std::make_unique<std::int32_t>(1), nullptr});
  ASSERT_TRUE(s);
  ASSERT_TRUE(s->a);
  EXPECT_EQ(*s->a, 1);
  EXPECT_EQ(s->b, nullptr);
  // shared -> unique: while no object is shared.
  const auto u = read_as<U>(S{std::make_shared<std::int32_t>(2), std::make_shared<std::int32_t>(3)});
  ASSERT_TRUE(u);
  EXPECT_EQ(*u->a, 2);
  EXPECT_EQ(*u->b, 3);
  const auto p = std::make_shared<std::int32_t>(4);
  const auto shared = read_as<U>(S{p, p});
  ASSERT_FALSE(shared);
  EXPECT_EQ(shared.code(), errc::invalid_value);
}

TEST(PointerEvolution, SharedAndWeak) {
  struct Strong {
    std::shared_ptr<std::int32_t> owner;
    std::shared_ptr<std::int32_t> second;
  };
  struct Weak {
    std::shared_ptr<std::int32_t> owner;
    std::weak_ptr<std::int32_t> second;
  };
  const auto p = std::make_shared<std::int32_t>(5);
  const auto w = read_as<Weak>(Strong{p, p});
  ASSERT_TRUE(w);
  EXPECT_EQ(w->second.lock(), w->owner);
  const auto s = read_as<Strong>(Weak{p, p});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->second, s->owner);
  // An object only the weak_ptr held now: it reads back expired.
  struct OnlyWeak {
    std::weak_ptr<std::int32_t> w;
  };
  struct OnlyStrong {
    std::shared_ptr<std::int32_t> w;
  };
  const auto expired = read_as<OnlyWeak>(OnlyStrong{p});
  ASSERT_TRUE(expired);
  EXPECT_TRUE(expired->w.expired());
}

struct Raw {
  std::int32_t* p = nullptr;
  ~Raw() { delete p; }
  Raw() = default;
  explicit Raw(std::int32_t v) : p(new std::int32_t(v)) {}
  Raw(Raw&& o) noexcept : p(std::exchange(o.p, nullptr)) {}
  Raw& operator=(Raw&&) = delete;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(p));
  }
};
struct Unique {
  std::unique_ptr<std::int32_t> p;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(p);
  }
};

TEST(PointerEvolution, OwningRawAndUniqueShareTheirBytes) {
  const auto u = read_as<Unique>(Raw{6});
  ASSERT_TRUE(u && u->p);
  EXPECT_EQ(*u->p, 6);
  const auto r = read_as<Raw>(Unique{std::make_unique<std::int32_t>(7)});
  ASSERT_TRUE(r && r->p);
  EXPECT_EQ(*r->p, 7);
}

TEST(PointerEvolution, EnablingIdentityShiftsTheIds) {
  // A message with pointers reads differently once a by-value class takes ids: here the
  // reference of the old writer names another object for the new reader.
  struct Plain {
    std::int32_t v = 0;
  };
  struct Old {
    Plain first;
    std::shared_ptr<std::int32_t> a;
    std::shared_ptr<std::int32_t> b;
  };
  const auto p = std::make_shared<std::int32_t>(8);
  const std::vector<std::byte> old = bifrons::to_bytes(Old{{1}, p, p});
  // Old: a is object 1, b refers to 1. A reader whose first member has identity sees first as
  // object 1 and a as object 2: b's reference then names first, which is not an int32.
  struct New {
    Marked first;
    std::shared_ptr<std::int32_t> a;
    std::shared_ptr<std::int32_t> b;
  };
  EXPECT_TRUE(bifrons::try_from_bytes<Old>(old));
  const auto misread = bifrons::try_from_bytes<New>(old);
  ASSERT_FALSE(misread);
  EXPECT_EQ(misread.code(), errc::invalid_value);
}

}  // namespace
}  // namespace evo
