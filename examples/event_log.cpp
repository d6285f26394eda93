// A log of events (<bifrons/log.hpp>): appended with a durability policy, read back one message
// at a time, a crash's torn tail reported by the reader and cut by the next appender.
#include <bifrons/bifrons.hpp>
#include <bifrons/log.hpp>

#include <cstdio>
#include <filesystem>

struct Event {
  std::uint64_t sequence = 0;
  std::string kind;
  double value = 0;
};

int main() {
  const auto path = std::filesystem::temp_directory_path() / "bifrons-example-events.log";
  std::filesystem::remove(path);
  {
    bifrons::log_appender<Event> log(path, {.policy = bifrons::durability::fsync_batch});
    for (std::uint64_t i = 0; i < 1000; ++i) log.append(Event{i, "tick", 0.5 * static_cast<double>(i)});
    log.commit();  // the batch is on the device
  }
  // Seven bytes more stand for a crash that left the start of a record behind.
  std::filesystem::resize_file(path, std::filesystem::file_size(path) + 7);

  bifrons::log_reader<Event> in(path);
  std::uint64_t count = 0;
  for (Event e; in.next(e);) count += e.sequence == count ? 1 : 0;
  if (!in.ok()) {
    std::printf("%s at byte %llu\n", bifrons::describe(in.status().code),
                static_cast<unsigned long long>(in.status().offset));
    return 1;
  }
  std::printf("%llu events, torn tail of %llu bytes at %llu\n", static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(in.status().torn_tail_bytes),
              static_cast<unsigned long long>(in.status().offset));

  bifrons::log_appender<Event> more(path);  // cuts the torn tail, then appends
  more.append(Event{count, "restart", 0});
  const bool cut = more.torn_tail_cut() == 7;
  more.close();
  std::filesystem::remove(path);
  return count == 1000 && in.status().torn_tail_bytes == 7 && cut ? 0 : 1;
}
