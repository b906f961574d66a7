#include "../TestSupport.h"

#include "ir-sanitize/Support/ProcessHooks.h"

#include "llvm/Support/CrashRecoveryContext.h"

#include <cstdlib>

using namespace llvm;
using namespace irs;

namespace {

/// Restores the hooks in force when it was made.
struct SavedHooks {
  ProcessHooks Saved = processHooks();
  ~SavedHooks() {
    setProcessHooks(Saved);
    if (!Saved.RecoverFromReaderCrashes)
      CrashRecoveryContext::Disable();
  }
};

} // namespace

TEST_CASE("setProcessHooks sets the hooks processHooks reads back",
          "[ProcessHooks]") {
  SavedHooks Restore;
  ProcessHooks H;
  H.SetDebugInfoWriterOptions = true;
  H.ToolName = "ir-sanitize";
  H.VerifyBitcodeBeforeUpgrade = true;
  H.RemoveTemporariesOnSignal = true;
  H.KillChildrenOnInterrupt = true;
  setProcessHooks(H);
  const ProcessHooks &Now = processHooks();
  CHECK(Now.SetDebugInfoWriterOptions);
  CHECK(Now.ToolName == "ir-sanitize");
  CHECK(Now.VerifyBitcodeBeforeUpgrade);
  CHECK(Now.RemoveTemporariesOnSignal);
  CHECK(Now.KillChildrenOnInterrupt);
  CHECK_FALSE(Now.RecoverFromReaderCrashes);
  // A copy: changing the caller's struct afterwards changes nothing.
  H.ToolName = "other";
  CHECK(processHooks().ToolName == "ir-sanitize");
  // Setting them again replaces them all: off is the default.
  setProcessHooks(ProcessHooks());
  CHECK_FALSE(processHooks().SetDebugInfoWriterOptions);
  CHECK(processHooks().ToolName.empty());
  CHECK_FALSE(processHooks().SetLLVMOption);
  CHECK_FALSE(processHooks().KillChildrenOnInterrupt);
}

TEST_CASE("RecoverFromReaderCrashes turns LLVM's crash recovery on",
          "[ProcessHooks]") {
  SavedHooks Restore;
  ProcessHooks H;
  H.RecoverFromReaderCrashes = true;
  setProcessHooks(H);
  CHECK(processHooks().RecoverFromReaderCrashes);
  // With recovery on, a crash inside a recovery context returns false
  // there; without it, abort() would end this test program.
  CrashRecoveryContext CRC;
  CHECK_FALSE(CRC.RunSafely([] { std::abort(); }));
}
