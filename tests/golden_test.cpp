// Golden files of wire format v1 (tests/golden/*.bin, described in tests/golden/README.md).
//
// For every case of tests/golden_cases.hpp:
//   - the committed file holds exactly the bytes the format rules prescribe (Case::spec(),
//     spelled out by hand with an independent encoder), so the files are not merely whatever
//     some version of the writer once produced;
//   - reading the file gives exactly the expected value;
//   - today's writer produces exactly the committed bytes (any format change fails here);
//   - serialized_size matches the file.
// The files are compared byte by byte and opened in binary mode, so the test means the same on
// big-endian and 32-bit hosts. If BIFRONS_GOLDEN_OUT names a directory, the bytes this host's
// writer produces are written there as <name>.bin, for CI on emulated machines to diff.

#include <bifrons/log.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "golden_cases.hpp"

#ifndef BIFRONS_TEST_DATA_DIR
#error "BIFRONS_TEST_DATA_DIR must name the tests/ source directory (CMake defines it)"
#endif

namespace {

std::string golden_dir() { return std::string(BIFRONS_TEST_DATA_DIR) + "/golden"; }

std::vector<std::byte> load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::transform(chars.begin(), chars.end(), bytes.begin(),
                 [](char c) { return std::byte(static_cast<unsigned char>(c)); });
  return bytes;
}

/// "" if equal, else where and how the two byte strings first differ.
std::string difference(std::span<const std::byte> actual, std::span<const std::byte> expected) {
  const std::size_t n = std::min(actual.size(), expected.size());
  std::size_t i = 0;
  while (i < n && actual[i] == expected[i]) ++i;
  if (i == n && actual.size() == expected.size()) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "sizes %zu vs %zu (expected); first difference at byte %zu: 0x%02x vs 0x%02x",
                actual.size(), expected.size(), i, i < actual.size() ? static_cast<unsigned>(actual[i]) : 0u,
                i < expected.size() ? static_cast<unsigned>(expected[i]) : 0u);
  return buf;
}

template <class Case>
std::vector<std::byte> committed() {
  return load_file(golden_dir() + "/" + Case::name + ".bin");
}

template <class Case>
class Golden : public ::testing::Test {};

struct CaseName {
  template <class Case>
  static std::string GetName(int) {
    return Case::name;
  }
};

TYPED_TEST_SUITE(Golden, golden::case_list<::testing::Types>, CaseName);

TYPED_TEST(Golden, FileHoldsTheBytesTheFormatPrescribes) {
  const auto file = committed<TypeParam>();
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(difference(file, TypeParam::spec()), "");
}

TYPED_TEST(Golden, ReadingTheFileGivesTheValue) {
  using T = typename TypeParam::type;
  const auto file = committed<TypeParam>();
  const T expected = TypeParam::value();

  EXPECT_TRUE(golden::same(bifrons::from_bytes<T>(file), expected));

  auto result = bifrons::try_from_bytes<T>(file);
  ASSERT_TRUE(result.has_value()) << bifrons::describe(result.code()) << " at " << result.offset();
  EXPECT_TRUE(golden::same(*result, expected));

  // Into an object that already holds the value, and into one holding a different value.
  T reused = TypeParam::value();
  bifrons::from_bytes(file, reused);
  EXPECT_TRUE(golden::same(reused, expected));
  T other{};
  bifrons::from_bytes(file, other);
  EXPECT_TRUE(golden::same(other, expected));

  // A reader sees the same value (for a stream: each value in turn, then the end).
  bifrons::reader r(file);
  T streamed{};
  if constexpr (golden::is_streamed<TypeParam>)
    std::apply([&](auto&... v) { r(v...); }, streamed);
  else
    r(streamed);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.offset(), file.size());
  EXPECT_TRUE(golden::same(streamed, expected));
}

TYPED_TEST(Golden, WriterProducesTheCommittedBytes) {
  using T = typename TypeParam::type;
  const auto file = committed<TypeParam>();
  const T value = TypeParam::value();
  const std::vector<std::byte> produced = golden::encode<TypeParam>(value);

  if (const char* out_dir = std::getenv("BIFRONS_GOLDEN_OUT"); out_dir != nullptr && *out_dir != '\0') {
    const std::string path = std::string(out_dir) + "/" + TypeParam::name + ".bin";
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(produced.data()), static_cast<std::streamsize>(produced.size()));
    EXPECT_TRUE(out) << "cannot write " << path;
  }

  EXPECT_EQ(difference(produced, file), "");

  // The other output forms agree: appending to a std::string, a caller's exact buffer.
  std::string appended = "xy";
  bifrons::to_bytes(value, appended);
  ASSERT_EQ(appended.size(), 2 + file.size());
  EXPECT_EQ(difference(std::as_bytes(std::span(appended)).subspan(2), file), "");

  std::vector<std::byte> buffer(file.size() + 1, std::byte{0xEE});
  EXPECT_EQ(bifrons::to_bytes(value, std::span(buffer)), file.size());
  EXPECT_EQ(difference(std::span(buffer).first(file.size()), file), "");
  EXPECT_EQ(buffer.back(), std::byte{0xEE});

  std::vector<std::byte> small(file.size() - 1, std::byte{0xEE});
  const auto refused = bifrons::try_to_bytes(value, std::span(small));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.code(), bifrons::errc::buffer_too_small);
  EXPECT_EQ(refused.offset(), file.size());
  EXPECT_TRUE(std::all_of(small.begin(), small.end(), [](std::byte b) { return b == std::byte{0xEE}; }));

  if constexpr (golden::is_streamed<TypeParam>) {
    // A stream of values is their concatenation: the same bytes as the tuple, and as a
    // writer over an std::ostream.
    EXPECT_EQ(difference(bifrons::to_bytes(value), file), "");
    std::ostringstream os;
    bifrons::writer w(os);
    std::apply([&](const auto&... v) { w(v...); }, value);
    EXPECT_TRUE(w.ok());
    const std::string text = os.str();
    EXPECT_EQ(difference(std::as_bytes(std::span(text)), file), "");
  }
}

TYPED_TEST(Golden, SerializedSizeMatchesTheFile) {
  const auto file = committed<TypeParam>();
  const auto value = TypeParam::value();
  EXPECT_EQ(bifrons::serialized_size(value), file.size());
  if constexpr (golden::is_streamed<TypeParam>) {
    const std::size_t sum =
        std::apply([](const auto&... v) { return (std::size_t{0} + ... + bifrons::serialized_size(v)); }, value);
    EXPECT_EQ(sum, file.size());
  }
}

template <class... Cases>
struct case_files {
  static std::set<std::string> get() { return {std::string(Cases::name) + ".bin" ...}; }
};

TEST(GoldenFiles, DirectoryHoldsExactlyTheCases) {
  std::set<std::string> on_disk;
  for (const auto& entry : std::filesystem::directory_iterator(golden_dir()))
    if (entry.path().extension() == ".bin") on_disk.insert(entry.path().filename().string());
  EXPECT_EQ(on_disk, golden::case_list<case_files>::get());
}

TEST(GoldenFiles, StructHeadersAtTheVarintBoundaries) {
  // Independent of the spec encoder: the first bytes of the two envelope-size edge cases.
  const auto b64 = committed<golden::body_64>();
  ASSERT_GE(b64.size(), 2u);
  EXPECT_EQ(b64[0], std::byte{0x80});  // (64 << 1) = 128: two varint bytes
  EXPECT_EQ(b64[1], std::byte{0x01});
  EXPECT_EQ(b64.size(), 2u + 64u);
  const auto b8k = committed<golden::body_8192>();
  ASSERT_GE(b8k.size(), 3u);
  EXPECT_EQ(b8k[0], std::byte{0x80});  // (8192 << 1) = 16384: three varint bytes
  EXPECT_EQ(b8k[1], std::byte{0x80});
  EXPECT_EQ(b8k[2], std::byte{0x01});
  EXPECT_EQ(b8k.size(), 3u + 8192u);
}

// ---- golden logs (docs/format.md section 36) -----------------------------------------------------
// tests/golden/log/: three messages of sequence<i32> ({1, -2}, {}, {300}) under the sync marker
// a3 f0 b1 5e, spelled out by hand; torn_tail.log adds the first 10 bytes of a fourth record,
// damaged_middle.log flips the second record's payload byte.

struct golden_log_read {
  std::vector<std::vector<std::int32_t>> messages;
  bifrons::log_status status;
  std::uint64_t skipped = 0;
};

golden_log_read read_golden_log(const std::string& name, bool skip_damaged = false) {
  std::ifstream in(golden_dir() + "/log/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  bifrons::log_read_options options;
  options.skip_damaged = skip_damaged;
  bifrons::log_reader<std::vector<std::int32_t>> reader(in, options);
  golden_log_read out;
  for (std::vector<std::int32_t> m; reader.next(m);) out.messages.push_back(m);
  out.status = reader.status();
  out.skipped = reader.skipped_bytes();
  return out;
}

const std::vector<std::vector<std::int32_t>> golden_log_messages{{1, -2}, {}, {300}};

TEST(GoldenLogs, Intact) {
  const auto r = read_golden_log("intact.log");
  EXPECT_EQ(r.messages, golden_log_messages);
  EXPECT_EQ(r.status.code, bifrons::errc::ok);
  EXPECT_EQ(r.status.torn_tail_bytes, 0u);
  EXPECT_EQ(r.status.offset, 91u);
  // Today's writer produces the same bytes (with the same sync marker).
  const auto path = std::filesystem::temp_directory_path() / "bifrons-golden-log.log";
  std::filesystem::remove(path);
  {
    bifrons::log_appender<std::vector<std::int32_t>> log(path, {.sync_marker = 0x5eb1f0a3u});
    for (const auto& m : golden_log_messages) log.append(m);
  }
  EXPECT_EQ(load_file(path.string()), load_file(golden_dir() + "/log/intact.log"));
  std::filesystem::remove(path);
}

TEST(GoldenLogs, TornTail) {
  const auto r = read_golden_log("torn_tail.log");
  EXPECT_EQ(r.messages, golden_log_messages);
  EXPECT_EQ(r.status.code, bifrons::errc::ok);
  EXPECT_EQ(r.status.offset, 91u);
  EXPECT_EQ(r.status.torn_tail_bytes, 10u);
}

TEST(GoldenLogs, DamagedMiddle) {
  auto r = read_golden_log("damaged_middle.log");
  EXPECT_EQ(r.messages, (std::vector<std::vector<std::int32_t>>{{1, -2}}));
  EXPECT_EQ(r.status.code, bifrons::errc::checksum_mismatch);
  EXPECT_EQ(r.status.offset, 53u);
  EXPECT_STREQ(r.status.what, "record payload");
  r = read_golden_log("damaged_middle.log", true);
  EXPECT_EQ(r.messages, (std::vector<std::vector<std::int32_t>>{{1, -2}, {300}}));
  EXPECT_EQ(r.status.code, bifrons::errc::ok);
  EXPECT_EQ(r.skipped, 17u);
}

}  // namespace
