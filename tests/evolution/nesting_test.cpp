// Schema evolution in every nesting position: a struct that gained (or lost) fields between
// releases is read correctly at top level, as a struct member, inside every container, and two
// levels deep, in both directions, for every pair of releases V1, V2, V3 (V1->V2, V1->V3,
// V2->V3 and back). Each check also reads into an existing object (reset-on-reuse).

#include "evolution_support.hpp"

namespace evo {

template <class Pos>
class Nesting : public ::testing::Test {};
TYPED_TEST_SUITE(Nesting, AllPositions, NameOf);

TYPED_TEST(Nesting, NewReadsOld) { check_pairs<TypeParam, Aggregate>(direction::new_reads_old); }

TYPED_TEST(Nesting, OldReadsNew) { check_pairs<TypeParam, Aggregate>(direction::old_reads_new); }

// A versioned member serialize hook: the envelope carries a class version.
TYPED_TEST(Nesting, NewReadsOldWithVersionedHook) {
  check_pairs<TypeParam, MemberSerializeVersionedHook>(direction::new_reads_old);
}

TYPED_TEST(Nesting, OldReadsNewWithVersionedHook) {
  check_pairs<TypeParam, MemberSerializeVersionedHook>(direction::old_reads_new);
}

// The helpers themselves: the expected value of a new reader really differs from what was
// written (the appended fields are at their defaults), so the checks above are not vacuous.
TEST(NestingFixtures, ExpectedValuesFollowTheFormatRules) {
  const Data1 old = sample<Data1>(7);
  const Data3 seen = project<Data3>(old);
  EXPECT_EQ(seen.id, old.id);
  EXPECT_EQ(seen.name, old.name);
  EXPECT_EQ(seen.list, (std::vector<std::int32_t>{7, 8}));
  EXPECT_EQ(seen.color, Color::green);
  EXPECT_EQ(seen.ratio, 0.25);
  EXPECT_EQ(seen.note, "n");
  EXPECT_EQ(seen.where, (Point{3, 4}));
  EXPECT_EQ(seen.counts, (std::map<std::string, std::int32_t>{{"d", 1}}));
  EXPECT_EQ(seen.big, std::uint64_t{1} << 40);

  const Data3 full = sample<Data3>(8);
  EXPECT_NE(full.list, Data3{}.list);
  EXPECT_NE(full.where, Data3{}.where);
  EXPECT_NE(full.note, Data3{}.note);
  const Data1 cut = project<Data1>(full);
  EXPECT_EQ(cut.id, full.id);
  EXPECT_EQ(cut.name, full.name);

  const Retired1 retired = project<Retired1>(sample<Retired3>(9));
  EXPECT_EQ(retired.legacy, std::vector<std::int32_t>{});  // T{}: what deprecated<T> writes
  EXPECT_EQ(retired.spot, Point{});
}

}  // namespace evo
