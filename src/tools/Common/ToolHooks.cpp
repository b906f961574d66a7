//===- ToolHooks.cpp - What a program that owns its process lets happen ---===//
#include "ToolHooks.h"

#include "ir-sanitize/Support/ExitCode.h"
#include "ir-sanitize/Support/Messages.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace irs::tools {

void setLLVMOption(StringRef Name, bool Value) {
  // A StringMap up to LLVM 21, a DenseMap keyed by name from 22.
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find(Name);
  if (It != Opts.end())
    It->second->addOccurrence(0, Name, Value ? "true" : "false");
}

void exitOnFatalParseError(StringRef FileName, function_ref<void()> Parse) {
  // The handler is a plain function: it finds its prefix here.
  static std::string Prefix;
  Prefix =
      processHooks().ToolName + ": error: " + FileName.str() + ": invalid IR: ";
  ScopedFatalErrorHandler Handler([](void *, const char *Reason, bool) {
    errs() << Prefix << firstLine(Reason) << "\n";
    sys::Process::Exit(static_cast<int>(ExitCode::BadInput));
  });
  Parse();
}

ProcessHooks processOwnerHooks(StringRef ToolName) {
  ProcessHooks Hooks;
  Hooks.ToolName = ToolName.str();
  Hooks.SetLLVMOption = setLLVMOption;
  Hooks.SetDebugInfoWriterOptions = true;
  Hooks.GuardBitcodeParse = exitOnFatalParseError;
  Hooks.VerifyBitcodeBeforeUpgrade = true;
  Hooks.RemoveTemporariesOnSignal = true;
  Hooks.KillChildrenOnInterrupt = true;
  Hooks.CleanUpAfterKill = true;
  Hooks.RecoverFromReaderCrashes = true;
  return Hooks;
}

} // namespace irs::tools
