// expect: bifrons: a minimal type .save_minimal. has no envelope, so it cannot carry a class version
#include <bifrons/core.hpp>

#include <cstdint>

struct Id {
  static constexpr std::uint32_t bifrons_version = 2;
  std::uint64_t v = 0;
  template <class Archive>
  std::uint64_t save_minimal(const Archive&) const {
    return v;
  }
  template <class Archive>
  void load_minimal(const Archive&, const std::uint64_t& value) {
    v = value;
  }
};

int main() {
  const Id id;
  return static_cast<int>(bifrons::to_bytes(id).size());  // offending line
}
