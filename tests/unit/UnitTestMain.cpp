#define CATCH_CONFIG_RUNNER
#include "CatchCompat.h"
#include "TestSupport.h"

#include "llvm/ADT/Statistic.h"

#include <cstdlib>

namespace {

/// Tells the tests which test case runs (for IRS_SKIP) and counts them.
using ListenerBase = irs::test::CatchListenerBase;
unsigned TestCasesRun = 0;

struct SkipListener : ListenerBase {
  using ListenerBase::ListenerBase;
  void testCaseStarting(Catch::TestCaseInfo const &Info) override {
    irs::test::currentTestCase() = Info.name;
    ++TestCasesRun;
  }
};

} // namespace

CATCH_REGISTER_LISTENER(SkipListener)

int main(int argc, char **argv) {
#ifdef IRS_CHILD_ASAN_OPTIONS
  // Sanitizer build: this process read ASAN_OPTIONS (leaks checked) when it
  // started. The opt processes it runs Enzyme in inherit the preloaded
  // runtime (they load instrumented plugins) but their exit-time leaks are
  // not ours, so children see leak checking off.
  setenv("ASAN_OPTIONS", IRS_CHILD_ASAN_OPTIONS, 1);
#endif
  // Statistics on from the start: LLVM registers a counter at its first
  // increment only while they are enabled, and never again after, so one
  // bumped first by another test would be missing from the statistics test
  // when both run in this process.
  llvm::EnableStatistics(/*DoPrintOnExit=*/false);
  int Failed = Catch::Session().run(argc, argv);
  size_t Skipped = irs::test::skippedTestCases().size();
  if (Failed != 0 || Skipped == 0)
    return Failed;
  llvm::errs() << Skipped << " of " << TestCasesRun
               << " test cases skipped (SKIPPED lines above)\n";
  // ctest runs one test case at a time: a skipped one is reported skipped.
  return Skipped == TestCasesRun ? irs::test::SkipExitCode : 0;
}
