#include "ToolHooks.h"

#include "llvm/Support/CommandLine.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

static cl::opt<bool> TestFlag("irs-tool-hooks-test-flag", cl::init(false),
                              cl::Hidden);

TEST_CASE("setLLVMOption sets a registered option, and no other",
          "[ToolHooks]") {
  REQUIRE_FALSE(TestFlag);
  tools::setLLVMOption("irs-tool-hooks-test-flag", true);
  CHECK(TestFlag);
  tools::setLLVMOption("irs-tool-hooks-test-flag", false);
  CHECK_FALSE(TestFlag);
  tools::setLLVMOption("irs-no-such-option", true); // nothing happens
}

TEST_CASE("a process owner's hooks are all on, with the tools' mechanisms",
          "[ToolHooks]") {
  ProcessHooks H = tools::processOwnerHooks("ir-sanitize");
  CHECK(H.ToolName == "ir-sanitize");
  CHECK(H.SetLLVMOption == &tools::setLLVMOption);
  CHECK(H.GuardBitcodeParse == &tools::exitOnFatalParseError);
  CHECK(H.SetDebugInfoWriterOptions);
  CHECK(H.VerifyBitcodeBeforeUpgrade);
  CHECK(H.RemoveTemporariesOnSignal);
  CHECK(H.KillChildrenOnInterrupt);
  CHECK(H.CleanUpAfterKill);
  CHECK(H.RecoverFromReaderCrashes);
}

TEST_CASE("the parse guard runs the parse it is given", "[ToolHooks]") {
  bool Ran = false;
  tools::exitOnFatalParseError("in.bc", [&] { Ran = true; });
  CHECK(Ran);
}
