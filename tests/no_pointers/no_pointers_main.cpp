// A program without pointers (tests/CMakeLists.txt builds it without the tests' precompiled
// header): it includes the core and the headers of the standard types it uses, and the pointer
// machinery (the object table, the write session, the pointer codecs and the polymorphic
// registry) is not in its include graph (issue 34, decision 4), while everything that may meet a
// pointer without holding one still works: classes with hooks, classes with a virtual function,
// the temporaries of maps, values streamed by a reader. A plain program, like no_rtti_main.cpp.
#include <bifrons/core.hpp>
#include <bifrons/io.hpp>
#include <bifrons/types/map.hpp>
#include <bifrons/types/string.hpp>
#include <bifrons/types/vector.hpp>

#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

struct Record {
  std::int32_t id = 0;
  std::string name;
  std::vector<double> values;
  std::map<std::string, std::int32_t> counts;
  friend bool operator==(const Record&, const Record&) = default;
};

// A class with a hook may hold anything (the scan cannot see into it): its writes open a session
// scope and its reads keep an object table owner, which stay empty here.
class Hooked {
 public:
  Hooked() = default;
  Hooked(std::int32_t a, std::string b) : a_(a), b_(std::move(b)) {}
  virtual ~Hooked() = default;  // not standard-layout: its reads and writes mark virtual bases
  Hooked(const Hooked&) = default;
  Hooked& operator=(const Hooked&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a_, b_);
  }
  friend bool operator==(const Hooked& l, const Hooked& r) { return l.a_ == r.a_ && l.b_ == r.b_; }

 private:
  std::int32_t a_ = 0;
  std::string b_;
};

int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

}  // namespace

// The pointer machinery is not in this program's headers: objects.hpp (which the pointer codecs
// and the write session come with) and registry.hpp say when they are.
static_assert(!bifrons::detail::pointer_machinery_included<Record>);
static_assert(!bifrons::detail::registry_included<Record>);
static_assert(bifrons::detail::may_hold_pointers<Hooked>());
static_assert(!bifrons::detail::may_hold_pointers<Record>());

int main() {
  const Record record{7, "minimal", {1.5, 2.5}, {{"a", 1}, {"b", 2}}};
  const std::vector<std::byte> bytes = bifrons::to_bytes(record);
  check(bifrons::from_bytes<Record>(bytes) == record, "Record round trip");

  const std::vector<Hooked> hooked{{1, "one"}, {2, "two"}};
  const std::vector<std::byte> hooked_bytes = bifrons::to_bytes(hooked);
  check(bifrons::serialized_size(hooked) == hooked_bytes.size(), "serialized_size of hooked values");
  check(bifrons::from_bytes<std::vector<Hooked>>(hooked_bytes) == hooked, "hooked round trip");
  std::vector<Hooked> reused{{9, "nine"}};
  bifrons::from_bytes(hooked_bytes, reused);
  check(reused == hooked, "hooked read into a reused vector");
  const std::vector<std::byte> one = bifrons::to_bytes(Hooked{1, "one"});
  check(!bifrons::try_from_bytes<Hooked>(std::span(one).first(one.size() - 1)).has_value(), "a cut hooked value fails");

  std::map<std::int32_t, Hooked> by_id{{1, {1, "one"}}, {3, {3, "three"}}};
  const std::vector<std::byte> map_bytes = bifrons::to_bytes(by_id);
  check(bifrons::from_bytes<std::map<std::int32_t, Hooked>>(map_bytes) == by_id, "map of hooked values");

  std::vector<std::byte> stream;
  bifrons::writer<std::vector<std::byte>> out(stream);
  out(Hooked{4, "four"}, Hooked{5, "five"});
  bifrons::reader in(stream);
  check(in.read<Hooked>() == Hooked{4, "four"} && in.read<Hooked>() == Hooked{5, "five"}, "stream of hooked values");

  if (failures == 0) std::printf("no_pointers_test: all passed\n");
  return failures == 0 ? 0 : 1;
}
