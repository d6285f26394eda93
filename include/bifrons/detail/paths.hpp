// SPDX-License-Identifier: MIT
#pragma once
// Where a failed read failed, as a field path and a C++ type (BIFRONS_ERROR_PATHS, config.hpp):
// the codecs open a frame for each struct, field and container element they read
// (source::path_frames), and the source renders them at the first failure. Without
// BIFRONS_ERROR_PATHS every function here is an empty inline one, and the names are never
// computed.
//
// Names come from the compiler: a type's from __PRETTY_FUNCTION__ (or __FUNCSIG__), an
// aggregate member's from the same applied to a pointer to that member of a declared, never
// defined object (the technique Boost.PFR uses); a hook's fields have no names, only positions.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>

#include "reflection.hpp"
#include "source.hpp"

namespace bifrons::detail {

#if BIFRONS_ERROR_PATHS

template <class T>
constexpr std::string_view pretty_name() noexcept {
#if defined(_MSC_VER) && !defined(__clang__)
  return __FUNCSIG__;
#else
  return __PRETTY_FUNCTION__;
#endif
}

/// The C++ name of T, as the compiler spells it.
template <class T>
constexpr std::string_view type_name() noexcept {
  // GCC: "... [with T = X; std::string_view = ...]"; clang: "... [T = X]"; MSVC: "...<X>(void)".
  constexpr std::string_view text = pretty_name<T>();
  constexpr std::size_t eq = text.find("T = ");
  if constexpr (eq != std::string_view::npos) {
    constexpr std::size_t begin = eq + 4;
    constexpr std::size_t end = text.find_first_of(";]", begin);
    return text.substr(begin, end - begin);
  } else {
    constexpr std::size_t begin = text.find("pretty_name<") + 12;
    constexpr std::size_t end = text.rfind(">(");
    return text.substr(begin, end - begin);
  }
}

// A pointer to a member of an object that is declared and never defined: only its address is
// used, at compile time, to make the compiler print the member's name.
template <class T>
struct member_address {
  const T* pointer;
};
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wundefined-var-template"
#endif
template <class T>
extern const T declared_object;

template <class T, std::size_t I>
consteval auto address_of_member() {
  return visit_members<member_count<T>>(declared_object<T>, [](const auto&... members) {
    return std::get<I>(std::tuple{member_address<std::remove_cvref_t<decltype(members)>>{&members}...});
  });
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

template <auto Address>
constexpr std::string_view pretty_address() noexcept {
#if defined(_MSC_VER) && !defined(__clang__)
  return __FUNCSIG__;
#else
  return __PRETTY_FUNCTION__;
#endif
}

/// The name of the I-th member of the aggregate T: the identifier after the last `.` or `:`
/// in the printed address ("&declared_object<T>.T::name" or "&declared_object.name").
template <class T, std::size_t I>
constexpr std::string_view member_name() noexcept {
  constexpr std::string_view text = pretty_address<address_of_member<T, I>()>();
  constexpr std::size_t object = text.find("declared_object");
  constexpr std::size_t end = text.find_first_of(")}", object);
  constexpr std::size_t begin = text.find_last_of(".:", end) + 1;
  return text.substr(begin, end - begin);
}

template <class T>
inline constexpr auto member_names = []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<std::string_view, sizeof...(I)>{member_name<T, I>()...};
}(std::make_index_sequence<member_count<T>>{});

/// Opens a frame for as long as it lives.
class path_frame_scope {
 public:
  path_frame_scope(source& in, source::path_frame frame) : in_(in) { in.path_frames.push_back(frame); }
  path_frame_scope(const path_frame_scope&) = delete;
  path_frame_scope& operator=(const path_frame_scope&) = delete;
  ~path_frame_scope() { in_.path_frames.pop_back(); }
  /// The container element being read.
  void element(std::size_t index) noexcept { in_.path_frames.back().index = index; }

 private:
  source& in_;
};

/// The value an entry point reads.
template <class T>
path_frame_scope root_path(source& in) {
  return {in, {type_name<T>(), {}, {}, 0, source::path_frame::root, false}};
}
/// A struct: the frame that field_path marks.
template <class T>
path_frame_scope struct_path(source& in) {
  return {in, {type_name<T>(), {}, {}, 0, source::path_frame::structure, false}};
}
/// The elements of a container, of type E.
template <class E>
path_frame_scope element_path(source& in) {
  return {in, {type_name<E>(), {}, {}, 0, source::path_frame::element, false}};
}
/// The field of type F that the innermost struct reads next: its name from `names` (an
/// aggregate's member_names), or only its index (a hook's field, names null).
template <class F>
void field_path(source& in, std::size_t index, const std::string_view* names) noexcept {
  source::path_frame& f = in.path_frames.back();
  f.in_field = true;
  f.index = index;
  f.field_type = type_name<F>();
  f.field_name = names != nullptr ? names[index] : std::string_view();
}

#else

// Another name than the class above: the functions below then differ from those of a program
// built with error paths in their mangled names too (gcov merges functions by name and refuses
// one name at two lines).
struct no_path_frame {
  constexpr void element(std::size_t) const noexcept {}
};
template <class T>
constexpr no_path_frame root_path(source&) noexcept {
  return {};
}
template <class T>
constexpr no_path_frame struct_path(source&) noexcept {
  return {};
}
template <class E>
constexpr no_path_frame element_path(source&) noexcept {
  return {};
}

#endif

}  // namespace bifrons::detail
