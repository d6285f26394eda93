// Streaming (bifrons/io.hpp): bifrons::writer and bifrons::reader over byte containers and
// iostreams.
#include <bifrons/io.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "types/test_support.hpp"

namespace bifrons_test {
namespace {

using bifrons::errc;

struct Message {
  std::uint32_t id = 0;
  std::string text;
  std::vector<int> numbers;
  friend bool operator==(const Message&, const Message&) = default;
};

const Message m1{1, "first", {1, 2, 3}};
const Message m2{2, std::string(5000, 'x'), {}};

/// What writer w(m1, 42, "s", m2) must produce.
bytes expected_stream() {
  return cat({bifrons::to_bytes(m1), bifrons::to_bytes(42), bifrons::to_bytes(std::string("s")),
              bifrons::to_bytes(m2)});
}

/// Reads m1, 42, "s", m2 back and checks them, the offsets and done().
template <class Source>
void read_expected(Source& source) {
  bifrons::reader r(source);
  Message a, b;
  int n = 0;
  std::string s;
  EXPECT_FALSE(r.done());
  r(a);
  EXPECT_EQ(r.offset(), bifrons::serialized_size(m1));
  r(n, s)(b);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.code(), errc::ok);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.remaining(), 0u);
  EXPECT_EQ(r.offset(), expected_stream().size());
  EXPECT_EQ(a, m1);
  EXPECT_EQ(n, 42);
  EXPECT_EQ(s, "s");
  EXPECT_EQ(b, m2);
}

// ---- writer -------------------------------------------------------------------------------------------

template <class C>
class WriterInto : public ::testing::Test {};
using Containers = ::testing::Types<std::vector<std::byte>, std::vector<char>, std::vector<unsigned char>, std::string>;
TYPED_TEST_SUITE(WriterInto, Containers);

TYPED_TEST(WriterInto, ConcatenatesTheValuesAndAppends) {
  using E = typename TypeParam::value_type;
  TypeParam out{E(0x7f)};
  bifrons::writer w(out);
  w(m1, 42)(std::string("s"));
  w(m2);
  EXPECT_TRUE(w.ok());
  ASSERT_EQ(out.size(), 1 + expected_stream().size());
  EXPECT_EQ(out[0], E(0x7f));
  EXPECT_EQ(hex(std::span(out).subspan(1)), hex(expected_stream()));
}

TYPED_TEST(WriterInto, ReaderReadsItBack) {
  TypeParam out;
  bifrons::writer{out}(m1, 42, std::string("s"), m2);
  read_expected(out);
}

TEST(Writer, ToAnOstream) {
  std::ostringstream os;
  bifrons::writer w(os);
  w(m1, 42);
  w(std::string("s"), m2);
  EXPECT_TRUE(w.ok());
  const std::string written = os.str();
  EXPECT_EQ(hex(written), hex(expected_stream()));
  std::istringstream is(written);
  read_expected(is);
}

TEST(Writer, FailedStreamIsAStreamError) {
  std::ostringstream os;
  os.setstate(std::ios::badbit);
  bifrons::writer w(os);
  try {
    w(m1);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::stream_error);
  }
  EXPECT_FALSE(w.ok());
}

// ---- reader -------------------------------------------------------------------------------------------

TEST(Reader, OverBytesAndStrings) {
  const bytes b = expected_stream();
  read_expected(b);
  const std::string s(reinterpret_cast<const char*>(b.data()), b.size());
  read_expected(s);
  const std::span<const std::byte> sp(b);
  read_expected(sp);
}

TEST(Reader, OverAnIstreamLargerThanItsChunks) {
  bytes b;
  bifrons::writer w(b);
  const std::vector<std::string> values(50, std::string(1000, 'q'));  // ~50 KB, several 4 KiB chunks
  for (const auto& v : values) w(v);
  std::istringstream is(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  bifrons::reader r(is);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::string v;
    r(v);
    ASSERT_EQ(v, values[i]) << i;
  }
  EXPECT_TRUE(r.done());
}

TEST(Reader, EmptyInputIsDoneAtOnce) {
  const bytes empty;
  bifrons::reader r(empty);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.offset(), 0u);
  int x = 0;
  EXPECT_THROW(r(x), bifrons::error);
  EXPECT_EQ(r.code(), errc::unexpected_end);
}

TEST(Reader, ErrorsThrowAndStick) {
  const bytes b = cat({bifrons::to_bytes(7), B({0x03, 0x61})});  // int, then a truncated string
  bifrons::reader r(b);
  int x = 0;
  std::string s = "unchanged";
  r(x);
  EXPECT_EQ(x, 7);
  EXPECT_EQ(r.offset(), 1u);
  try {
    r(s);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.code(), errc::count_exceeds_input);
    EXPECT_EQ(e.offset(), 1u);
  }
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.done());
  EXPECT_EQ(r.code(), errc::count_exceeds_input);
  EXPECT_EQ(r.offset(), 1u);  // the failure's offset, not the position
  // Every later read fails too, with the first error.
  int y = 5;
  EXPECT_THROW(r(y), bifrons::error);
  EXPECT_EQ(y, 5);
  EXPECT_EQ(r.code(), errc::count_exceeds_input);
}

TEST(Reader, BadIstreamIsAStreamError) {
  std::istringstream is("\x02");
  is.setstate(std::ios::badbit);
  bifrons::reader r(is);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.code(), errc::stream_error);
  int x = 0;
  EXPECT_THROW(r(x), bifrons::error);
}

TEST(Reader, ReadsIntoExistingObjects) {
  bytes b;
  bifrons::writer{b}(std::vector<int>{1, 2}, Message{9, "", {}});
  bifrons::reader r(b);
  std::vector<int> v(100, 3);
  const int* data = v.data();
  Message m{1, "stale", {4, 5, 6}};
  r(v, m);
  EXPECT_EQ(v, (std::vector<int>{1, 2}));
  EXPECT_EQ(v.data(), data);
  EXPECT_EQ(m, (Message{9, "", {}}));
}

TEST(Reader, ReadOptionsApply) {
  bytes b;
  bifrons::writer{b}(std::vector<int>(10, 1));
  bifrons::reader r(b, bifrons::read_options{.max_elements = 9});
  std::vector<int> v;
  EXPECT_THROW(r(v), bifrons::error);
  EXPECT_EQ(r.code(), errc::element_limit_exceeded);
}

/// A newer writer's struct has an extra field; an older reader skips it and stays in step.
struct V1 {
  int a = 0;
};
struct V2 {
  int a = 0;
  std::map<std::string, int> extra;
};

TEST(Reader, StaysInStepAcrossVersions) {
  bytes b;
  bifrons::writer{b}(V2{1, {{"x", 1}}}, V2{2, {}}, std::string("end"));
  bifrons::reader r(b);
  V1 first, second;
  std::string tail;
  r(first, second, tail);
  EXPECT_EQ(first.a, 1);
  EXPECT_EQ(second.a, 2);
  EXPECT_EQ(tail, "end");
  EXPECT_TRUE(r.done());
}

TEST(Reader, StrictReadingJudgesEachValueByItsOwnBytes) {
  bytes b;
  bifrons::writer{b}(V2{1, {{"x", 1}}}, V2{2, {}});  // 0a 02 01 01 78 02, then 04 04 00
  ASSERT_EQ(b.size(), 9u);
  // Leniently, V1 readers skip V2's extra field; strictly, V1{1}'s own bytes would be 02 02.
  bifrons::reader lenient(b);
  V1 first, second;
  lenient(first, second);
  EXPECT_TRUE(lenient.done());
  bifrons::reader strict(b, bifrons::read_options{.canonical_only = true});
  EXPECT_THROW(strict(first), bifrons::error);
  EXPECT_EQ(strict.code(), errc::non_canonical);
  EXPECT_EQ(strict.offset(), 0u);
  // V2 readers find both values canonical.
  bifrons::reader same_version(b, bifrons::read_options{.canonical_only = true});
  V2 a, c;
  same_version(a, c);
  EXPECT_TRUE(same_version.done());
  // A second value that is not canonical is reported at its own byte: offset 6 + 1.
  bytes two = b;
  two.resize(6);
  const bytes set_out_of_order = B({0x02, 0x04, 0x02});  // {2, 1}: canonical 02 02 04
  two.insert(two.end(), set_out_of_order.begin(), set_out_of_order.end());
  bifrons::reader second_value(two, bifrons::read_options{.canonical_only = true});
  std::set<int> numbers;
  second_value(a);
  EXPECT_THROW(second_value(numbers), bifrons::error);
  EXPECT_EQ(second_value.code(), errc::non_canonical);
  EXPECT_EQ(second_value.offset(), 7u);
}

TEST(Reader, ReadMakesNewObjects) {
  std::vector<std::byte> out;
  bifrons::writer w(out);
  w(Made(1, "a"), std::int32_t{5}, Made(2, "b"));
  bifrons::reader r(out);
  const Made first = r.read<Made>();
  const auto five = r.read<std::int32_t>();
  EXPECT_EQ(first, Made(1, "a"));
  EXPECT_EQ(five, 5);
  // Not an optional on the wire: the tag 06 is neither 0 nor 1.
  EXPECT_THROW((void)r.read<std::optional<Made>>(), bifrons::error);
  EXPECT_EQ(r.code(), bifrons::errc::invalid_value);
  EXPECT_EQ(r.offset(), 5u);
}

}  // namespace
}  // namespace bifrons_test
