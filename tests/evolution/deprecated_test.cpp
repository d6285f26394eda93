// Retiring a middle field (rule 3): the field is replaced by bifrons::deprecated<T>. Old and new
// readers keep working, the old reader sees T{} for the retired field, and a retired field costs
// exactly one byte for integers, enums, bool, strings, containers, optionals and structs (sizeof
// for float and double).

#include "evolution_support.hpp"

namespace evo {

template <class T>
struct Keep {
  std::int32_t a = 1;
  T mid{};
  std::string c = "c";
  EVO_FIELDS(a, mid, c)
};

template <class T>
struct Drop {
  std::int32_t a = 1;
  bifrons::deprecated<T> mid;
  std::string c = "c";
  EVO_FIELDS(a, mid, c)
};

struct Gone {
  std::int32_t a = 1;
  std::string c = "c";
  EVO_FIELDS(a, c)
};

// Each retired type, a value that differs from T{}, and what the retired slot costs.
struct RetiredInt32 {
  static constexpr const char* name = "Int32";
  using type = std::int32_t;
  static constexpr std::size_t cost = 1;
  static type value() { return -123456; }
};
struct RetiredUInt64 {
  static constexpr const char* name = "UInt64";
  using type = std::uint64_t;
  static constexpr std::size_t cost = 1;
  static type value() { return ~std::uint64_t{0}; }
};
struct RetiredInt8 {
  static constexpr const char* name = "Int8";
  using type = std::int8_t;
  static constexpr std::size_t cost = 1;
  static type value() { return -100; }
};
struct RetiredBool {
  static constexpr const char* name = "Bool";
  using type = bool;
  static constexpr std::size_t cost = 1;
  static type value() { return true; }
};
struct RetiredEnum {
  static constexpr const char* name = "Enum";
  using type = Color;
  static constexpr std::size_t cost = 1;
  static type value() { return Color::blue; }
};
struct RetiredString {
  static constexpr const char* name = "String";
  using type = std::string;
  static constexpr std::size_t cost = 1;
  static type value() { return "a value long enough to be worth retiring"; }
};
struct RetiredVector {
  static constexpr const char* name = "VectorOfInt32";
  using type = std::vector<std::int32_t>;
  static constexpr std::size_t cost = 1;
  static type value() { return {1, 2, 3, -4}; }
};
struct RetiredVectorOfStrings {
  static constexpr const char* name = "VectorOfString";
  using type = std::vector<std::string>;
  static constexpr std::size_t cost = 1;
  static type value() { return {"a", "bb"}; }
};
struct RetiredMap {
  static constexpr const char* name = "Map";
  using type = std::map<std::int32_t, std::string>;
  static constexpr std::size_t cost = 1;
  static type value() { return {{1, "one"}, {2, "two"}}; }
};
struct RetiredSet {
  static constexpr const char* name = "Set";
  using type = std::set<std::int32_t>;
  static constexpr std::size_t cost = 1;
  static type value() { return {5, 6, 7}; }
};
struct RetiredOptional {
  static constexpr const char* name = "Optional";
  using type = std::optional<std::int32_t>;
  static constexpr std::size_t cost = 1;
  static type value() { return 17; }
};
struct RetiredSmallStruct {
  static constexpr const char* name = "SmallStruct";
  using type = Point;  // T{} = {3, 4}: its full encoding would take 3 bytes
  static constexpr std::size_t cost = 1;
  static type value() { return {30, 40}; }
};
struct RetiredLargeStruct {
  static constexpr const char* name = "LargeStruct";
  using type = Data3;
  static constexpr std::size_t cost = 1;
  static type value() { return sample<Data3>(3); }
};
struct RetiredVersionedStruct {
  static constexpr const char* name = "VersionedStruct";
  using type = MemberSerializeVersioned<Data2>;
  static constexpr std::size_t cost = 1;
  static type value() { return sample<type>(4); }
};
struct RetiredFloat {
  static constexpr const char* name = "Float";
  using type = float;
  static constexpr std::size_t cost = 4;
  static type value() { return 1.5f; }
};
struct RetiredDouble {
  static constexpr const char* name = "Double";
  using type = double;
  static constexpr std::size_t cost = 8;
  static type value() { return -2.5; }
};

template <class R>
class RetiredMiddleField : public ::testing::Test {
 protected:
  using T = typename R::type;
  static Keep<T> keep(std::int32_t a, std::string c) { return {a, R::value(), std::move(c)}; }
  static Drop<T> drop(std::int32_t a, std::string c) { return {a, {}, std::move(c)}; }
};

using RetiredTypes =
    ::testing::Types<RetiredInt32, RetiredUInt64, RetiredInt8, RetiredBool, RetiredEnum, RetiredString, RetiredVector,
                     RetiredVectorOfStrings, RetiredMap, RetiredSet, RetiredOptional, RetiredSmallStruct,
                     RetiredLargeStruct, RetiredVersionedStruct, RetiredFloat, RetiredDouble>;
TYPED_TEST_SUITE(RetiredMiddleField, RetiredTypes, NameOf);

TYPED_TEST(RetiredMiddleField, CostsExactlyTheDocumentedBytes) {
  constexpr std::size_t cost = TypeParam::cost;
  // Gone{300, "c"}: zigzag(300) = 600 = D8 04, "c" = 01 63; body 4, header 8.
  const auto without = bifrons::to_bytes(Gone{300, "c"});
  ASSERT_EQ(without, (std::vector<std::byte>{std::byte{0x08}, std::byte{0xD8}, std::byte{0x04}, std::byte{0x01},
                                             std::byte{0x63}}));
  // The retired slot holds the zero bytes of T{} (count 0, value 0, empty envelope, 0.0).
  std::vector<std::byte> expected{static_cast<std::byte>((4 + cost) << 1), std::byte{0xD8}, std::byte{0x04}};
  expected.insert(expected.end(), cost, std::byte{0});
  expected.insert(expected.end(), {std::byte{0x01}, std::byte{0x63}});

  const auto with = this->drop(300, "c");
  EXPECT_EQ(bifrons::to_bytes(with), expected);
  EXPECT_EQ(bifrons::serialized_size(with) - bifrons::serialized_size(Gone{300, "c"}), cost);
  EXPECT_EQ(bifrons::serialized_size(bifrons::deprecated<typename TypeParam::type>{}), cost);
}

TYPED_TEST(RetiredMiddleField, OldReaderSeesDefaultValue) {
  using T = typename TypeParam::type;
  const auto bytes = bifrons::to_bytes(this->drop(-8, "new"));
  const auto old = bifrons::from_bytes<Keep<T>>(bytes);
  EXPECT_EQ(old.a, -8);
  EXPECT_TRUE(old.mid == T{});
  EXPECT_EQ(old.c, "new");

  auto existing = this->keep(99, "stale");
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing.a, -8);
  EXPECT_TRUE(existing.mid == T{});
  EXPECT_EQ(existing.c, "new");
}

TYPED_TEST(RetiredMiddleField, NewReaderSkipsOldValue) {
  using T = typename TypeParam::type;
  ASSERT_FALSE(TypeParam::value() == T{});
  const auto bytes = bifrons::to_bytes(this->keep(-8, "old"));
  const auto fresh = bifrons::from_bytes<Drop<T>>(bytes);
  EXPECT_EQ(fresh.a, -8);
  EXPECT_EQ(fresh.c, "old");

  auto existing = this->drop(99, "stale");
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing.a, -8);
  EXPECT_EQ(existing.c, "old");
}

TYPED_TEST(RetiredMiddleField, ReadersStayInSyncInVectorsAndStreams) {
  using T = typename TypeParam::type;
  const std::vector<Keep<T>> old_values{this->keep(1, "x"), this->keep(2, "y")};
  const std::vector<Drop<T>> new_values{this->drop(3, "z"), this->drop(4, "w")};
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  w(old_values, std::int32_t{-1}, new_values, std::string("end"));

  // A new program reads both halves as Drop, an old one both as Keep.
  std::vector<Drop<T>> as_new_1, as_new_2;
  std::int32_t i = 0;
  std::string s;
  bifrons::reader new_reader(buffer);
  new_reader(as_new_1, i, as_new_2, s);
  EXPECT_TRUE(new_reader.done());
  EXPECT_EQ(as_new_1, (std::vector<Drop<T>>{this->drop(1, "x"), this->drop(2, "y")}));
  EXPECT_EQ(i, -1);
  EXPECT_EQ(as_new_2, new_values);
  EXPECT_EQ(s, "end");

  std::vector<Keep<T>> as_old_1, as_old_2;
  bifrons::reader r(buffer);
  r(as_old_1, i, as_old_2, s);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(as_old_1, old_values);
  ASSERT_EQ(as_old_2.size(), 2u);
  EXPECT_EQ(as_old_2[0].a, 3);
  EXPECT_TRUE(as_old_2[0].mid == T{});
  EXPECT_EQ(as_old_2[1].c, "w");
  EXPECT_EQ(s, "end");
}

// ---- deprecated<T> passed to ar() in a hook ------------------------------------------------

struct HookDrop {
  std::int32_t a = 1;
  std::string c = "c";
  template <class Ar>
  void serialize(Ar& ar) {
    ar(a, bifrons::deprecated<std::string>{}, c);
  }
};

TEST(RetiredFieldInHook, WrittenAsOneByteAndReadByBothSides) {
  const auto bytes = bifrons::to_bytes(HookDrop{300, "c"});
  EXPECT_EQ(bytes, (std::vector<std::byte>{std::byte{0x0A}, std::byte{0xD8}, std::byte{0x04}, std::byte{0x00},
                                           std::byte{0x01}, std::byte{0x63}}));
  const auto old = bifrons::from_bytes<Keep<std::string>>(bytes);
  EXPECT_EQ(old.a, 300);
  EXPECT_EQ(old.mid, "");
  EXPECT_EQ(old.c, "c");

  const auto fresh = bifrons::from_bytes<HookDrop>(bifrons::to_bytes(Keep<std::string>{7, "retired", "kept"}));
  EXPECT_EQ(fresh.a, 7);
  EXPECT_EQ(fresh.c, "kept");
}

// ---- a family that retires a field in each release, in several positions --------------------

template <class Pos>
class RetiredFieldNesting : public ::testing::Test {};
using RetiredPositions =
    ::testing::Types<AtTopLevel, AsMember, InVector, AsMapValue, InOptional, InVariant, InVectorInStructInMap>;
TYPED_TEST_SUITE(RetiredFieldNesting, RetiredPositions, NameOf);

TYPED_TEST(RetiredFieldNesting, NewReadsOld) { check_pairs<TypeParam, RetiredField>(direction::new_reads_old); }
TYPED_TEST(RetiredFieldNesting, OldReadsNew) { check_pairs<TypeParam, RetiredField>(direction::old_reads_new); }
TYPED_TEST(RetiredFieldNesting, OldReaderStaysInSyncInStream) {
  check_stream_pairs<TypeParam, RetiredField>(direction::old_reads_new);
}

}  // namespace evo
