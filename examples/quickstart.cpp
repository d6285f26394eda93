// The README's first example: aggregates need no code.
#include <bifrons/bifrons.hpp>

#include <cstdio>

struct Order {
  std::int32_t id;
  std::string symbol;
  double price = 0;
};

struct Account {
  std::int32_t id;
  std::string name;
  std::vector<Order> orders;
};

int main() {
  const Account account{1, "Test", {{1, "EURUSD", 1.23456}, {2, "GBPUSD", 1.5}}};

  std::vector<std::byte> bytes = bifrons::to_bytes(account);
  Account copy = bifrons::from_bytes<Account>(bytes);

  std::printf("%zu bytes, %zu orders, first symbol %s\n", bytes.size(), copy.orders.size(),
              copy.orders[0].symbol.c_str());
  return copy.id == 1 && copy.name == "Test" && copy.orders.size() == 2 && copy.orders[1].price == 1.5 ? 0 : 1;
}
