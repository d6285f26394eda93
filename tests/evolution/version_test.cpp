// Optional class versions (rule 4): `static constexpr std::uint32_t bifrons_version = N;` with
// serialize(Ar&, std::uint32_t) or save/load with a version argument. The version travels in
// the envelope header (bit 0 of the header set, then varint(version)); the save hook sees the
// class version, the load hook the version in the data (0 for data written before the type
// had a version); a reader without a version reads versioned data.

#include "evolution_support.hpp"

#include <limits>

namespace evo {

using bifrons::errc;

/// One int field, class version N, records the versions its hook sees.
template <std::uint32_t N>
struct VersionN {
  static constexpr std::uint32_t bifrons_version = N;
  std::int32_t a = 0;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    seen_versions<VersionN>::template record<Ar>(version);
    ar(a);
  }
};

struct OneField {
  std::int32_t a = 0;
};

// ---- header bytes ------------------------------------------------------------------------------

template <class V>
class VersionHeader : public ::testing::Test {};
using HeaderVersions = ::testing::Types<VersionN<0>, VersionN<1>, VersionN<7>, VersionN<127>, VersionN<128>,
                                        VersionN<300>, VersionN<std::numeric_limits<std::uint32_t>::max()>>;
struct VersionName {
  template <class V>
  static std::string GetName(int) {
    return "Version" + std::to_string(V::bifrons_version);
  }
};
TYPED_TEST_SUITE(VersionHeader, HeaderVersions, VersionName);

TYPED_TEST(VersionHeader, VersionTravelsInTheHeaderAndReachesBothHooks) {
  constexpr std::uint32_t n = TypeParam::bifrons_version;
  seen_versions<TypeParam>::saved = seen_versions<TypeParam>::loaded = 0xdeadbeef;
  const auto bytes = bifrons::to_bytes(TypeParam{5});
  EXPECT_EQ(seen_versions<TypeParam>::saved, n);

  // body = varint(n), then zigzag(5) = 0x0A; header = (body length << 1) | 1.
  std::vector<std::byte> body = leb128(n);
  body.push_back(std::byte{0x0A});
  std::vector<std::byte> expected = leb128((std::uint64_t{body.size()} << 1) | 1);
  expected.insert(expected.end(), body.begin(), body.end());
  EXPECT_EQ(bytes, expected);

  EXPECT_EQ(bifrons::from_bytes<TypeParam>(bytes).a, 5);
  EXPECT_EQ(seen_versions<TypeParam>::loaded, n);

  // A reader without a version (and without a hook) reads the versioned data.
  EXPECT_EQ(bifrons::from_bytes<OneField>(bytes).a, 5);
}

TEST(VersionHeaderBytes, UnversionedTypeHasNoVersion) {
  EXPECT_EQ(bifrons::to_bytes(OneField{5}), bytes_of({0x02, 0x0A}));
  seen_versions<VersionN<7>>::loaded = 0xdeadbeef;
  EXPECT_EQ(bifrons::from_bytes<VersionN<7>>(bytes_of({0x02, 0x0A})).a, 5);
  EXPECT_EQ(seen_versions<VersionN<7>>::loaded, 0u);
}

TEST(VersionHeaderBytes, VersionWiderThan32BitsIsOutOfRange) {
  // has_version, version 2^32 = 80 80 80 80 10, then 0A: body 6, header (6 << 1) | 1 = 0x0D.
  const auto bytes = bytes_of({0x0D, 0x80, 0x80, 0x80, 0x80, 0x10, 0x0A});
  const auto versioned = bifrons::try_from_bytes<VersionN<1>>(bytes);
  EXPECT_EQ(versioned.code(), errc::value_out_of_range);
  EXPECT_EQ(versioned.offset(), 1u);
  const auto plain = bifrons::try_from_bytes<OneField>(bytes);
  EXPECT_EQ(plain.code(), errc::value_out_of_range);
  EXPECT_EQ(plain.offset(), 1u);
}

// ---- a version added later ---------------------------------------------------------------------

struct Plain {
  std::int32_t a = 1;
  std::string b = "b";
  EVO_FIELDS(a, b)
};

template <std::uint32_t N>
struct Counted {
  static constexpr std::uint32_t bifrons_version = N;
  std::int32_t a = 1;
  std::string b = "b";
  std::int32_t c = 3;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    seen_versions<Counted>::template record<Ar>(version);
    ar(a, b, c);
  }
  EVO_FIELDS(a, b, c)
};

struct Counted3 {
  static constexpr std::uint32_t bifrons_version = 3;
  std::int32_t a = 1;
  std::string b = "b";
  std::int32_t c = 3;
  std::string d = "d";
  template <class Ar>
  void save(Ar& ar, std::uint32_t version) const {
    seen_versions<Counted3>::template record<Ar>(version);
    ar(a, b, c, d);
  }
  template <class Ar>
  void load(Ar& ar, std::uint32_t version) {
    seen_versions<Counted3>::template record<Ar>(version);
    ar(a, b, c, d);
  }
  EVO_FIELDS(a, b, c, d)
};

TEST(VersionAddedLater, DataWrittenBeforeTheTypeHadAVersionReadsAsVersionZero) {
  const auto bytes = bifrons::to_bytes(Plain{-6, "old"});
  seen_versions<Counted<2>>::loaded = 0xdeadbeef;
  EXPECT_EQ(bifrons::from_bytes<Counted<2>>(bytes), (Counted<2>{-6, "old", 3}));
  EXPECT_EQ(seen_versions<Counted<2>>::loaded, 0u);

  Counted<2> existing{7, "stale", 70};
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, (Counted<2>{-6, "old", 3}));
  EXPECT_EQ(seen_versions<Counted<2>>::loaded, 0u);
}

TEST(VersionAddedLater, ReaderWithoutVersionReadsVersionedData) {
  const auto bytes = bifrons::to_bytes(Counted<2>{-6, "new", 33});
  EXPECT_EQ(static_cast<unsigned>(bytes[0]) & 1u, 1u);
  EXPECT_EQ(bytes[1], std::byte{2});
  EXPECT_EQ(bifrons::from_bytes<Plain>(bytes), (Plain{-6, "new"}));
  Plain existing{9, "stale"};
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, (Plain{-6, "new"}));
}

TEST(VersionAddedLater, VersionNumbersOfOlderAndNewerDataReachTheLoadHook) {
  seen_versions<Counted3>::loaded = 0xdeadbeef;
  const auto v3 = bifrons::from_bytes<Counted3>(bifrons::to_bytes(Counted<2>{4, "two", 44}));
  EXPECT_EQ(seen_versions<Counted3>::loaded, 2u);
  EXPECT_EQ(v3, (Counted3{4, "two", 44, "d"}));

  seen_versions<Counted<2>>::loaded = 0xdeadbeef;
  seen_versions<Counted3>::saved = 0xdeadbeef;
  const auto v2 = bifrons::from_bytes<Counted<2>>(bifrons::to_bytes(Counted3{4, "three", 44, "dd"}));
  EXPECT_EQ(seen_versions<Counted3>::saved, 3u);
  EXPECT_EQ(seen_versions<Counted<2>>::loaded, 3u);
  EXPECT_EQ(v2, (Counted<2>{4, "three", 44}));

  // Through the triple: unversioned data read by version 3 sees version 0.
  seen_versions<Counted3>::loaded = 0xdeadbeef;
  EXPECT_EQ(bifrons::from_bytes<Counted3>(bifrons::to_bytes(Plain{8, "p"})), (Counted3{8, "p", 3, "d"}));
  EXPECT_EQ(seen_versions<Counted3>::loaded, 0u);
}

// ---- every versioned hook style, every pair of releases ------------------------------------------

template <class Family>
class VersionsReachHooks : public ::testing::Test {};
using VersionedFamilies = ::testing::Types<MemberSerializeVersionedHook, FreeSerializeVersionedHook,
                                           MemberSaveLoadVersionedHook, FreeSaveLoadVersionedHook>;
TYPED_TEST_SUITE(VersionsReachHooks, VersionedFamilies, NameOf);

template <class From, class To>
void check_versions_reach_hooks() {
  seen_versions<From>::saved = 0xdeadbeef;
  seen_versions<To>::loaded = 0xdeadbeef;
  const From written = sample<From>(1);
  const auto bytes = bifrons::to_bytes(written);
  EXPECT_EQ(seen_versions<From>::saved, From::number);

  std::size_t pos = 0;
  const std::uint64_t header = read_leb128(bytes, pos);
  EXPECT_EQ(header & 1, 1u);
  EXPECT_EQ(header >> 1, bytes.size() - pos);
  EXPECT_EQ(read_leb128(bytes, pos), From::number);

  EXPECT_EQ(bifrons::from_bytes<To>(bytes), project<To>(written));
  EXPECT_EQ(seen_versions<To>::loaded, From::number);

  To existing = sample<To>(2);
  seen_versions<To>::loaded = 0xdeadbeef;
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, project<To>(written));
  EXPECT_EQ(seen_versions<To>::loaded, From::number);
}

TYPED_TEST(VersionsReachHooks, NewReadsOld) {
  for_each_pair<TypeParam>(direction::new_reads_old,
                           []<class From, class To>() { check_versions_reach_hooks<From, To>(); });
}

TYPED_TEST(VersionsReachHooks, OldReadsNew) {
  for_each_pair<TypeParam>(direction::old_reads_new,
                           []<class From, class To>() { check_versions_reach_hooks<From, To>(); });
}

// A version added to a hook style later: unversioned releases read as version 0 and back.
template <class D>
using Unversioned = MemberSerialize<D>;

TYPED_TEST(VersionsReachHooks, VersionAddedToEveryReleaseLater) {
  using V1 = std::tuple_element_t<0, typename TypeParam::versions>;
  using V3 = std::tuple_element_t<2, typename TypeParam::versions>;
  const auto old_bytes = bifrons::to_bytes(sample<Unversioned<Data1>>(5));
  seen_versions<V3>::loaded = 0xdeadbeef;
  EXPECT_EQ(bifrons::from_bytes<V3>(old_bytes), project<V3>(sample<Unversioned<Data1>>(5)));
  EXPECT_EQ(seen_versions<V3>::loaded, 0u);
  seen_versions<V1>::loaded = 0xdeadbeef;
  EXPECT_EQ(bifrons::from_bytes<V1>(old_bytes), project<V1>(sample<Unversioned<Data1>>(5)));
  EXPECT_EQ(seen_versions<V1>::loaded, 0u);

  // ... and the unversioned program reads what the versioned one writes.
  const auto new_bytes = bifrons::to_bytes(sample<V3>(6));
  EXPECT_EQ(bifrons::from_bytes<Unversioned<Data1>>(new_bytes), project<Unversioned<Data1>>(sample<V3>(6)));
  EXPECT_EQ(bifrons::from_bytes<Unversioned<Data2>>(new_bytes), project<Unversioned<Data2>>(sample<V3>(6)));
}

// ---- a versioned base class evolving under an unversioned derived class -----------------------

struct VersionedBase
    : family<Derived<MemberSerializeVersioned<Data1>, OwnA>, Derived<MemberSerializeVersioned<Data2>, OwnA>,
             Derived<MemberSerializeVersioned<Data3>, OwnB>> {
  static constexpr const char* name = "VersionedBase";
};

TEST(VersionedBase, BaseVersionReachesTheBaseHook) {
  for (auto d : {direction::new_reads_old, direction::old_reads_new}) {
    for_each_pair<VersionedBase>(d, []<class From, class To>() {
      using FromBase = typename std::tuple_element_t<0, decltype(std::declval<From&>().tie())>;
      using ToBase = std::remove_reference_t<std::tuple_element_t<0, decltype(std::declval<To&>().tie())>>;
      seen_versions<ToBase>::loaded = 0xdeadbeef;
      const From written = sample<From>(1);
      const auto bytes = bifrons::to_bytes(written);
      EXPECT_EQ(bifrons::from_bytes<To>(bytes), project<To>(written));
      EXPECT_EQ(seen_versions<ToBase>::loaded, std::remove_reference_t<FromBase>::number);
      To existing = sample<To>(2);
      bifrons::from_bytes(bytes, existing);
      EXPECT_EQ(existing, project<To>(written));
    });
  }
}

// ---- the version drives a migration --------------------------------------------------------------

// Release 1 stored whole degrees; release 2 (class version 2) stores tenths of a degree in the
// same place and converts old data in load().
struct Temperature1 {
  std::int32_t degrees = 0;
  std::string unit = "C";
};
struct Temperature2 {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t tenths = 0;
  std::string unit = "C";
  template <class Ar>
  void save(Ar& ar, std::uint32_t) const {
    ar(tenths, unit);
  }
  template <class Ar>
  void load(Ar& ar, std::uint32_t version) {
    if (version < 2) {
      std::int32_t degrees = 0;
      ar(degrees, unit);
      tenths = degrees * 10;
    } else {
      ar(tenths, unit);
    }
  }
};

TEST(VersionMigration, LoadConvertsOlderData) {
  const auto old = bifrons::from_bytes<Temperature2>(bifrons::to_bytes(Temperature1{21, "K"}));
  EXPECT_EQ(old.tenths, 210);
  EXPECT_EQ(old.unit, "K");
  const auto current = bifrons::from_bytes<Temperature2>(bifrons::to_bytes(Temperature2{215, "F"}));
  EXPECT_EQ(current.tenths, 215);
  EXPECT_EQ(current.unit, "F");
}

// ---- a hook that skips fields by version, reading into existing objects -------------------------

// The envelope of version-1 data does not end early (the hook just does not ask for b), so only
// the version tells the library that b is missing: it must still come back to its default.
struct SkipsByVersion {
  static constexpr std::uint32_t bifrons_version = 2;
  std::int32_t a = 0;
  std::int32_t b = 100;
  template <class Ar>
  void serialize(Ar& ar, std::uint32_t version) {
    ar(a);
    if (version >= 2) ar(b);
  }
  EVO_FIELDS(a, b)
};

TEST(VersionConditionalHook, FieldsOlderVersionsLackAreResetOnReuse) {
  const auto bytes = bifrons::to_bytes(VersionN<1>{5});
  EXPECT_EQ(bifrons::from_bytes<SkipsByVersion>(bytes), (SkipsByVersion{5, 100}));

  SkipsByVersion existing{9, 9};
  bifrons::from_bytes(bytes, existing);
  EXPECT_EQ(existing, (SkipsByVersion{5, 100}));

  std::vector<SkipsByVersion> reused{{9, 9}, {8, 8}};
  bifrons::from_bytes(bifrons::to_bytes(std::vector<VersionN<1>>{{5}, {6}}), reused);
  EXPECT_EQ(reused, (std::vector<SkipsByVersion>{{5, 100}, {6, 100}}));

  SkipsByVersion streamed{9, 9};
  bifrons::reader r(bytes);
  r(streamed);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(streamed, (SkipsByVersion{5, 100}));

  // Current data into an existing object: both fields read.
  SkipsByVersion current{9, 9};
  bifrons::from_bytes(bifrons::to_bytes(SkipsByVersion{1, 2}), current);
  EXPECT_EQ(current, (SkipsByVersion{1, 2}));
}

}  // namespace evo
