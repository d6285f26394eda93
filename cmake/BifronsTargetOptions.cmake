# bifrons_target_options(<target>)
#
# Compile/link settings (GCC/Clang flags) for bifrons' *own* targets: tests,
# examples and benchmarks. Never applied to the bifrons INTERFACE library, so
# consumers do not inherit our warning policy or instrumentation.
#
#   BIFRONS_WERROR        -Werror (OFF by default; every preset turns it on)
#   BIFRONS_SANITIZE      AddressSanitizer + UndefinedBehaviorSanitizer, and
#                         any sanitizer report aborts (no recovery)
#   BIFRONS_NO_EXCEPTIONS -fno-exceptions
#   BIFRONS_COVERAGE      gcov/llvm-cov instrumentation (--coverage)
function(bifrons_target_options target)
  # Plain -std=c++20, not gnu++20: do not rely on GNU extensions.
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)

  # Implicit narrowing and sign changes are warnings too: the library converts between wire
  # and host widths on purpose only, with a cast that says so.
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion)
  if(BIFRONS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()

  if(BIFRONS_SANITIZE)
    set(_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
    target_compile_options(${target} PRIVATE ${_flags})
    target_link_options(${target} PRIVATE ${_flags})
  endif()

  if(BIFRONS_NO_EXCEPTIONS)
    target_compile_options(${target} PRIVATE -fno-exceptions)
  endif()

  if(BIFRONS_COVERAGE)
    target_compile_options(${target} PRIVATE --coverage)
    target_link_options(${target} PRIVATE --coverage)
  endif()
endfunction()
