// SPDX-License-Identifier: MIT
#pragma once
// The names of types and of aggregate members, read from the compiler's own spelling of a
// template's arguments (__PRETTY_FUNCTION__ on GCC and clang), at compile time:
//   - a type's name: the argument of `type_signature<T>()`;
//   - a member's name: the argument of `member_signature<A>()`, where A holds the address of that
//     member of an object that is declared but never defined (only its address is taken, in a
//     constant expression), so that the compiler spells it `&object.value.member`.
// Used by the schema export (schema.hpp) and by error paths (paths.hpp, BIFRONS_ERROR_PATHS):
// nothing here runs when reading or writing.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>

#include "reflection.hpp"

namespace bifrons::detail {

// ---- parsing the compiler's spelling ---------------------------------------------------------

constexpr bool identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/// The argument list of a function signature: what follows "T = " in "[with T = X]" (GCC) or
/// "[T = X]" (clang), up to the closing bracket.
constexpr std::string_view template_argument(std::string_view signature) noexcept {
  const std::size_t open = signature.find("T = ");
  if (open == std::string_view::npos || signature.empty() || signature.back() != ']') return {};
  return signature.substr(open + 4, signature.size() - 1 - (open + 4));
}

/// The last identifier of a member's address as the compiler spells it:
/// "...value.app::Order::id)}]" (GCC) or "...value.id}]" (clang) give "id".
constexpr std::string_view last_identifier(std::string_view signature) noexcept {
  std::size_t end = signature.size();
  while (end > 0 && !identifier_char(signature[end - 1])) --end;
  std::size_t begin = end;
  while (begin > 0 && identifier_char(signature[begin - 1])) --begin;
  return signature.substr(begin, end - begin);
}

/// libc++ gives its strings and string views preferred names (`[[clang::preferred_name]]`), which
/// clang prints instead of the template: these are the names libstdc++'s types get.
struct preferred_name {
  std::string_view alias, spelled;
};
inline constexpr preferred_name libcxx_preferred_names[] = {
    {"std::string", "std::basic_string<char>"},
    {"std::wstring", "std::basic_string<wchar_t>"},
    {"std::u8string", "std::basic_string<char8_t>"},
    {"std::u16string", "std::basic_string<char16_t>"},
    {"std::u32string", "std::basic_string<char32_t>"},
    {"std::string_view", "std::basic_string_view<char>"},
    {"std::wstring_view", "std::basic_string_view<wchar_t>"},
    {"std::u8string_view", "std::basic_string_view<char8_t>"},
    {"std::u16string_view", "std::basic_string_view<char16_t>"},
    {"std::u32string_view", "std::basic_string_view<char32_t>"},
};

/// The spelling rules that make GCC's and clang's names of one type agree (docs/schema.md,
/// "Names"): inline namespaces of the standard libraries dropped, libc++'s preferred names of
/// strings spelled as templates, one spelling of anonymous namespaces, no space between closing
/// angle brackets. Writes into out (if not null) and returns the length.
constexpr std::size_t normalize_type_name(std::string_view in, char* out) noexcept {
  constexpr std::string_view dropped[] = {"__cxx11::", "__1::"};
  constexpr std::string_view anonymous[] = {"{anonymous}", "(anonymous namespace)"};
  constexpr std::string_view anonymous_spelling = "(anonymous)";
  std::size_t n = 0;
  const auto put = [&](char c) {
    if (out) out[n] = c;
    ++n;
  };
  // The length of the std:: name at i, spelled with or without libc++'s inline namespace, or 0:
  // it must not be part of a longer identifier or qualified name on either side.
  const auto name_at = [&](std::size_t i, std::string_view name) -> std::size_t {
    if (i > 0 && (identifier_char(in[i - 1]) || in[i - 1] == ':')) return 0;
    constexpr std::string_view std_prefix = "std::", inline_prefix = "std::__1::";
    const std::size_t prefix = in.substr(i, inline_prefix.size()) == inline_prefix ? inline_prefix.size()
                                                                                   : std_prefix.size();
    const std::string_view rest = name.substr(std_prefix.size());
    if (in.substr(i, std_prefix.size()) != std_prefix || in.substr(i + prefix, rest.size()) != rest) return 0;
    const std::size_t end = i + prefix + rest.size();
    return end == in.size() || !identifier_char(in[end]) ? end - i : 0;
  };
  std::size_t i = 0;
  while (i < in.size()) {
    bool matched = false;
    for (const preferred_name& p : libcxx_preferred_names) {
      const std::size_t length = matched ? 0 : name_at(i, p.alias);
      if (length != 0) {
        for (char c : p.spelled) put(c);
        i += length;
        matched = true;
      }
    }
    if (matched) continue;
    for (std::string_view d : dropped) {
      if (in.substr(i, d.size()) == d) {
        i += d.size();
        matched = true;
      }
    }
    for (std::string_view a : anonymous) {
      if (!matched && in.substr(i, a.size()) == a) {
        for (char c : anonymous_spelling) put(c);
        i += a.size();
        matched = true;
      }
    }
    if (matched) continue;
    if (in[i] == '>' && in.substr(i + 1, 2) == " >") {
      put('>');
      i += 2;  // the space; the second '>' is copied next
      continue;
    }
    put(in[i++]);
  }
  return n;
}

/// A compile-time string, kept with its terminating zero.
template <std::size_t N>
struct static_name {
  std::array<char, N + 1> chars{};
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars.data(), N}; }
};

// ---- type names ------------------------------------------------------------------------------

// (The return type is spelled out: a typedef such as std::string_view would be explained at the
// end of the signature, after the argument.)
template <class T>
consteval const char* type_signature() noexcept {
  return __PRETTY_FUNCTION__;
}

template <class T>
inline constexpr auto derived_type_name = [] {
  constexpr std::string_view spelled = template_argument(type_signature<T>());
  static_assert(!spelled.empty(), "bifrons: this compiler's __PRETTY_FUNCTION__ is not understood (GCC or clang)");
  static_name<normalize_type_name(spelled, nullptr)> name;
  normalize_type_name(spelled, name.chars.data());
  return name;
}();

// ---- member names ----------------------------------------------------------------------------

/// Declared, never defined: only the addresses of its members are taken, in constant
/// expressions, so that no object of T is ever needed.
template <class T>
struct reflection_holder {
  const T value;
};
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#pragma clang diagnostic ignored "-Wundefined-internal"  // types in anonymous namespaces
#endif
template <class T>
extern const reflection_holder<T> reflection_object;

/// A member's address as a template argument (wrapped in a class: clang up to 16 refuses the
/// address of a subobject as a pointer template argument, but not as a class's member).
template <class P>
struct member_address {
  P pointer;
};
template <class P>
member_address(P) -> member_address<P>;

template <class T, std::size_t I>
consteval auto address_of_member() noexcept {
  return visit_members<member_count<T>>(reflection_object<T>.value, [](const auto&... members) {
    return std::get<I>(std::tuple{member_address{&members}...});
  });
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

template <member_address A>
consteval const char* member_signature() noexcept {
  return __PRETTY_FUNCTION__;
}

/// The name of the I-th member of the aggregate T, as declared.
template <class T, std::size_t I>
inline constexpr auto member_name = [] {
  constexpr std::string_view spelled = last_identifier(member_signature<address_of_member<T, I>()>());
  static_assert(!spelled.empty(), "bifrons: this compiler's __PRETTY_FUNCTION__ is not understood (GCC or clang)");
  static_name<spelled.size()> name;
  for (std::size_t i = 0; i < spelled.size(); ++i) name.chars[i] = spelled[i];
  return name;
}();

}  // namespace bifrons::detail
