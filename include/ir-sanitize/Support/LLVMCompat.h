//===- LLVMCompat.h - The one place that knows LLVM versions ----*- C++ -*-===//
//
// ir-sanitize builds against LLVM 16 (Julia 1.11), 18 (Julia 1.12), 19 and
// 22 (Julia master), and against Julia's own LLVM through -DLLVM_DIR. Every
// difference between those LLVMs is a shim here, so the rest of the code
// never tests LLVM_VERSION_MAJOR.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_LLVMCOMPAT_H
#define IR_SANITIZE_SUPPORT_LLVMCOMPAT_H

#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <optional>
#include <string>

/// The header that declares llvm::PassPluginLibraryInfo, for
/// `#include IRS_PASS_PLUGIN_HEADER` (LLVM 22 moved it out of Passes/).
#if LLVM_VERSION_MAJOR >= 22
#define IRS_PASS_PLUGIN_HEADER "llvm/Plugins/PassPlugin.h"
#else
#define IRS_PASS_PLUGIN_HEADER "llvm/Passes/PassPlugin.h"
#endif

/// 1 where LLVM has llvm.nvvm.activemask (from 19: llvm-project #79768);
/// before, PTX's activemask.b32 is inline assembly.
#if LLVM_VERSION_MAJOR >= 19
#define IRS_LLVM_HAS_ACTIVEMASK_INTRINSIC 1
#else
#define IRS_LLVM_HAS_ACTIVEMASK_INTRINSIC 0
#endif

/// 1 where the IR writers can still print debug values as llvm.dbg.* calls
/// (LLVM 21 dropped them for #dbg_ records).
#if LLVM_VERSION_MAJOR < 21
#define IRS_LLVM_WRITES_DEBUG_INTRINSICS 1
#else
#define IRS_LLVM_WRITES_DEBUG_INTRINSICS 0
#endif

/// InstCombine in pipeline text without its fixpoint check. From LLVM 18 a
/// textual `instcombine` verifies that one iteration reached a fixpoint and
/// aborts the process (LLVM ERROR) where it did not: a check for LLVM's own
/// tests, met by ordinary kernels (a KernelAbstractions kernel whose sizes
/// are constants). LLVM 16 has neither the check nor the parameter.
#if LLVM_VERSION_MAJOR >= 18
#define IRS_INSTCOMBINE_PASS "instcombine<no-verify-fixpoint>"
#else
#define IRS_INSTCOMBINE_PASS "instcombine"
#endif

namespace irs {
namespace compat {

/// NVPTX's shared-memory (__shared__) address space, which LLVM names only
/// from 20 on (NVPTXAS::ADDRESS_SPACE_SHARED).
inline constexpr unsigned SharedAddressSpace = 3;

/// LLVM 19 and 20 hold debug values in memory either as llvm.dbg.* calls or
/// as #dbg_ records and print whichever the module holds; LLVM < 19 knows
/// only the calls, LLVM 21+ only the records.
/// From LLVM 19 every PassBuilder tells its PassInstrumentationCallbacks
/// the pipeline names of LLVM's pass classes; before, only under opt's
/// printing options (shouldPopulateClassToPassNames), so a printed pipeline
/// said SROAPass for sroa.
constexpr bool PassBuilderNamesLLVMPasses = LLVM_VERSION_MAJOR >= 19;

constexpr bool HasBothDebugForms =
    LLVM_VERSION_MAJOR >= 19 && LLVM_VERSION_MAJOR < 21;

/// The declaration of intrinsic \p ID (overloaded on \p Types, if it is)
/// in \p M, added if missing (LLVM 20 renamed getDeclaration).
inline llvm::Function *
intrinsicDeclaration(llvm::Module &M, llvm::Intrinsic::ID ID,
                     llvm::ArrayRef<llvm::Type *> Types = {}) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::getOrInsertDeclaration(&M, ID, Types);
#else
  return llvm::Intrinsic::getDeclaration(&M, ID, Types);
#endif
}

/// The intrinsic \p Name would be (not_intrinsic if none; LLVM 20 moved the
/// lookup from Function to Intrinsic).
inline llvm::Intrinsic::ID lookupIntrinsicID(llvm::StringRef Name) {
#if LLVM_VERSION_MAJOR >= 20
  return llvm::Intrinsic::lookupIntrinsicID(Name);
#else
  return llvm::Function::lookupIntrinsicID(Name);
#endif
}

/// The trailing zero bits every value of \p S has (LLVM 17 renamed
/// GetMinTrailingZeros).
inline uint32_t minTrailingZeros(llvm::ScalarEvolution &SE,
                                 const llvm::SCEV *S) {
#if LLVM_VERSION_MAJOR >= 17
  return SE.getMinTrailingZeros(S);
#else
  return SE.GetMinTrailingZeros(S);
#endif
}

/// The arguments of SCEVExpander's constructor after SE: LLVM 22 dropped
/// the data layout.
#if LLVM_VERSION_MAJOR >= 22
#define IRS_SCEV_EXPANDER_ARGS(SE, DL, Name) SE, Name
#else
#define IRS_SCEV_EXPANDER_ARGS(SE, DL, Name) SE, DL, Name
#endif

/// Converts \p M's debug values to records (\p Records) or to calls where
/// this LLVM has both forms; elsewhere there is only one form to be in.
inline void convertDebugValues(llvm::Module &M, bool Records) {
#if LLVM_VERSION_MAJOR >= 19 && LLVM_VERSION_MAJOR < 21
  if (Records)
    M.convertToNewDbgValues();
  else
    M.convertFromNewDbgValues();
#else
  (void)M, (void)Records;
#endif
}

/// Drops the then unused llvm.dbg.* declarations of a module held as records.
inline void removeDebugIntrinsicDeclarations(llvm::Module &M) {
#if LLVM_VERSION_MAJOR >= 19 && LLVM_VERSION_MAJOR < 21
  M.removeDebugIntrinsicDeclarations();
#else
  (void)M;
#endif
}

/// Blocks moved between functions must share the debug-info format where
/// LLVM has two of them.
inline void copyDebugInfoFormat(llvm::Function &To,
                                const llvm::Function &From) {
#if LLVM_VERSION_MAJOR >= 19 && LLVM_VERSION_MAJOR < 21
  To.setIsNewDbgInfoFormat(From.IsNewDbgInfoFormat);
#else
  (void)To, (void)From;
#endif
}

/// A function of \p M holding a #dbg_ record without a location, or null.
/// LLVM 19's printer dereferences that location (SlotTracker) when the
/// verifier reports the record, so such a module must not be verified with
/// an output stream (found by the module fuzzer; LLVM 22 prints it; 20 and
/// 21 are not known, so they are treated as 19).
inline const llvm::Function *
functionWithUnlocatedDebugRecord(const llvm::Module &M) {
#if LLVM_VERSION_MAJOR >= 19 && LLVM_VERSION_MAJOR < 22
  for (const llvm::Function &F : M)
    for (const llvm::BasicBlock &BB : F)
      for (const llvm::Instruction &I : BB)
        for (const llvm::DbgRecord &DR : I.getDbgRecordRange())
          if (!DR.getDebugLoc())
            return &F;
#else
  (void)M;
#endif
  return nullptr;
}

/// The module's target triple (a string before LLVM 21).
inline llvm::Triple moduleTriple(const llvm::Module &M) {
  return llvm::Triple(M.getTargetTriple());
}

inline void setModuleTriple(llvm::Module &M, const llvm::Triple &T) {
#if LLVM_VERSION_MAJOR >= 21
  M.setTargetTriple(T);
#else
  M.setTargetTriple(T.str());
#endif
}

/// Where a new instruction goes: before \p It (LLVM 19+ insert at an
/// iterator, which keeps debug records in place; before that, before the
/// instruction: LLVM 18's CallInst::Create takes no iterator). \p It is
/// never a block's end.
#if LLVM_VERSION_MAJOR >= 19
inline llvm::BasicBlock::iterator insertBefore(llvm::BasicBlock::iterator It) {
  return It;
}
#else
inline llvm::Instruction *insertBefore(llvm::BasicBlock::iterator It) {
  return &*It;
}
#endif

/// Byte offset of field \p I (a TypeSize since LLVM 17).
inline uint64_t elementOffset(const llvm::StructLayout &SL, unsigned I) {
#if LLVM_VERSION_MAJOR >= 17
  return SL.getElementOffset(I).getFixedValue();
#else
  return SL.getElementOffset(I);
#endif
}

/// The diagnostic as LLVMContext's handler callback receives it (by pointer
/// since LLVM 19): `[](compat::DiagnosticArg DI, void *) { compat::deref(DI)
/// }`.
#if LLVM_VERSION_MAJOR >= 19
using DiagnosticArg = const llvm::DiagnosticInfo *;
inline const llvm::DiagnosticInfo &deref(DiagnosticArg DI) { return *DI; }
#else
using DiagnosticArg = const llvm::DiagnosticInfo &;
inline const llvm::DiagnosticInfo &deref(DiagnosticArg DI) { return DI; }
#endif

/// addPassesToEmitFile's kind for assembly (an enum class since LLVM 18).
#if LLVM_VERSION_MAJOR >= 18
constexpr llvm::CodeGenFileType AssemblyFile =
    llvm::CodeGenFileType::AssemblyFile;
#else
constexpr llvm::CodeGenFileType AssemblyFile = llvm::CGFT_AssemblyFile;
#endif

/// TargetRegistry::lookupTarget (by triple string before LLVM 22).
inline const llvm::Target *lookupTarget(const llvm::Triple &T,
                                        std::string &Error) {
#if LLVM_VERSION_MAJOR >= 22
  return llvm::TargetRegistry::lookupTarget(T, Error);
#else
  return llvm::TargetRegistry::lookupTarget(T.str(), Error);
#endif
}

/// A target machine at the default code model and relocation model, with
/// codegen optimisation on (\p Optimize) or off.
inline std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const llvm::Target &T, const llvm::Triple &TT,
                    llvm::StringRef CPU, llvm::StringRef Features,
                    bool Optimize) {
#if LLVM_VERSION_MAJOR >= 18
  auto Level =
      Optimize ? llvm::CodeGenOptLevel::Default : llvm::CodeGenOptLevel::None;
#else
  auto Level = Optimize ? llvm::CodeGenOpt::Default : llvm::CodeGenOpt::None;
#endif
#if LLVM_VERSION_MAJOR >= 21
  const llvm::Triple &Name = TT;
#else
  std::string Name = TT.str();
#endif
  return std::unique_ptr<llvm::TargetMachine>(
      T.createTargetMachine(Name, CPU, Features, llvm::TargetOptions(),
                            std::nullopt, std::nullopt, Level));
}

} // namespace compat
} // namespace irs

#endif // IR_SANITIZE_SUPPORT_LLVMCOMPAT_H
