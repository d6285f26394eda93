// <bifrons/class_version.hpp>: a class version declared outside the class, for classes with free
// hooks (cereal's CEREAL_CLASS_VERSION); and BIFRONS_NVP (fields.hpp), a field named as spelled.
#include <bifrons/class_version.hpp>
#include <bifrons/schema.hpp>

#include <cstdint>
#include <string>

#include "types/test_support.hpp"

namespace vendor {  // a type whose class cannot be edited: free hooks and an outside version
struct Temperature {
  double celsius = 0;
};
template <class Archive>
void serialize(Archive& ar, Temperature& t, std::uint32_t version) {
  ar(BIFRONS_NVP(t.celsius));
  if constexpr (Archive::is_loading) {
    if (version < 2) t.celsius = (t.celsius - 32) * 5 / 9;  // version 1 stored Fahrenheit
  }
}
struct Unversioned {
  std::int32_t x = 0;
};
template <class Archive>
void serialize(Archive& ar, Unversioned& u) {
  ar(BIFRONS_NVP(u.x));
}
}  // namespace vendor

BIFRONS_CLASS_VERSION(vendor::Temperature, 2);

namespace bifrons_test {
namespace {

TEST(ClassVersion, DeclaredOutsideTheClassIsWrittenAndSeenByTheHook) {
  static_assert(bifrons::detail::has_class_version<vendor::Temperature>);
  static_assert(bifrons::detail::class_version<vendor::Temperature>() == 2);
  static_assert(!bifrons::detail::has_class_version<vendor::Unversioned>);
  // Header (9 << 1) | 1 = 13, version 02, then the double.
  EXPECT_EQ(hex_of(vendor::Temperature{1.5}), "13 02 00 00 00 00 00 00 f8 3f");
  EXPECT_EQ(bifrons::from_bytes<vendor::Temperature>(bifrons::to_bytes(vendor::Temperature{21.5})).celsius, 21.5);
  // Version 1 data (212 F): the hook converts it.
  const bytes v1 = B({0x13, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x6a, 0x40});
  EXPECT_EQ(bifrons::from_bytes<vendor::Temperature>(v1).celsius, 100.0);
  EXPECT_NE(bifrons::schema<vendor::Temperature>().find("\"version\": 2"), std::string::npos);
}

TEST(ClassVersion, NvpNamesAFieldAsItIsSpelled) {
  const std::string schema = bifrons::schema<vendor::Unversioned>();
  EXPECT_NE(schema.find("\"name\": \"u.x\""), std::string::npos) << schema;
  EXPECT_EQ(hex_of(vendor::Unversioned{3}), "02 06");  // the name is not in the bytes
}

}  // namespace
}  // namespace bifrons_test
