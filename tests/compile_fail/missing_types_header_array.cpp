// expect: bifrons: std::array needs #include <bifrons/types/array.hpp>
// std::array is an aggregate: without its header it would otherwise be written as a struct.
#include <bifrons/core.hpp>

#include <array>

int main() { return static_cast<int>(bifrons::to_bytes(std::array<int, 2>{1, 2}).size()); }
