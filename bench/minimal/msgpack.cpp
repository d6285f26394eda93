// Minimal save+load program: its size is msgpack-c's (C++ API) footprint in
// an executable.
#define MSGPACK_NO_BOOST
#include <msgpack.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct Record {
  std::int32_t id;
  std::string name;
  std::vector<double> values;
  friend bool operator==(const Record&, const Record&) = default;
  MSGPACK_DEFINE(id, name, values);
};

int main() {
  const Record in{7, "minimal", {1.5, 2.5}};
  msgpack::sbuffer buffer;
  msgpack::pack(buffer, in);
  const msgpack::object_handle handle = msgpack::unpack(buffer.data(), buffer.size());
  return handle.get().as<Record>() == in ? 0 : 1;
}
