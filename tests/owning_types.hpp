#pragma once
// Types of issue 32's reproducers shared by tests/pointer_safety_test.cpp and the fuzz harness
// tests/fuzz/identity_fuzz.cpp: a leaf object, and a class that owns one through an owning raw
// pointer (bifrons::owning), whose copy copies the leaf and whose move transfers it.

#include <bifrons/pointers.hpp>

#include <cstdint>
#include <utility>

namespace bifrons_test::owning_types {

struct Leaf {
  std::int32_t v = 0;
};

/// Owns a Leaf through an owning raw pointer; copy and move transfer it.
struct Own {
  Leaf* p = nullptr;
  Own() = default;
  Own(const Own& o) : p(o.p ? new Leaf(*o.p) : nullptr) {}
  Own(Own&& o) noexcept : p(std::exchange(o.p, nullptr)) {}
  Own& operator=(Own o) noexcept {
    std::swap(p, o.p);
    return *this;
  }
  ~Own() { delete p; }
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::owning(p));
  }
};

}  // namespace bifrons_test::owning_types
