// expect: bifrons: this aggregate has more than 64 members
// Reflection visits at most 64 members (detail/visit_members.hpp); the message gives the number.
#include <bifrons/core.hpp>

struct Wide {
  int m0 = 0;
  int m1 = 0;
  int m2 = 0;
  int m3 = 0;
  int m4 = 0;
  int m5 = 0;
  int m6 = 0;
  int m7 = 0;
  int m8 = 0;
  int m9 = 0;
  int m10 = 0;
  int m11 = 0;
  int m12 = 0;
  int m13 = 0;
  int m14 = 0;
  int m15 = 0;
  int m16 = 0;
  int m17 = 0;
  int m18 = 0;
  int m19 = 0;
  int m20 = 0;
  int m21 = 0;
  int m22 = 0;
  int m23 = 0;
  int m24 = 0;
  int m25 = 0;
  int m26 = 0;
  int m27 = 0;
  int m28 = 0;
  int m29 = 0;
  int m30 = 0;
  int m31 = 0;
  int m32 = 0;
  int m33 = 0;
  int m34 = 0;
  int m35 = 0;
  int m36 = 0;
  int m37 = 0;
  int m38 = 0;
  int m39 = 0;
  int m40 = 0;
  int m41 = 0;
  int m42 = 0;
  int m43 = 0;
  int m44 = 0;
  int m45 = 0;
  int m46 = 0;
  int m47 = 0;
  int m48 = 0;
  int m49 = 0;
  int m50 = 0;
  int m51 = 0;
  int m52 = 0;
  int m53 = 0;
  int m54 = 0;
  int m55 = 0;
  int m56 = 0;
  int m57 = 0;
  int m58 = 0;
  int m59 = 0;
  int m60 = 0;
  int m61 = 0;
  int m62 = 0;
  int m63 = 0;
  int m64 = 0;
};

int main() {
  const Wide w{};
  return static_cast<int>(bifrons::to_bytes(w).size());  // offending line
}
