// expect: no_such_symbol_bifrons
// errors: any
// Self-test of the compile-fail mechanism (tests/compile_fail/check.cmake):
// this file must fail to compile, and the diagnostic must name the
// undeclared identifier below. If this test fails, the harness is broken,
// not the library.

int main() { return no_such_symbol_bifrons; }
