// expect: bifrons: std::vector needs #include <bifrons/types/vector.hpp>
// core.hpp alone has no codec for std::vector: the refusal names the header to include.
#include <bifrons/core.hpp>

#include <vector>

int main() { return static_cast<int>(bifrons::to_bytes(std::vector<int>{1, 2}).size()); }
