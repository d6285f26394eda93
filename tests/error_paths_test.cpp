// BIFRONS_ERROR_PATHS (detail/paths.hpp, config.hpp): a failed read names the field path and
// the C++ type where it failed. This executable is built with BIFRONS_ERROR_PATHS=1 (and without
// the shared precompiled header, which is built without it); every other test runs without it.
#if !BIFRONS_ERROR_PATHS
#error "tests/CMakeLists.txt builds error_paths_test with BIFRONS_ERROR_PATHS=1"
#endif
#include <bifrons/bifrons.hpp>
#include <bifrons/frame.hpp>   // these two describe types with type_names.hpp, which the paths
#include <bifrons/schema.hpp>  // share: a program built with error paths includes both

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "types/test_support.hpp"

namespace bifrons_test::paths {  // a named namespace: the names in the paths are the same for every compiler

namespace v2 {
struct Item {
  std::int32_t id = 0;
  std::uint16_t count = 0;
};
struct Inventory {
  std::uint32_t capacity = 0;
  std::vector<Item> items;
};
struct GameSave {
  std::string player;
  Inventory inventory;
};
}  // namespace v2

struct Item {
  std::int32_t id = 0;
  std::uint8_t count = 0;  // v2 widened it: a count over 255 does not fit
};
struct Inventory {
  std::uint32_t capacity = 0;
  std::vector<Item> items;
};
struct GameSave {
  std::string player;
  Inventory inventory;
};

/// Fields of a hook have positions, not names.
struct Hooked {
  std::int32_t a = 0;
  bool flag = false;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(a, flag);
  }
};

/// A hook that names its fields, over a base.
struct Named : Hooked {
  std::int32_t flags = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bifrons::base<Hooked>(*this), bifrons::named("flags", flags));
  }
};
struct Spot {
  std::int32_t x = 0;
};

}  // namespace bifrons_test::paths

namespace bifrons_test {
namespace {

using bifrons::errc;
using namespace paths;

TEST(ErrorPaths, NameTheFieldAndTheType) {
  const bytes b = bifrons::to_bytes(v2::GameSave{"p", {10, {{1, 2}, {3, 4}, {5, 6}, {7, 300}}}});
  const auto r = bifrons::try_from_bytes<GameSave>(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::value_out_of_range);
  EXPECT_EQ(r.offset(), 17u);
  EXPECT_EQ(r.path(), "bifrons_test::paths::GameSave.inventory.items[3].count");
  EXPECT_EQ(r.type_name(), "unsigned char");
  EXPECT_EQ(r.message(),
            "bifrons: value out of range for the target type at byte 17 in "
            "bifrons_test::paths::GameSave.inventory.items[3].count (unsigned char)");
  try {
    (void)bifrons::from_bytes<GameSave>(b);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.path(), r.path());
    EXPECT_EQ(e.type_name(), r.type_name());
    EXPECT_EQ(std::string(e.what()), r.message());
  }
  // Into an existing object, and through a reader: the same path.
  GameSave existing{"x", {1, {{9, 9}}}};
  try {
    bifrons::from_bytes(b, existing);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.path(), r.path());
  }
  bifrons::reader reader(b);
  try {
    reader(existing);
    ADD_FAILURE() << "no exception";
  } catch (const bifrons::error& e) {
    EXPECT_EQ(e.path(), r.path());
  }
}

TEST(ErrorPaths, HookFieldsMapKeysAndTopLevelValues) {
  // A hook's second field (bool 07) in the first element of a map's value.
  const bytes b = B({0x01, 0x01, 0x61, 0x01, 0x04, 0x02, 0x07});
  const auto r = bifrons::try_from_bytes<std::map<std::string, std::vector<Hooked>>>(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::invalid_value);
  EXPECT_EQ(r.offset(), 6u);
  EXPECT_EQ(r.path().substr(r.path().find('[')), "[0][0].#1");  // the map's element, the vector's
  EXPECT_EQ(r.type_name(), "bool");
  // A top-level scalar: its own type, no field.
  // (As the compiler spells it: clang prints libc++'s preferred name of the type.)
  const auto s = bifrons::try_from_bytes<std::string>(B({0x05}));
  const auto is_string = [](std::string_view name) {
    return name == "std::basic_string<char>" || name == "std::string";
  };
  EXPECT_TRUE(is_string(s.path())) << s.path();
  EXPECT_TRUE(is_string(s.type_name())) << s.type_name();
  // A read that succeeds has none.
  EXPECT_EQ(bifrons::try_from_bytes<std::string>(B({0x00})).path(), "");
}

TEST(ErrorPaths, FramedValuesAndSchemasInAProgramWithErrorPaths) {
  const bytes framed = bifrons::to_framed(Spot{3});
  EXPECT_EQ(bifrons::from_framed<Spot>(framed).x, 3);
  EXPECT_NE(bifrons::schema<Spot>().find("\"x\""), std::string::npos);
  // A failed framed read: the path, and the offset from the frame's first byte.
  const bytes unframed = bifrons::to_bytes(v2::GameSave{"p", {10, {{7, 300}}}});
  bytes wrong = bifrons::to_framed(GameSave{});
  const std::size_t frame_size = wrong.size() - bifrons::to_bytes(GameSave{}).size();
  wrong.resize(frame_size);
  wrong.insert(wrong.end(), unframed.begin(), unframed.end());
  const auto r = bifrons::try_from_framed<GameSave>(wrong);
  const auto plain = bifrons::try_from_bytes<GameSave>(unframed);
  ASSERT_FALSE(r);
  ASSERT_FALSE(plain);
  EXPECT_EQ(r.path(), "bifrons_test::paths::GameSave.inventory.items[0].count");
  EXPECT_EQ(r.offset(), plain.offset() + frame_size);
}

TEST(ErrorPaths, NamedHookFieldsAndBasesAreNamedInThePath) {
  // Named: its envelope, the base's envelope (a, flag = 07: invalid), flags.
  const auto r = bifrons::try_from_bytes<Named>(B({0x08, 0x04, 0x02, 0x07, 0x02}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code(), errc::invalid_value);
  EXPECT_EQ(r.path(), "bifrons_test::paths::Named.#0.#1") << r.path();
  const auto flags = bifrons::try_from_bytes<Named>(B({0x08, 0x04, 0x02, 0x01, 0x80}));
  ASSERT_FALSE(flags);
  EXPECT_EQ(flags.path(), "bifrons_test::paths::Named.flags") << flags.path();
  EXPECT_EQ(flags.type_name(), "int");
}

TEST(ErrorPaths, AReadRetriedFromDefaultsReportsTheRetrysPath) {
  // Read into a reused object whose data lacks `count`: read again from defaults, and the path
  // of the first pass's failure does not leak into a successful read.
  Item existing{5, 5};
  bifrons::from_bytes(B({0x02, 0x02}), existing);
  EXPECT_EQ(existing.id, 1);
  EXPECT_EQ(existing.count, 0);
}

}  // namespace
}  // namespace bifrons_test
