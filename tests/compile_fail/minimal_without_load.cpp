// expect: bifrons: a minimal type .save_minimal. needs a way to read its value back
// save_minimal alone: no load_minimal, and no constructor from the value.
#include <bifrons/core.hpp>

#include <cstdint>

struct Id {
  std::uint64_t v = 0;
  template <class Archive>
  std::uint64_t save_minimal(const Archive&) const {
    return v;
  }
  Id() = default;
};

int main() {
  const Id id;
  return static_cast<int>(bifrons::to_bytes(id).size());  // offending line
}
