//===- ModuleFuzzer.cpp - Modules through the sanitize steps --------------===//
//
// The input is a module in text or bitcode (readModule tells them apart by
// the magic, as the tool does). A module the reader accepts goes through
// the tool's sanitize pipeline with the default settings (bundle
// normalisation, then the kernel splat); the result must still pass the
// verifier, as the tool requires before it writes anything. Rejections are
// fine; crashes, hangs, sanitizer reports and a broken result are findings.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "ToolHooks.h"

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ProcessHooks.h"

#include "llvm/IR/LLVMContext.h"

#include <sanitizer/lsan_interface.h>

using namespace llvm;

// The fuzzer owns its process, as the tool does: bitcode is verified before
// its debug info is upgraded, so a broken module is rejected, not an abort,
// and a crash inside LLVM's bitcode reader is a rejection too.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  irs::ProcessHooks Hooks;
  Hooks.SetLLVMOption = irs::tools::setLLVMOption;
  Hooks.VerifyBitcodeBeforeUpgrade = true;
  Hooks.RecoverFromReaderCrashes = true;
  irs::setProcessHooks(Hooks);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Path = irs::fuzz::writeScratchFile(Data, Size, ".ll");
  LLVMContext Ctx;
  Expected<irs::LoadedModule> LM = [&] {
    // LLVM 19's bitcode reader leaks on some malformed input (placeholder
    // values and their names, on its error paths): not ours, so what it
    // allocates is not leak-checked. Everything after reading is.
    __lsan::ScopedDisabler NotLeakChecked;
    return irs::readModule(Path, Ctx);
  }();
  if (!LM) {
    consumeError(LM.takeError());
    return 0;
  }
  Module &M = *LM->M;
  Expected<irs::SanitizeResult> Result = irs::sanitizeModule(M, {});
  if (!Result)
    irs::fuzz::fail("sanitizing failed: " + toString(Result.takeError()));
  if (std::optional<std::string> Problem = irs::verifierProblem(M))
    irs::fuzz::fail("a valid module came out broken: " + *Problem);
  return 0;
}
