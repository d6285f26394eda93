// bench_instruction_window, alone in its file: a call from the file that defines a function lets
// the compiler clone it for that call's arguments (GCC's IPA-CP does at -O3, into
// bench_instruction_window.constprop.0), and callgrind, told to count inside the function of this
// name, would then miss that window. Every caller is in another file (main.cpp, the adapters).
#include <cstddef>

#include "harness.hpp"

extern "C" [[gnu::noinline]] void bench_instruction_window(void (*op)(void*), void* context, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k) op(context);
}
