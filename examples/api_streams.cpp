// docs/api.md, "Several values": bifrons::writer and bifrons::reader over bytes and iostreams.
#include <bifrons/bifrons.hpp>

#include "example_check.hpp"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

struct Header {
  std::uint32_t kind = 0;
  std::uint64_t sequence = 0;
};

int main() {
  example_check check;

  // writer over a byte container: appends each value, like to_bytes(value, out).
  std::vector<std::byte> out;
  bifrons::writer w(out);
  w(Header{1, 42}, std::string("payload"));
  w(std::int32_t{-1});
  check(out.size() == bifrons::serialized_size(Header{1, 42}) + bifrons::serialized_size(std::string("payload")) + 1,
        "writer appends the values one after another");

  // reader over bytes: reads the values back in order, into existing objects.
  bifrons::reader r(out);
  Header h;
  std::string payload;
  r(h, payload);
  check(r.ok() && !r.done() && r.remaining() == 1, "reader: one value left");
  std::int32_t last = 0;
  r(last);
  check(r.done() && h.sequence == 42 && payload == "payload" && last == -1, "reader: all read");

  // Reading past the end fails; the failure is sticky and every later read throws too.
  try {
    r(last);
    check(false, "read past the end: no exception");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::unexpected_end && e.offset() == out.size(), "read past the end");
  }
  check(!r.ok() && r.code() == bifrons::errc::unexpected_end && r.offset() == out.size(), "reader state");

  // read<T>() reads the next value as a new T (also a T without a default constructor that bifrons
  // makes with its load_and_construct; see api_hooks.cpp).
  bifrons::reader again(out);
  const Header first = again.read<Header>();
  const auto text = again.read<std::string>();
  check(first.kind == 1 && text == "payload", "reader::read<T>");

  // writer over a std::ostream, reader over a std::istream (which it reads to its end first).
  std::stringstream stream;
  bifrons::writer ws(stream);
  ws(Header{2, 7}, std::vector<double>{1.5, 2.5});
  check(ws.ok(), "ostream writer");
  bifrons::reader rs(stream);
  Header h2;
  std::vector<double> numbers;
  rs(h2, numbers);
  check(rs.done() && h2.kind == 2 && numbers.size() == 2 && numbers[1] == 2.5, "istream reader");

  // read_options apply to everything one reader reads.
  bifrons::read_options limits;
  limits.max_elements = 1;
  bifrons::reader limited(out, limits);
  Header h3;
  std::string s;
  try {
    limited(h3, s);  // the 7-character string is over the limit
    check(false, "limited reader: no exception");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::element_limit_exceeded, "limited reader");
  }

  std::printf("%zu bytes written; %d failure(s)\n", out.size(), check.failures);
  return check.failures == 0 ? 0 : 1;
}
