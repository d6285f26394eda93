// Two versions of one struct talk to each other in both directions, with no version numbers.
#include <bifrons/bifrons.hpp>

#include <cstdio>

namespace v1 {
struct Settings {
  std::string name;
  std::int32_t retries = 3;
};
}  // namespace v1

namespace v2 {
struct Settings {
  std::string name;
  std::int32_t retries = 3;
  double timeout_seconds = 2.5;  // appended in version 2
  std::vector<std::string> tags;  // appended in version 2
};
}  // namespace v2

int main() {
  // New program reads what the old one wrote: the appended fields get their defaults.
  const auto old_bytes = bifrons::to_bytes(v1::Settings{"old", 5});
  const auto upgraded = bifrons::from_bytes<v2::Settings>(old_bytes);

  // Old program reads what the new one wrote: it skips the fields it does not know.
  const auto new_bytes = bifrons::to_bytes(v2::Settings{"new", 7, 9.0, {"a", "b"}});
  const auto downgraded = bifrons::from_bytes<v1::Settings>(new_bytes);

  std::printf("upgraded: %s %d %.1f; downgraded: %s %d\n", upgraded.name.c_str(), upgraded.retries,
              upgraded.timeout_seconds, downgraded.name.c_str(), downgraded.retries);
  return upgraded.retries == 5 && upgraded.timeout_seconds == 2.5 && upgraded.tags.empty() &&
                 downgraded.name == "new" && downgraded.retries == 7
             ? 0
             : 1;
}
