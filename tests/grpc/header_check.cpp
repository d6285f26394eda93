// <bifrons/grpc.hpp> compiles on its own (tests/CMakeLists.txt's header check leaves it out: it
// needs gRPC).
#include <bifrons/grpc.hpp>
