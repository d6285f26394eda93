// SPDX-License-Identifier: MIT
#pragma once
// Where a failed read failed, as a field path and a C++ type (BIFRONS_ERROR_PATHS, config.hpp):
// the codecs open a frame for each struct, field and container element they read
// (source::path_frames), and the source renders them at the first failure. Without
// BIFRONS_ERROR_PATHS every function here is an empty inline one, and the names are never
// computed.
//
// Names come from the compiler, through type_names.hpp (the names the schema export uses): a
// type's from __PRETTY_FUNCTION__, an aggregate member's from the same applied to a pointer to
// that member of a declared, never defined object; a hook's fields have no names, only positions.

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "reflection.hpp"
#include "source.hpp"
#include "type_names.hpp"

namespace bifrons::detail {

#if BIFRONS_ERROR_PATHS

/// The C++ name of T, spelled as the schema export spells it (type_names.hpp).
template <class T>
constexpr std::string_view type_name() noexcept {
  return derived_type_name<T>.view();
}

template <class T>
inline constexpr auto member_names = []<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<std::string_view, sizeof...(I)>{member_name<T, I>.view()...};
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
/// The field that the innermost struct reads next: its name from `names` (an aggregate's
/// member_names), the name a hook gave it (bifrons::named), or only its index (a hook's field,
/// names null). A field helper is named by the type of what it wraps (a named field's field, a
/// base's object).
template <class F>
void field_path(source& in, std::size_t index, const std::string_view* names, const F& field) noexcept {
  source::path_frame& f = in.path_frames.back();
  f.in_field = true;
  f.index = index;
  if constexpr (requires {
                  field.name;
                  field.field;
                }) {
    f.field_type = type_name<std::remove_cvref_t<decltype(field.field)>>();
    f.field_name = field.name != nullptr ? std::string_view(field.name) : std::string_view();
  } else {
    if constexpr (requires { field.object; })
      f.field_type = type_name<std::remove_cvref_t<decltype(field.object)>>();
    else
      f.field_type = type_name<F>();
    f.field_name = names != nullptr ? names[index] : std::string_view();
  }
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
