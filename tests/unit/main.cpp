#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

int main(int argc, char **argv) {
#ifdef IRS_CHILD_ASAN_OPTIONS
  // Sanitizer build: this process read ASAN_OPTIONS (leaks checked) when it
  // started. The opt processes it runs Enzyme in inherit the preloaded
  // runtime (they load instrumented plugins) but their exit-time leaks are
  // not ours, so children see leak checking off.
  setenv("ASAN_OPTIONS", IRS_CHILD_ASAN_OPTIONS, 1);
#endif
  return Catch::Session().run(argc, argv);
}
