// Several values in one stream, over a byte container and over iostreams.
#include <bifrons/bifrons.hpp>

#include <cstdio>
#include <sstream>

struct Header {
  std::uint32_t kind;
  std::uint64_t sequence;
};

int main() {
  std::vector<std::byte> buffer;
  bifrons::writer w(buffer);
  w(Header{1, 42}, std::string("payload"), std::vector<double>{1.5, 2.5});

  bifrons::reader r(buffer);
  Header h{};
  std::string payload;
  std::vector<double> numbers;
  r(h, payload, numbers);

  std::stringstream stream;
  bifrons::writer ws(stream);
  ws(h, payload);
  bifrons::reader rs(stream);
  Header h2{};
  std::string payload2;
  rs(h2, payload2);

  std::printf("kind %u seq %llu payload %s, %zu numbers, stream done: %d\n", h.kind,
              static_cast<unsigned long long>(h.sequence), payload.c_str(), numbers.size(), rs.done());
  return r.done() && rs.done() && h.sequence == 42 && numbers[1] == 2.5 && h2.sequence == 42 && payload2 == "payload"
             ? 0
             : 1;
}
