// Several values in one stream (bifrons::writer / bifrons::reader): a reader of another release
// stays in step with the writer, at every nesting position and for every hook style: the int
// before, the string between and the integer after the evolved values read back exactly.

#include "evolution_support.hpp"

namespace evo {

template <class Pos>
class StreamNesting : public ::testing::Test {};
TYPED_TEST_SUITE(StreamNesting, AllPositions, NameOf);

TYPED_TEST(StreamNesting, OldReaderOfNewDataStaysInSync) {
  check_stream_pairs<TypeParam, Aggregate>(direction::old_reads_new);
}

TYPED_TEST(StreamNesting, NewReaderOfOldDataStaysInSync) {
  check_stream_pairs<TypeParam, Aggregate>(direction::new_reads_old);
}

template <class Family>
class StreamHooks : public ::testing::Test {};
TYPED_TEST_SUITE(StreamHooks, AllFamilies, NameOf);

TYPED_TEST(StreamHooks, OldReaderOfNewDataStaysInSync) {
  check_stream_pairs<AtTopLevel, TypeParam>(direction::old_reads_new);
}

TYPED_TEST(StreamHooks, NewReaderOfOldDataStaysInSync) {
  check_stream_pairs<AtTopLevel, TypeParam>(direction::new_reads_old);
}

/// One stream holding a value of every release, then a marker: each release's reader reads
/// all of them as its own type.
template <class Family, class Reader>
void check_mixed_releases(const std::vector<std::byte>& buffer) {
  using Versions = typename Family::versions;
  constexpr std::size_t n = std::tuple_size_v<Versions>;
  bifrons::reader r(buffer);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using From = std::tuple_element_t<I, Versions>;
          Reader got = sample<Reader>(90);
          r(got);
          EXPECT_EQ(got, project<Reader>(sample<From>(static_cast<int>(I) + 1))) << "value " << I;
        }(),
        ...);
  }(std::make_index_sequence<n>{});
  std::string marker;
  r(marker);
  EXPECT_EQ(marker, "end");
  EXPECT_TRUE(r.done());
}

template <class Family>
std::vector<std::byte> write_every_release() {
  using Versions = typename Family::versions;
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (w(sample<std::tuple_element_t<I, Versions>>(static_cast<int>(I) + 1)), ...);
  }(std::make_index_sequence<std::tuple_size_v<Versions>>{});
  w(std::string("end"));
  return buffer;
}

TYPED_TEST(StreamHooks, EveryReleaseReadsAStreamMixingAllReleases) {
  const auto buffer = write_every_release<TypeParam>();
  using Versions = typename TypeParam::versions;
  [&]<std::size_t... J>(std::index_sequence<J...>) {
    (check_mixed_releases<TypeParam, std::tuple_element_t<J, Versions>>(buffer), ...);
  }(std::make_index_sequence<std::tuple_size_v<Versions>>{});
}

TYPED_TEST(StreamHooks, IostreamsCarryMixedReleases) {
  using Versions = typename TypeParam::versions;
  const auto bytes = write_every_release<TypeParam>();
  std::ostringstream out;
  bifrons::writer w(out);
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (w(sample<std::tuple_element_t<I, Versions>>(static_cast<int>(I) + 1)), ...);
  }(std::make_index_sequence<std::tuple_size_v<Versions>>{});
  w(std::string("end"));
  ASSERT_TRUE(w.ok());
  const std::string text = out.str();
  ASSERT_EQ(text.size(), bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), reinterpret_cast<const std::byte*>(text.data())));

  // Read it back through an istream with the oldest and the newest release.
  using Oldest = std::tuple_element_t<0, Versions>;
  using Newest = std::tuple_element_t<std::tuple_size_v<Versions> - 1, Versions>;
  std::istringstream in(text);
  bifrons::reader r(in);
  Oldest first{};
  Newest second{};
  r(first, second);
  EXPECT_EQ(first, sample<Oldest>(1));
  EXPECT_EQ(second, project<Newest>(sample<std::tuple_element_t<1, Versions>>(2)));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.done());
}

TEST(StreamErrors, OldReaderStopsAtACorruptEnvelopeAndReportsWhereTheInputEnded) {
  // A valid Data3, then an envelope whose length runs past the end of the input.
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  w(sample<Data3>(1));
  const std::size_t first_size = buffer.size();
  buffer.push_back(std::byte{0x7E});  // body of 63 bytes announced
  buffer.push_back(std::byte{0x00});

  bifrons::reader r(buffer);
  Data1 a{}, b{};
  r(a);
  EXPECT_EQ(a, project<Data1>(sample<Data3>(1)));
  EXPECT_EQ(r.offset(), first_size);
  EXPECT_THROW(r(b), bifrons::error);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.code(), bifrons::errc::unexpected_end);
  EXPECT_EQ(r.offset(), first_size + 2);
  EXPECT_EQ(r.bytes_missing(), 62u);  // 63 announced, 1 there
}

}  // namespace evo
