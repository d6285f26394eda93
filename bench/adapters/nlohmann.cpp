// nlohmann/json, written the way its users write it: to_json/from_json hooks
// found by ADL (NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE where the defaults fit),
// a json value built per call and dumped, json::parse + get_to on the way back.
//
// The JSON layout is the same in the nlohmann, rapidjson and simdjson
// adapters, so their sizes compare:
//  - a struct is an object keyed by field name (as CppSerialization's JSON);
//  - char[10] is a string up to the first NUL (the NUL padding is restored);
//  - an enum is its integer value;
//  - std::tuple is an array, vector<char> a string, other vectors arrays;
//  - map<int32,int32> is an array of [key, value] pairs: JSON object keys are
//    strings, so an object would format and parse every key as text, and this
//    is what nlohmann itself does with a map whose key is not a string;
//  - a unique_ptr tree node is {"value":v,"left":...,"right":...}, null for no
//    child.
// Numbers: doubles (and floats, printed as the double they convert to exactly)
// are dumped with enough digits to parse back to the same bits.
//
// Malformed input throws nlohmann::json::exception (parse_error on bad syntax
// or trailing bytes, type_error on a wrong type, out_of_range on a missing
// key). Like every nlohmann user's code, number-to-number conversions are the
// library's: get<std::int32_t>() narrows an out-of-range or fractional number
// instead of throwing.
#include <nlohmann/json.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../harness/harness.hpp"

namespace {

using nlohmann::json;

// char[N]: the characters up to the first NUL.
template <std::size_t N>
std::string_view fixed_string(const char (&field)[N]) {
  return {field, strnlen(field, N)};
}

template <std::size_t N>
void assign_fixed_string(const json& j, char (&field)[N]) {
  const auto& s = j.get_ref<const std::string&>();  // type_error if not a string
  if (s.size() > N || s.find('\0') != std::string::npos) {
    throw std::length_error("nlohmann adapter: string does not fit a char[" + std::to_string(N) + "]");
  }
  std::memcpy(field, s.data(), s.size());
  std::memset(field + s.size(), 0, N - s.size());
}

}  // namespace

namespace bench::model {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(IntegerClass, a, b, c, d, e, f, g, h, i, j)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KelpieEntry, id, name)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(KelpieMessage, op, tag, source, destination, entries)

void to_json(json& j, const SurveyMixed& v) {
  j["number"] = v.number;
  j["real"] = v.real;
  j["text"] = std::string_view(v.text.data(), v.text.size());
}
void from_json(const json& j, SurveyMixed& v) {
  j.at("number").get_to(v.number);
  j.at("real").get_to(v.real);
  const auto& text = j.at("text").get_ref<const std::string&>();
  v.text.assign(text.begin(), text.end());
}

// Enums go through nlohmann's default (the underlying integer); the range
// check is ours, so an out-of-range side or type is an error, not a new value.
void to_json(json& j, const Order& v) {
  j["id"] = v.id;
  j["symbol"] = fixed_string(v.symbol);
  j["side"] = v.side;
  j["type"] = v.type;
  j["price"] = v.price;
  j["volume"] = v.volume;
}
void from_json(const json& j, Order& v) {
  j.at("id").get_to(v.id);
  assign_fixed_string(j.at("symbol"), v.symbol);
  j.at("side").get_to(v.side);
  j.at("type").get_to(v.type);
  if (v.side > OrderSide::sell || v.type > OrderType::stop) {
    throw std::out_of_range("nlohmann adapter: order side or type out of range");
  }
  j.at("price").get_to(v.price);
  j.at("volume").get_to(v.volume);
}

void to_json(json& j, const Balance& v) {
  j["currency"] = fixed_string(v.currency);
  j["amount"] = v.amount;
}
void from_json(const json& j, Balance& v) {
  assign_fixed_string(j.at("currency"), v.currency);
  j.at("amount").get_to(v.amount);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Account, id, name, wallet, orders)

}  // namespace bench::model

// std::unique_ptr is not ours to add ADL hooks for, so the tree goes through
// the serializer specialization nlohmann documents for third-party types.
// Decoding reuses the nodes an already-filled tree has.
template <>
struct nlohmann::adl_serializer<std::unique_ptr<bench::model::UniqueNode>> {
  static void to_json(json& j, const std::unique_ptr<bench::model::UniqueNode>& node) {
    if (!node) {
      j = nullptr;
      return;
    }
    j["value"] = node->value;
    j["left"] = node->left;
    j["right"] = node->right;
  }
  static void from_json(const json& j, std::unique_ptr<bench::model::UniqueNode>& node) {
    if (j.is_null()) {
      node.reset();
      return;
    }
    if (!j.is_object()) {
      throw std::invalid_argument("nlohmann adapter: tree node is neither an object nor null");
    }
    if (!node) node = std::make_unique<bench::model::UniqueNode>();
    j.at("value").get_to(node->value);
    j.at("left").get_to(node->left);
    j.at("right").get_to(node->right);
  }
};

namespace {

template <class T>
concept json_supported = !std::is_same_v<T, std::shared_ptr<bench::model::SharedNode>> &&
                         !std::is_same_v<T, std::unique_ptr<bench::model::PolyNode>>;

struct nlohmann_adapter {
  static constexpr std::string_view name = "nlohmann";

  std::string text;

  template <class T>
    requires json_supported<T>
  bench::bytes_view encode(const T& value) {
    const json j = value;
    // The body of json::dump() (no indent, strict UTF-8), writing into a
    // string this adapter reuses instead of returning a fresh one.
    text.clear();
    nlohmann::detail::serializer<json> s(nlohmann::detail::output_adapter<char, std::string>(text), ' ',
                                         json::error_handler_t::strict);
    s.dump(j, false, false, 0);
    return std::as_bytes(std::span(text.data(), text.size()));
  }

  template <class T>
    requires json_supported<T>
  void decode(bench::bytes_view in, T& out) {
    const char* first = reinterpret_cast<const char*>(in.data());
    json::parse(first, first + in.size()).get_to(out);
  }

  static std::string_view unsupported_reason(std::string_view family) {
    if (family == "shared_tree" || family == "poly_tree") return "JSON has no pointer identity/polymorphism";
    return {};
  }
};

}  // namespace

BENCH_ADAPTER(nlohmann_adapter);
