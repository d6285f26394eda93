// SPDX-License-Identifier: MIT
#pragma once
// JSON text into the JSON value of the schema export (bifrons/detail/json.hpp) and back, for
// bifrons::to_json and the tools: schemas, conformance vectors, values. Numbers keep their
// spelling.

#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../json.hpp"

namespace bifrons::detail::inspect {

using json = detail::json::value;

/// A JSON text that does not parse: what and where (byte offset).
class json_error : public std::runtime_error {
 public:
  json_error(const std::string& what, std::size_t offset)
      : std::runtime_error(what + " at byte " + std::to_string(offset)), offset_(offset) {}
  [[nodiscard]] std::size_t offset() const noexcept { return offset_; }

 private:
  std::size_t offset_;
};

/// Parses one JSON value (RFC 8259), with nothing but white space after it.
inline json parse_json(std::string_view text);

/// The JSON text of v on one line (indent 0) or indented, UTF-8 as it is, members in the order
/// they were set (sorted with sort_keys).
inline std::string to_text(const json& v, int indent = 0, bool sort_keys = false);

// ---- implementation -------------------------------------------------------------------------

namespace json_text_impl {

class parser {
 public:
  explicit parser(std::string_view text) : text_(text) {}

  json document() {
    json v = value(0);
    space();
    if (pos_ != text_.size()) fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw json_error(what, pos_); }

  void space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool consume(char c) {
    space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) fail(std::string("expected '") + c + "'");
  }
  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  json value(int depth) {
    if (depth > 512) fail("JSON nested too deeply");
    space();
    if (pos_ >= text_.size()) fail("unexpected end of JSON");
    const char c = text_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return json(string());
    if (literal("true")) return json(true);
    if (literal("false")) return json(false);
    if (literal("null")) return json();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    fail("unexpected character");
  }

  json object(int depth) {
    ++pos_;
    json v = json::object();
    if (consume('}')) return v;
    // The keys seen, to refuse a duplicate: json::find scans the members, which made an object of
    // n keys cost n^2 / 2 comparisons (a hostile schema of 100,000 types took seconds).
    std::set<std::string, std::less<>> keys;
    do {
      space();
      if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string key");
      std::string key = string();
      expect(':');
      if (!keys.insert(key).second) fail("duplicate key \"" + key + "\"");
      v.members().emplace_back(std::move(key), value(depth + 1));
    } while (consume(','));
    expect('}');
    return v;
  }

  json array(int depth) {
    ++pos_;
    json v = json::array();
    if (consume(']')) return v;
    do {
      v.push(value(depth + 1));
    } while (consume(','));
    expect(']');
    return v;
  }

  json number() {
    const std::size_t start = pos_;
    const auto digits = [&] {
      const std::size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      return pos_ - from;
    };
    if (text_[pos_] == '-') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '0') {
      ++pos_;
    } else if (digits() == 0) {
      fail("malformed number");
    }
    if (pos_ < text_.size() && text_[pos_] == '.') {
      ++pos_;
      if (digits() == 0) fail("malformed number");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (digits() == 0) fail("malformed number");
    }
    return json::number(std::string(text_.substr(start, pos_ - start)));
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<unsigned>(c - 'A' + 10);
      else
        fail("malformed \\u escape");
    }
    return v;
  }

  std::string string() {
    ++pos_;  // the opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      switch (text_[pos_++]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          char32_t unit = hex4();
          if (unit >= 0xD800 && unit <= 0xDBFF && text_.substr(pos_, 2) == "\\u") {
            const std::size_t saved = pos_;
            pos_ += 2;
            const unsigned low = hex4();
            if (low >= 0xDC00 && low <= 0xDFFF)
              unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            else
              pos_ = saved;
          }
          bifrons::detail::json::append_code_point(out, unit);
          break;
        }
        default: fail("unknown escape");
      }
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace json_text_impl

inline json parse_json(std::string_view text) { return json_text_impl::parser(text).document(); }

inline std::string to_text(const json& v, int indent, bool sort_keys) {
  std::string out;
  bifrons::detail::json::write(out, v, indent, false, sort_keys);
  return out;
}

}  // namespace bifrons::detail::inspect
