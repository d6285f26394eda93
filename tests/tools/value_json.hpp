#pragma once
// The JSON form of a C++ value (docs/schema.md section 10), computed from the value and its C++
// type, the way the writer walks it: independent of the schema-driven decoder of tools/lib, so
// that the decoder's reading of the golden files and of the conformance vectors can be checked
// against what the values are. Object ids follow the writer's order (docs/format.md section 23).

#include <bifrons/schema.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

#include "lib/decoder.hpp"

namespace value_json {

using bifrons::tools::json;

template <class T, template <class...> class W>
inline constexpr bool is_instance = false;
template <class... A, template <class...> class W>
inline constexpr bool is_instance<W<A...>, W> = true;

template <class T>
struct deprecated_of;
template <class T>
struct deprecated_of<bifrons::deprecated<T>> {
  using type = T;
};

template <class A>
struct is_base_ref : std::false_type {};
template <class B, class D>
struct is_base_ref<bifrons::base_ref<B, D>> : std::true_type {};

class builder {
 public:
  /// Objects of the registered classes Registered... that polymorphic pointers hold (tag 2) are
  /// written as those classes (the C++ type of a pointer does not say which).
  template <class... Registered>
  void registered(std::tuple<Registered...>* = nullptr) {
    (dynamic_types_.push_back([](builder& b, const void* complete, const std::type_info& type, json& out) {
      if (type != typeid(Registered)) return false;
      const auto& object = *static_cast<const Registered*>(complete);
      b.introduced_ = {&object, &bifrons::detail::schema_key<Registered>};
      out = b.complete(object);
      return true;
    }),
     ...);
  }

  template <class T>
  json of(const T& v) {
    using U = std::remove_cv_t<T>;
    namespace d = bifrons::detail;
    if constexpr (std::is_same_v<U, bool>) {
      return json(v);
    } else if constexpr (d::one_byte_char<U>) {
      return json::integer(static_cast<unsigned char>(v));
    } else if constexpr (std::is_same_v<U, std::byte>) {
      return json::integer(static_cast<unsigned>(v));
    } else if constexpr (d::varint_integer<U>) {
      return json::integer(static_cast<d::wire_integer_t<U>>(v));
    } else if constexpr (std::is_floating_point_v<U>) {
      return bifrons::tools::float_json(v);
    } else if constexpr (std::is_enum_v<U>) {
      return of(static_cast<std::underlying_type_t<U>>(v));
    } else if constexpr (std::is_pointer_v<U>) {
      return v == nullptr ? json() : reference(v);
    } else if constexpr (std::is_same_v<U, std::monostate>) {
      return json();
    } else if constexpr (is_instance<U, std::optional>) {
      if (!v) return json();
      json inner = of(*v);
      if (!inner.is_null() && !nullable<typename U::value_type>()) return inner;
      json some = json::object();
      some.set("some", std::move(inner));
      return some;
    } else if constexpr (is_instance<U, std::unique_ptr>) {
      return v ? new_object(v.get()) : json();
    } else if constexpr (is_instance<U, std::shared_ptr>) {
      return v ? shared(v.get()) : json();
    } else if constexpr (is_instance<U, std::weak_ptr>) {
      const auto locked = v.lock();
      return locked ? shared(locked.get()) : json();
    } else if constexpr (is_instance<U, std::reference_wrapper>) {
      return reference(&v.get());
    } else if constexpr (is_instance<U, bifrons::deprecated>) {
      return retired<typename deprecated_of<U>::type>();
    } else if constexpr (is_instance<U, std::variant>) {
      json o = json::object();
      o.set("index", json::integer(v.index()));
      o.set("value", std::visit([&](const auto& alternative) { return of(alternative); }, v));
      return o;
    } else if constexpr (is_instance<U, std::complex>) {
      json a = json::array();
      a.push(of(v.real()));
      a.push(of(v.imag()));
      return a;
    } else if constexpr (requires {
                           v.count();
                           typename U::period;
                         }) {  // duration
      return of(v.count());
    } else if constexpr (requires { v.time_since_epoch(); }) {
      return of(v.time_since_epoch());
    } else if constexpr (requires { v.to_ullong(); }) {  // bitset
      json a = json::array();
      for (std::size_t i = 0; i < v.size(); ++i) a.push(json(bool(v[i])));
      return a;
    } else if constexpr (is_string<U>()) {
      return string(v);
    } else if constexpr (requires { typename U::mapped_type; }) {
      // In the order of the bytes (keys holding char in unsigned order: format.md, section 12).
      json a = json::array();
      bifrons::detail::for_each_in_canonical_order(v, [&](const auto& entry) {
        json pair = json::array();
        pair.push(of(entry.first));
        pair.push(of(entry.second));
        a.push(std::move(pair));
      });
      return a;
    } else if constexpr (requires { typename U::key_type; }) {  // sets, in the order of the bytes
      json a = json::array();
      bifrons::detail::for_each_in_canonical_order(v, [&](const auto& e) { a.push(of(e)); });
      return a;
    } else if constexpr (requires { typename U::container_type; }) {  // queue, stack, priority_queue
      return of(bifrons::detail::adapter_access<U>::container(v));
    } else if constexpr (std::ranges::range<U>) {
      json a = json::array();
      for (const auto& e : v) a.push(of(static_cast<const std::ranges::range_value_t<U>&>(e)));
      return a;
    } else if constexpr (requires { std::tuple_size<U>::value; }) {
      json a = json::array();
      std::apply([&](const auto&... e) { (a.push(of(e)), ...); }, v);
      return a;
    } else if constexpr (bifrons::detail::record<U>) {
      json o = json::object();
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        bifrons::detail::visit_members<bifrons::detail::member_count<U>>(v, [&](const auto&... m) {
          (o.set(bifrons::detail::member_name<U, I>.view(), of(m)), ...);
        });
      }(std::make_index_sequence<bifrons::detail::member_count<U>>{});
      return o;
    } else {
      return complete(v);
    }
  }

 private:
  /// A complete object: its own virtual bases (docs/format.md section 5).
  template <class T>
  json complete(const T& v) {
    auto outer = std::exchange(virtual_bases_met_, {});
    json o = structure(v);
    virtual_bases_met_ = std::move(outer);
    return o;
  }

  template <class T>
  static constexpr bool is_string() {
    if constexpr (requires { typename T::traits_type; })
      return bifrons::detail::one_byte_char<typename T::value_type> ||
             std::is_same_v<typename T::value_type, char16_t> || std::is_same_v<typename T::value_type, char32_t> ||
             std::is_same_v<typename T::value_type, wchar_t>;
    else
      return false;
  }

  template <class T>
  static constexpr bool nullable() {
    return is_instance<T, std::optional> || is_instance<T, std::unique_ptr> || is_instance<T, std::shared_ptr> ||
           is_instance<T, std::weak_ptr> || std::is_pointer_v<T> || std::is_same_v<T, std::monostate>;
  }

  template <class S>
  json string(const S& s) {
    using C = typename S::value_type;
    std::vector<std::uint32_t> units;
    for (C c : s) units.push_back(static_cast<std::uint32_t>(static_cast<std::make_unsigned_t<C>>(c)));
    std::string text;
    bool ok = true;
    if constexpr (sizeof(C) == 1) {
      text.assign(reinterpret_cast<const char*>(s.data()), s.size());
      std::size_t i = 0;
      while (i < text.size() && ok) {
        const std::size_t start = i;
        if (bifrons::detail::json::next_code_point(text, i) == 0xFFFD && text.substr(start, 3) != "\xEF\xBF\xBD")
          ok = false;
      }
    } else {
      for (std::size_t i = 0; i < units.size() && ok; ++i) {
        std::uint32_t u = units[i];
        if (sizeof(C) == 2 && u >= 0xD800 && u <= 0xDBFF && i + 1 < units.size() && units[i + 1] >= 0xDC00 &&
            units[i + 1] <= 0xDFFF) {
          u = 0x10000 + ((u - 0xD800) << 10) + (units[++i] - 0xDC00);
        } else if (u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF)) {
          ok = false;
          break;
        }
        bifrons::detail::json::append_code_point(text, static_cast<char32_t>(u));
      }
    }
    if (ok) return json(text);
    json list = json::array();
    for (std::uint32_t u : units) list.push(json::integer(u));
    json o = json::object();
    o.set("units", std::move(list));
    return o;
  }

  // ---- objects with ids ----------------------------------------------------------------------

  /// An object's identity: its address and type; for a polymorphic class, its complete object
  /// and dynamic type, whatever base a pointer names it by (docs/format.md section 23).
  template <class T>
  static std::pair<const void*, const void*> identity(const T* p) {
    if constexpr (std::is_polymorphic_v<T>)
      return {dynamic_cast<const void*>(p), &typeid(*p)};
    else
      return {p, &bifrons::detail::schema_key<std::remove_cv_t<T>>};
  }

  template <class T>
  json new_object(const T* p) {
    const std::size_t id = ++next_id_;
    ids_[identity(p)] = id;
    json o = json::object();
    o.set("id", json::integer(id));
    if constexpr (std::is_polymorphic_v<T>) {
      if (typeid(*p) != typeid(T)) {  // tag 2: an object of a registered class
        const auto* type = bifrons::detail::the_registry().find(typeid(*p));
        o.set("type", type ? type->name : std::string("(unregistered)"));
        json value;
        for (const auto& as_registered : dynamic_types_)
          if (as_registered(*this, dynamic_cast<const void*>(p), typeid(*p), value)) break;
        o.set("value", std::move(value));
        return o;
      }
    }
    introduced_ = {p, &bifrons::detail::schema_key<std::remove_cv_t<T>>};
    o.set("value", of(*p));
    return o;
  }
  template <class T>
  json shared(const T* p) {
    if (ids_.count(identity(p))) return reference(p);
    return new_object(p);
  }
  template <class T>
  json reference(const T* p) {
    json o = json::object();
    o.set("ref", json::integer(ids_.at(identity(p))));
    return o;
  }

  /// What a reader gets for a retired T: the bytes deprecated<T> writes, read as a T.
  template <class T>
  json retired() {
    if constexpr (bifrons::detail::struct_envelope<T>) {
      // An empty envelope: every field missing (at its default), no version; still an object
      // with identity takes an id.
      const T object{};
      json o = structure(object);
      o.members().erase(std::remove_if(o.members().begin(), o.members().end(),
                                       [](const auto& m) { return m.first == "$version"; }),
                        o.members().end());
      return o;
    } else {
      return of(T{});
    }
  }

  class fields_archive {
   public:
    static constexpr bool is_loading = false;
    static constexpr bool is_saving = true;
    fields_archive(builder& b, json& o) : b_(b), o_(o) {}
    template <class... A>
    void operator()(A&&... args) {
      (add(args, std::string()), ...);
    }
    template <class A>
    void add(const A& arg, std::string name) {
      if constexpr (requires {
                      arg.name;
                      arg.field;
                    }) {
        add(arg.field, arg.name);
      } else {
        if (name.empty()) name = unnamed<A>();
        ++position_;
        if constexpr (is_base_ref<A>::value) {
          // A virtual base that the complete object met before has no bytes and no value here.
          if constexpr (bifrons::codec<A>::is_virtual) {
            const void* key = &arg.object;
            auto& met = b_.virtual_bases_met_;
            if (std::find(met.begin(), met.end(), key) != met.end()) return;
            met.push_back(key);
          }
        }
        o_.set(name, b_.field(arg));
      }
    }

   private:
    /// docs/schema.md: a base is named after its type (unless another field has that name, which
    /// no test type does), any other unnamed field after its position.
    template <class A>
    std::string unnamed() const {
      if constexpr (is_base_ref<A>::value)
        return std::string(bifrons::detail::schema_name_of<std::remove_cvref_t<decltype(std::declval<A>().object)>>());
      else
        return "field" + std::to_string(position_);
    }
    builder& b_;
    json& o_;
    std::size_t position_ = 0;
  };

  template <class A>
  json field(const A& arg) {
    using namespace bifrons;
    if constexpr (is_base_ref<A>::value)
      return structure(arg.object);
    else if constexpr (is_instance<A, bifrons::owning_ref>)
      return arg.pointer ? new_object(arg.pointer) : json();
    else if constexpr (is_instance<A, bifrons::fixed_ref> || is_instance<A, bifrons::varint_ref>)
      return of(arg.value);
    else
      return of(arg);
  }

  template <class T>
  json structure(const T& v) {
    json o = json::object();
    if constexpr (bifrons::detail::has_class_version<T>)
      o.set("$version", json::integer(bifrons::detail::class_version<T>()));
    if constexpr (bifrons::enable_identity<T>) {
      // An object a pointer introduces has its id in the pointer's form.
      if (introduced_ != std::pair<const void*, const void*>{&v, &bifrons::detail::schema_key<T>}) {
        const std::size_t id = ++next_id_;
        ids_[{&v, &bifrons::detail::schema_key<T>}] = id;
        o.set("$id", json::integer(id));
      }
    }
    introduced_ = {};
    fields_archive ar(*this, o);
    if constexpr (bifrons::detail::reflected<T>) {
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        bifrons::detail::visit_members<bifrons::detail::member_count<T>>(v, [&](const auto&... m) {
          (ar.add(m, std::string(bifrons::detail::member_name<T, I>.view())), ...);
        });
      }(std::make_index_sequence<bifrons::detail::member_count<T>>{});
    } else {
      bifrons::detail::save_fields(ar, v);
    }
    return o;
  }

  std::vector<bool (*)(builder&, const void*, const std::type_info&, json&)> dynamic_types_;
  std::vector<const void*> virtual_bases_met_;  // in the complete object being written
  std::map<std::pair<const void*, const void*>, std::size_t> ids_;
  std::size_t next_id_ = 0;
  std::pair<const void*, const void*> introduced_{};  // the object a pointer is introducing
};

/// The JSON form of a value (a streamed golden case: of its tuple, whose bytes are the same),
/// whose polymorphic pointers may hold objects of the registered classes Registered... (a
/// std::tuple).
template <class Registered = std::tuple<>, class T>
json of(const T& v) {
  builder b;
  b.registered(static_cast<Registered*>(nullptr));
  return b.of(v);
}

}  // namespace value_json
