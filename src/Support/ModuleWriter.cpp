//===- ModuleWriter.cpp - Writing modules safely --------------------------===//
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace irs {
namespace {

/// Puts \p M into the debug-info form the output must use.
void applyDebugInfoForm(Module &M, DebugInfoForm Form) {
  if (!compat::HasBothDebugForms)
    return;
  // LLVM 19/20 hold either form in memory; the printer writes what it holds
  // unless told otherwise, so set both the module and the writer flags.
  bool Records = Form != DebugInfoForm::Intrinsics;
  compat::convertDebugValues(M, Records);
  if (processHooks().SetDebugInfoWriterOptions)
    setLLVMOptionIfAllowed("write-experimental-debuginfo", Records);
}

/// Bitcode from LLVM 19+ is only read by LLVM 19+, so it always holds debug
/// records; like BitcodeWriterPass, drop the then unused intrinsic
/// declarations, which otherwise make the reader crash while upgrading them.
void prepareForBitcode(Module &M) {
  if (!compat::HasBothDebugForms)
    return;
  compat::convertDebugValues(M, /*Records=*/true);
  compat::removeDebugIntrinsicDeclarations(M);
  if (processHooks().SetDebugInfoWriterOptions)
    setLLVMOptionIfAllowed("write-experimental-debuginfo-iterators-to-bitcode",
                           true);
}

/// The first call that passes `metadata` as a variadic argument (Enzyme's
/// `__enzyme_fwddiff(f, metadata !"enzyme_dup", ...)` markers). LLVM's
/// bitcode writer stores such an argument as a reference to some unrelated
/// value, so the module read back differs silently.
const CallBase *findMetadataVarArg(const Module &M) {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !CB->getFunctionType()->isVarArg())
        continue;
      unsigned Fixed = CB->getFunctionType()->getNumParams();
      for (unsigned A = Fixed, E = CB->arg_size(); A != E; ++A)
        if (CB->getArgOperand(A)->getType()->isMetadataTy())
          return CB;
    }
  return nullptr;
}

} // namespace

bool bitcodeCanHold(const Module &M) { return !findMetadataVarArg(M); }

namespace {

/// Refuses bitcode that LLVM would write wrongly (see findMetadataVarArg).
Error checkBitcodeCanHold(const Module &M, StringRef Path) {
  const CallBase *CB = findMetadataVarArg(M);
  if (!CB)
    return Error::success();
  const Function *Callee = CB->getCalledFunction();
  std::string What = Callee ? ("@" + Callee->getName()).str() : "a pointer";
  return makeToolError(
      ExitCode::OutputError,
      Path +
          ": cannot write output: bitcode cannot hold the metadata "
          "arguments of the varargs call to " +
          What + " in @" + CB->getFunction()->getName() +
          " (LLVM writes them as other values); write text (.ll) instead");
}

} // namespace

std::optional<IRFormat> parseIRFormat(StringRef Name) {
  if (Name == "ll")
    return IRFormat::Text;
  if (Name == "bc")
    return IRFormat::Bitcode;
  return std::nullopt;
}

IRFormat outputFormatFor(StringRef Path, std::optional<IRFormat> Emit) {
  if (Emit)
    return *Emit;
  return Path.ends_with(".bc") ? IRFormat::Bitcode : IRFormat::Text;
}
std::string debugInfoFormWarning(const Module &M, DebugInfoForm DbgForm) {
  // LLVM 21+ only writes debug records (LLVM < 19 only intrinsics).
  if (!IRS_LLVM_WRITES_DEBUG_INTRINSICS &&
      DbgForm == DebugInfoForm::Intrinsics && M.getNamedMetadata("llvm.dbg.cu"))
    return (M.getModuleIdentifier() +
            ": the input holds llvm.dbg.* calls, but this build (LLVM " +
            Twine(LLVM_VERSION_MAJOR) +
            ") writes #dbg_ records, which LLVM 18 (Julia 1.12) cannot "
            "read; use the LLVM 19 build for output that goes back to Julia")
        .str();
  return "";
}

OutputFile moduleOutput(Module &M, StringRef Path, IRFormat Format,
                        DebugInfoForm DbgForm) {
  std::string P = Path.str();
  return {P, [&M, P, Format, DbgForm](raw_ostream &OS) -> Error {
            if (Error E = verifyModuleOrError(M, "the rewritten module"))
              return E;
            if (Format == IRFormat::Bitcode)
              if (Error E = checkBitcodeCanHold(M, P))
                return E;
            if (Format == IRFormat::Text)
              applyDebugInfoForm(M, DbgForm);
            else
              prepareForBitcode(M);
            if (Format == IRFormat::Bitcode)
              WriteBitcodeToFile(M, OS);
            else
              M.print(OS, nullptr);
            return Error::success();
          }};
}

Error writeModule(Module &M, StringRef Path, IRFormat Format,
                  DebugInfoForm DbgForm) {
  return writeOutputsTogether({moduleOutput(M, Path, Format, DbgForm)});
}

} // namespace irs
