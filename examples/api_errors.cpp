// docs/api.md, "Errors": bifrons::errc, describe(), bifrons::error and bifrons::result.
#include <bifrons/bifrons.hpp>

#include "example_check.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

int main() {
  example_check check;

  // errc values are stable numbers; describe() gives a short English text.
  check(static_cast<int>(bifrons::errc::malformed_varint) == 3, "errc values are stable");
  check(std::strcmp(bifrons::describe(bifrons::errc::malformed_varint), "malformed varint") == 0, "describe");
  static_assert(bifrons::describe(bifrons::errc::ok)[0] == 'o', "describe is constexpr");

  // A non-minimal varint (0x81 0x00 spells 1 in two bytes) is refused at byte 0.
  const std::vector<std::byte> bad{std::byte{0x81}, std::byte{0x00}};

  // bifrons::error: thrown by the throwing API; a std::runtime_error with code() and offset().
  try {
    (void)bifrons::from_bytes<std::uint32_t>(bad);
    check(false, "no exception");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::malformed_varint && e.offset() == 0, "error::code/offset");
    check(std::string(e.what()) == "bifrons: malformed varint at byte 0", "error::what");
  }
  bool caught_as_base = false;
  try {
    (void)bifrons::from_bytes<std::uint32_t>(bad);
  } catch (const std::runtime_error&) {
    caught_as_base = true;
  }
  check(caught_as_base, "error derives from std::runtime_error");

  // bifrons::result<T>: a value, or an error code and offset.
  const bifrons::result<std::uint32_t> failed = bifrons::try_from_bytes<std::uint32_t>(bad);
  check(!failed && !failed.has_value(), "result: no value");
  check(failed.code() == bifrons::errc::malformed_varint && failed.offset() == 0, "result::code/offset");
  try {
    (void)failed.value();  // value() on an error throws bifrons::error with the same code and offset
    check(false, "result::value: no exception");
  } catch (const bifrons::error& e) {
    check(e.code() == bifrons::errc::malformed_varint, "result::value throws");
  }

  const bifrons::result<std::uint32_t> ok = bifrons::try_from_bytes<std::uint32_t>(bifrons::to_bytes(300u));
  check(ok && ok.code() == bifrons::errc::ok && ok.value() == 300 && *ok == 300, "result: value");

  // result<T> moves out with std::move(r).value(); operator-> reaches members.
  bifrons::result<std::string> s = bifrons::try_from_bytes<std::string>(bifrons::to_bytes(std::string("text")));
  check(s->size() == 4, "result::operator->");
  const std::string moved = std::move(s).value();
  check(moved == "text", "result::value() &&");

  // result::message() says what error::what() would: here "bifrons: malformed varint at byte 0". In
  // a program built with BIFRONS_ERROR_PATHS=1, it also names the field and its type, which
  // result::path() and result::type_name() give alone (empty here).
  check(failed.message() == "bifrons: malformed varint at byte 0", "result::message");
  check(failed.path().empty() && failed.type_name().empty(), "result::path without BIFRONS_ERROR_PATHS");

  // A result can also be built by hand, e.g. to forward an error from a function of your own.
  const bifrons::result<int> forwarded(bifrons::errc::invalid_value, 7);
  check(!forwarded && forwarded.offset() == 7, "result(errc, offset)");

  std::printf("%s; %d failure(s)\n", bifrons::describe(failed.code()), check.failures);
  return check.failures == 0 ? 0 : 1;
}
