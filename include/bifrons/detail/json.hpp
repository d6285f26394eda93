// SPDX-License-Identifier: MIT
#pragma once
// A minimal JSON value and its canonical text, for the schema export (docs/schema.md, "Canonical
// text"): the text Python's json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True)
// produces. Numbers are kept as their text, so that 64-bit integers and the tools' floating-point
// spellings pass through unchanged. (The tools of tools/ parse JSON into the same type.)

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace bifrons::detail::json {

class value {
 public:
  enum class type : std::uint8_t { null, boolean, number, string, array, object };
  using member = std::pair<std::string, value>;

  value() = default;
  template <class B>
    requires std::is_same_v<B, bool>  // not from an int, which would convert
  value(B b) : type_(type::boolean), boolean_(b) {}  // NOLINT: implicit, as for strings
  value(std::string s) : type_(type::string), text_(std::move(s)) {}  // NOLINT
  value(std::string_view s) : type_(type::string), text_(s) {}        // NOLINT
  value(const char* s) : type_(type::string), text_(s) {}             // NOLINT

  template <class I>
    requires std::is_integral_v<I> && (!std::is_same_v<I, bool>)
  static value integer(I n) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, n);
    return number(std::string(buf, r.ptr));
  }
  /// A number from its JSON spelling (not checked).
  static value number(std::string text) {
    value v;
    v.type_ = type::number;
    v.text_ = std::move(text);
    return v;
  }
  static value array() {
    value v;
    v.type_ = type::array;
    return v;
  }
  static value object() {
    value v;
    v.type_ = type::object;
    return v;
  }

  [[nodiscard]] type kind() const noexcept { return type_; }
  [[nodiscard]] bool is_null() const noexcept { return type_ == type::null; }
  [[nodiscard]] bool is_string() const noexcept { return type_ == type::string; }
  [[nodiscard]] bool is_number() const noexcept { return type_ == type::number; }
  [[nodiscard]] bool is_array() const noexcept { return type_ == type::array; }
  [[nodiscard]] bool is_object() const noexcept { return type_ == type::object; }
  [[nodiscard]] bool is_bool() const noexcept { return type_ == type::boolean; }
  [[nodiscard]] bool boolean() const noexcept { return boolean_; }
  /// A string's characters, or a number's spelling.
  [[nodiscard]] const std::string& text() const noexcept { return text_; }

  /// An array's items.
  [[nodiscard]] const std::vector<value>& items() const noexcept { return items_; }
  std::vector<value>& items() noexcept { return items_; }
  value& push(value v) {
    items_.push_back(std::move(v));
    return items_.back();
  }

  /// An object's members, in the order they were set (the canonical text sorts them).
  [[nodiscard]] const std::vector<member>& members() const noexcept { return members_; }
  std::vector<member>& members() noexcept { return members_; }
  /// Sets a member of an object, replacing one of the same key.
  value& set(std::string_view key, value v) {
    for (auto& [k, existing] : members_) {
      if (k == key) return existing = std::move(v);
    }
    members_.emplace_back(std::string(key), std::move(v));
    return members_.back().second;
  }
  /// The member with this key, or nullptr.
  [[nodiscard]] const value* find(std::string_view key) const noexcept {
    for (const auto& [k, v] : members_)
      if (k == key) return &v;
    return nullptr;
  }

  friend bool operator==(const value& a, const value& b) {
    if (a.type_ != b.type_) return false;
    switch (a.type_) {
      case type::null: return true;
      case type::boolean: return a.boolean_ == b.boolean_;
      case type::number:
      case type::string: return a.text_ == b.text_;
      case type::array: return a.items_ == b.items_;
      case type::object: {
        if (a.members_.size() != b.members_.size()) return false;
        for (const auto& [k, v] : a.members_) {
          const value* other = b.find(k);
          if (other == nullptr || !(*other == v)) return false;
        }
        return true;
      }
    }
    return false;
  }

 private:
  type type_ = type::null;
  bool boolean_ = false;
  std::string text_;
  std::vector<value> items_;
  std::vector<member> members_;
};

/// The next code point of UTF-8 text at i (advancing i); U+FFFD for a byte that does not start a
/// valid sequence (Python's strings cannot hold one, so canonical text never needs it).
inline char32_t next_code_point(std::string_view s, std::size_t& i) noexcept {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  std::size_t length = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t c = length == 1 ? b0 : static_cast<char32_t>(b0 & (0x7F >> length));
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    c = (c << 6) | (byte(i + k) & 0x3F);
  }
  constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  i += length;
  if (c < smallest[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0xFFFD;
  return c;
}

/// Appends the UTF-8 encoding of the code point c (at most U+10FFFF) to out: the inverse of
/// next_code_point.
inline void append_code_point(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

/// A JSON string literal. With ascii (the canonical text), every character outside printable
/// ASCII is a \u escape, as Python's ensure_ascii=True writes it.
inline void write_string(std::string& out, std::string_view s, bool ascii) {
  constexpr char hex[] = "0123456789abcdef";
  const auto escape = [&](unsigned unit) {
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(unit >> shift) & 0xF];
  };
  out += '"';
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t start = i;
    const char32_t c = next_code_point(s, i);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (c < 0x20 || (ascii && c >= 0x7F)) {
      if (c >= 0x10000) {
        escape(0xD800 + ((c - 0x10000) >> 10));
        escape(0xDC00 + ((c - 0x10000) & 0x3FF));
      } else {
        escape(static_cast<unsigned>(c));
      }
    } else if (c == 0xFFFD && s.substr(start, 3) != "\xEF\xBF\xBD") {
      out += "\xEF\xBF\xBD";  // an invalid byte: the replacement character
    } else {
      out.append(s.substr(start, i - start));
    }
  }
  out += '"';
}

/// Writes v as json.dumps(v, indent=indent, sort_keys=sort_keys, ensure_ascii=ascii) would, at
/// the given nesting depth (indent 0: everything on one line, with Python's ", " and ": ").
inline void write(std::string& out, const value& v, int indent, bool ascii, bool sort_keys = true, int depth = 0) {
  const auto newline = [&](int level) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(level * indent), ' ');
  };
  const char* separator = indent > 0 ? "," : ", ";
  switch (v.kind()) {
    case value::type::null: out += "null"; return;
    case value::type::boolean: out += v.boolean() ? "true" : "false"; return;
    case value::type::number: out += v.text(); return;
    case value::type::string: write_string(out, v.text(), ascii); return;
    case value::type::array: {
      if (v.items().empty()) {
        out += "[]";
        return;
      }
      out += '[';
      bool first = true;
      for (const value& item : v.items()) {
        if (!first) out += separator;
        first = false;
        newline(depth + 1);
        write(out, item, indent, ascii, sort_keys, depth + 1);
      }
      newline(depth);
      out += ']';
      return;
    }
    case value::type::object: {
      if (v.members().empty()) {
        out += "{}";
        return;
      }
      std::vector<const value::member*> sorted;
      for (const auto& m : v.members()) sorted.push_back(&m);
      // Byte order of UTF-8 keys is code point order, Python's order of str.
      if (sort_keys) {
        std::sort(sorted.begin(), sorted.end(),
                  [](const value::member* a, const value::member* b) { return a->first < b->first; });
      }
      out += '{';
      bool first = true;
      for (const value::member* m : sorted) {
        if (!first) out += separator;
        first = false;
        newline(depth + 1);
        write_string(out, m->first, ascii);
        out += ": ";
        write(out, m->second, indent, ascii, sort_keys, depth + 1);
      }
      newline(depth);
      out += '}';
      return;
    }
  }
}

/// The canonical text of docs/schema.md: indent 2, sorted keys, ASCII, a final newline.
inline std::string canonical(const value& v) {
  std::string out;
  write(out, v, 2, true);
  out += '\n';
  return out;
}

}  // namespace bifrons::detail::json
