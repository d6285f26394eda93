// docs/api.md, "Reading": from_bytes (both forms), try_from_bytes, read_options, inputs and views.
#include <bifrons/bifrons.hpp>

#include "example_check.hpp"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

struct PointV1 {
  std::int32_t x = 0;
  std::int32_t y = 0;
};

struct Point {  // PointV1 with a field appended
  std::int32_t x = 0;
  std::int32_t y = 0;
  std::string label = "none";
};

int main() {
  example_check check;

  const std::vector<std::byte> bytes = bifrons::to_bytes(Point{3, -4, "a"});

  // from_bytes<T>(bytes): a new T. Any contiguous range of one-byte elements is an input.
  const Point p = bifrons::from_bytes<Point>(bytes);
  check(p.x == 3 && p.y == -4 && p.label == "a", "from_bytes<T>(vector<std::byte>)");
  const std::string as_string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  check(bifrons::from_bytes<Point>(as_string).label == "a", "from_bytes<T>(std::string)");
  check(bifrons::from_bytes<Point>(std::span<const std::byte>(bytes)).y == -4, "from_bytes<T>(span)");

  // Data written before a field existed: the field keeps its default.
  const Point old = bifrons::from_bytes<Point>(bifrons::to_bytes(PointV1{1, 2}));
  check(old.x == 1 && old.label == "none", "missing field keeps its default");

  // from_bytes(bytes, out): into an existing object, reusing its storage. The result equals
  // from_bytes<T>(bytes): fields the data lacks are reset, not left stale.
  Point reused{9, 9, "stale"};
  bifrons::from_bytes(bifrons::to_bytes(PointV1{5, 6}), reused);
  check(reused.x == 5 && reused.y == 6 && reused.label == "none", "from_bytes(bytes, out)");

  // The input must hold exactly one value.
  std::vector<std::byte> longer = bytes;
  longer.push_back(std::byte{0});
  try {
    (void)bifrons::from_bytes<Point>(longer);
    check(false, "trailing byte: no exception");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::trailing_bytes && e.offset() == bytes.size(), "trailing byte");
  }

  // try_from_bytes: a result<T> instead of an exception.
  const std::vector<std::byte> truncated(bytes.begin(), bytes.end() - 1);
  const bifrons::result<Point> r = bifrons::try_from_bytes<Point>(truncated);
  // unexpected_end is reported where the input ends, with how many more bytes the value needed.
  check(!r && r.code() == bifrons::errc::unexpected_end && r.offset() == truncated.size() && r.bytes_missing() == 1,
        "try_from_bytes on truncated input");
  const bifrons::result<Point> good = bifrons::try_from_bytes<Point>(bytes);
  check(good.has_value() && good->label == "a", "try_from_bytes");

  // read_options: limits for untrusted input, taken by every read.
  bifrons::read_options limits;
  limits.max_elements = 2;
  const auto three = bifrons::to_bytes(std::vector<std::int32_t>{1, 2, 3});
  const auto limited = bifrons::try_from_bytes<std::vector<std::int32_t>>(three, limits);
  check(!limited && limited.code() == bifrons::errc::element_limit_exceeded && limited.offset() == 0,
        "read_options::max_elements");

  // read_options::canonical_only: only the bytes a writer produces for the value read. PointV1's
  // bytes read as a Point lack its label: accepted leniently, refused strictly at byte 0.
  bifrons::read_options strict;
  strict.canonical_only = true;
  const auto old_bytes = bifrons::to_bytes(PointV1{1, 2});
  check(bifrons::try_from_bytes<Point>(old_bytes).has_value(), "lenient read of older data");
  const auto refused = bifrons::try_from_bytes<Point>(old_bytes, strict);
  check(!refused && refused.code() == bifrons::errc::non_canonical && refused.offset() == 0, "canonical_only");
  check(bifrons::try_from_bytes<Point>(bytes, strict).has_value(), "canonical_only accepts canonical bytes");

  // Views read zero-copy: the string_view points into the input bytes.
  const std::string input = std::string("\x05", 1) + "hello";  // count 5, then the characters
  const auto view = bifrons::from_bytes<std::string_view>(input);
  check(view == "hello" && view.data() == input.data() + 1, "string_view points into the input");

  std::printf("%d failure(s)\n", check.failures);
  return check.failures == 0 ? 0 : 1;
}
