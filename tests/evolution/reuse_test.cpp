// The reset-on-reuse rule: reading older data into an existing object (from_bytes(bytes, out),
// reader r(out), reused container elements) gives exactly what from_bytes<T>(bytes) gives: the
// fields the data lacks come back to their defaults instead of keeping stale values.

#include <array>
#include <initializer_list>
#include <string>

#include "evolution_support.hpp"

namespace evo {

// ---- top level, every hook style: from_bytes(bytes, out) and reader r(out) ----------------------

template <class Family>
class ReuseTopLevel : public ::testing::Test {};
TYPED_TEST_SUITE(ReuseTopLevel, AllFamilies, NameOf);

template <class From, class To>
void check_reuse_equals_fresh_read() {
  const From written = sample<From>(1);
  const auto bytes = bifrons::to_bytes(written);
  const To fresh = bifrons::from_bytes<To>(bytes);
  EXPECT_EQ(fresh, project<To>(written));

  To existing = sample<To>(2);
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, fresh);

  To streamed = sample<To>(3);
  bifrons::reader r(bytes);
  r(streamed);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(streamed, fresh);

  // Reading the same bytes twice into one object changes nothing the second time.
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, fresh);
}

TYPED_TEST(ReuseTopLevel, OldDataIntoExistingNewObjectResetsAppendedFields) {
  for_each_pair<TypeParam>(direction::new_reads_old,
                           []<class From, class To>() { check_reuse_equals_fresh_read<From, To>(); });
}

TYPED_TEST(ReuseTopLevel, NewDataIntoExistingOldObject) {
  for_each_pair<TypeParam>(direction::old_reads_new,
                           []<class From, class To>() { check_reuse_equals_fresh_read<From, To>(); });
}

// ---- the appended fields, spelled out ------------------------------------------------------------

TEST(ReuseExplicit, AppendedFieldsComeBackToTheirDefaults) {
  Data3 existing{77, "stale", {9, 9, 9}, Color::red, 9.5, std::nullopt, Point{-1, -1}, {{"x", 5}}, 12};
  bifrons::from_bytes(bifrons::to_bytes(Data1{5, "fresh"}), existing);
  EXPECT_EQ(existing.id, 5);
  EXPECT_EQ(existing.name, "fresh");
  EXPECT_EQ(existing.list, (std::vector<std::int32_t>{7, 8}));
  EXPECT_EQ(existing.color, Color::green);
  EXPECT_EQ(existing.ratio, 0.25);
  EXPECT_EQ(existing.note, std::optional<std::string>("n"));
  EXPECT_EQ(existing.where.x, 3);
  EXPECT_EQ(existing.where.y, 4);
  EXPECT_EQ(existing.counts, (std::map<std::string, std::int32_t>{{"d", 1}}));
  EXPECT_EQ(existing.big, std::uint64_t{1} << 40);
}

TEST(ReuseExplicit, AppendedArrayFieldsComeBackToTheirDefaults) {
  // An aggregate's appended fields are reset member by member: C arrays (nested too) element by
  // element.
  struct Old {
    std::int32_t id = 0;
  };
  struct New {
    std::int32_t id = 0;
    std::int32_t grid[2][2] = {{1, 2}, {3, 4}};
    std::array<std::string, 2> tags{"a", "b"};
    std::string name = "default";
  };
  New existing{9, {{-1, -1}, {-1, -1}}, {"stale", "stale"}, "stale"};
  bifrons::from_bytes(bifrons::to_bytes(Old{5}), existing);
  EXPECT_EQ(existing.id, 5);
  EXPECT_EQ(existing.grid[0][0], 1);
  EXPECT_EQ(existing.grid[0][1], 2);
  EXPECT_EQ(existing.grid[1][0], 3);
  EXPECT_EQ(existing.grid[1][1], 4);
  EXPECT_EQ(existing.tags, (std::array<std::string, 2>{"a", "b"}));
  EXPECT_EQ(existing.name, "default");
}

TEST(ReuseExplicit, OuterLacksFieldsWhileInnerIsComplete) {
  struct OuterOld {
    std::int32_t x = 0;
    Data3 inner;
  };
  struct OuterNew {
    std::int32_t x = 0;
    Data3 inner;
    std::vector<Data3> extra{Data3{}};
    std::string tail = "t";
  };
  const Data3 inner = sample<Data3>(4);
  const auto bytes = bifrons::to_bytes(OuterOld{-9, inner});
  OuterNew existing{1, sample<Data3>(5), {sample<Data3>(6), sample<Data3>(7)}, "stale"};
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing.x, -9);
  EXPECT_EQ(existing.inner, inner);  // re-read after the reset, not left at its default
  EXPECT_EQ(existing.extra, std::vector<Data3>{Data3{}});
  EXPECT_EQ(existing.tail, "t");
}

TEST(ReuseExplicit, BaseLacksFieldsWhileDerivedIsComplete) {
  using Old = Derived<Data1, OwnB>;
  using New = Derived<Data3, OwnB>;
  const Old written = sample<Old>(1);
  New existing = sample<New>(2);
  bifrons::from_bytes(bifrons::to_bytes(written), existing);
  EXPECT_EQ(existing.id, written.id);
  EXPECT_EQ(existing.name, written.name);
  EXPECT_EQ(existing.list, (std::vector<std::int32_t>{7, 8}));  // base's appended fields reset
  EXPECT_EQ(existing.where, Point{});
  EXPECT_EQ(existing.own.level, written.own.level);  // derived's own fields read
  EXPECT_EQ(existing.own.tag, written.own.tag);
}

TEST(ReuseExplicit, DerivedLacksFieldsWhileBaseIsComplete) {
  using Old = Derived<Data3, OwnA>;
  using New = Derived<Data3, OwnB>;
  const Old written = sample<Old>(1);
  New existing = sample<New>(2);
  bifrons::from_bytes(bifrons::to_bytes(written), existing);
  EXPECT_EQ(static_cast<const Data3&>(existing), static_cast<const Data3&>(written));
  EXPECT_EQ(existing.own.level, written.own.level);
  EXPECT_EQ(existing.own.tag, "own");
}

// ---- reused sequence elements, with fewer, as many and more existing elements --------------------

/// A sequence of n elements whose every field differs from the data and from the defaults.
template <class Seq>
Seq stale(std::size_t n, int seed) {
  std::vector<typename Seq::value_type> elements;
  for (std::size_t i = 0; i < n; ++i) elements.push_back(sample<typename Seq::value_type>(seed + static_cast<int>(i)));
  return Seq(elements.begin(), elements.end());
}

template <class Seq>
class ReuseSequence : public ::testing::Test {};
using ReusedSequences = ::testing::Types<std::vector<Data3>, std::deque<Data3>, std::list<Data3>,
                                         std::forward_list<Data3>, std::vector<MemberSaveLoadVersioned<Data3>>>;
struct SequenceName {
  template <class Seq>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<Seq, std::deque<Data3>>)
      return "Deque";
    else if constexpr (std::is_same_v<Seq, std::list<Data3>>)
      return "List";
    else if constexpr (std::is_same_v<Seq, std::forward_list<Data3>>)
      return "ForwardList";
    else if constexpr (std::is_same_v<Seq, std::vector<Data3>>)
      return "Vector";
    else
      return "VectorOfVersionedSaveLoad";
  }
};
TYPED_TEST_SUITE(ReuseSequence, ReusedSequences, SequenceName);

TYPED_TEST(ReuseSequence, EveryReusedElementIsReset) {
  using V = typename TypeParam::value_type;
  using Old = std::conditional_t<std::is_same_v<V, Data3>, Data1, MemberSaveLoadVersioned<Data1>>;
  const std::vector<Old> old{sample<Old>(1), sample<Old>(2), sample<Old>(3)};
  const auto bytes = bifrons::to_bytes(old);
  const TypeParam expected{project<V>(old[0]), project<V>(old[1]), project<V>(old[2])};
  for (const std::size_t existing_size : std::initializer_list<std::size_t>{0, 1, 2, 3, 5}) {
    SCOPED_TRACE(::testing::Message() << existing_size << " existing elements");
    TypeParam existing = stale<TypeParam>(existing_size, 50);
    bifrons::from_bytes(bytes, existing);
    EXPECT_EQ(existing, expected);

    TypeParam streamed = stale<TypeParam>(existing_size, 60);
    bifrons::reader r(bytes);
    r(streamed);
    EXPECT_EQ(streamed, expected);
  }
}

TEST(ReuseExplicit, NestedVectorsReuseEveryLevel) {
  std::vector<Outer<Data3>> existing{Outer<Data3>{{sample<Data3>(1), sample<Data3>(2), sample<Data3>(3)}, 1},
                                     Outer<Data3>{{sample<Data3>(4)}, 2}, Outer<Data3>{{}, 3}};
  const std::vector<Outer<Data2>> data{Outer<Data2>{{sample<Data2>(5)}, 10},
                                       Outer<Data2>{{sample<Data2>(6), sample<Data2>(7)}, 20}};
  bifrons::from_bytes(bifrons::to_bytes(data), existing);
  const std::vector<Outer<Data3>> expected{
      Outer<Data3>{{project<Data3>(sample<Data2>(5))}, 10},
      Outer<Data3>{{project<Data3>(sample<Data2>(6)), project<Data3>(sample<Data2>(7))}, 20}};
  EXPECT_EQ(existing, expected);
}

// ---- wrappers whose existing content is reused or replaced ---------------------------------------

TEST(ReuseExplicit, VariantHoldingAnotherAlternativeSwitchesToDefaults) {
  using OldV = std::variant<std::int32_t, Data1, std::string>;
  using NewV = std::variant<std::int32_t, Data3, std::string>;
  const auto bytes = bifrons::to_bytes(OldV(std::in_place_index<1>, Data1{4, "four"}));
  NewV existing(std::in_place_index<2>, "other alternative");
  bifrons::from_bytes(bytes, existing);
  ASSERT_EQ(existing.index(), 1u);
  EXPECT_EQ(std::get<1>(existing), project<Data3>(Data1{4, "four"}));

  NewV same_alternative(std::in_place_index<1>, sample<Data3>(3));
  bifrons::from_bytes(bytes, same_alternative);
  EXPECT_EQ(std::get<1>(same_alternative), project<Data3>(Data1{4, "four"}));
}

TEST(ReuseExplicit, OptionalAndUniquePtrHoldingValuesAreReset) {
  const auto bytes = bifrons::to_bytes(std::optional<Data1>(Data1{4, "four"}));
  std::optional<Data3> existing = sample<Data3>(3);
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, std::optional<Data3>(project<Data3>(Data1{4, "four"})));

  // optional and unique_ptr<T> share the 0/1 tag byte for non-polymorphic T.
  auto pointer = std::make_unique<Data3>(sample<Data3>(4));
  const Data3* address = pointer.get();
  bifrons::from_bytes(bifrons::to_bytes(std::make_unique<Data1>(Data1{5, "five"})), pointer);
  ASSERT_TRUE(pointer);
  EXPECT_EQ(pointer.get(), address);  // the pointee was reused...
  EXPECT_EQ(*pointer, project<Data3>(Data1{5, "five"}));  // ...and reset
}

TEST(ReuseExplicit, MapValuesAreReplacedNotMerged) {
  const std::map<std::int32_t, Data1> data{{1, Data1{10, "ten"}}};
  std::map<std::int32_t, Data3> existing{{1, sample<Data3>(1)}, {2, sample<Data3>(2)}};
  bifrons::from_bytes(bifrons::to_bytes(data), existing);
  EXPECT_EQ(existing, (std::map<std::int32_t, Data3>{{1, project<Data3>(Data1{10, "ten"})}}));
}

TEST(ReuseExplicit, ReaderReusesEachValueOfAStream) {
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  w(Data1{1, "a"}, Data2{2, "b", {3}, Color::red}, Data1{4, "c"});
  Data3 a = sample<Data3>(1), b = sample<Data3>(2), c = sample<Data3>(3);
  bifrons::reader r(buffer);
  r(a, b, c);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(a, project<Data3>(Data1{1, "a"}));
  EXPECT_EQ(b, project<Data3>(Data2{2, "b", {3}, Color::red}));
  EXPECT_EQ(c, project<Data3>(Data1{4, "c"}));
}

}  // namespace evo
