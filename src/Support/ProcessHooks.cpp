//===- ProcessHooks.cpp ---------------------------------------------------===//
#include "ir-sanitize/Support/ProcessHooks.h"

#include "llvm/Support/CrashRecoveryContext.h"

namespace irs {

static ProcessHooks &hooks() {
  static ProcessHooks Hooks;
  return Hooks;
}

void setProcessHooks(const ProcessHooks &Hooks) {
  hooks() = Hooks;
  if (Hooks.RecoverFromReaderCrashes)
    llvm::CrashRecoveryContext::Enable();
}

const ProcessHooks &processHooks() { return hooks(); }

void setLLVMOptionIfAllowed(llvm::StringRef Name, bool Value) {
  if (hooks().SetLLVMOption)
    hooks().SetLLVMOption(Name, Value);
}

} // namespace irs
