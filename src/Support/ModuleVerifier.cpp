//===- ModuleVerifier.cpp - The verifier as one-line errors ---------------===//
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/Messages.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BuiltinGCs.h"
#include "llvm/IR/GCStrategy.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Statepoint.h"
#include "llvm/IR/Verifier.h"

using namespace llvm;

namespace irs {

bool crashesTBAAUpgrade(const MDNode &Tag) {
  return Tag.getNumOperands() == 0 || !Tag.getOperand(0);
}

namespace {

/// Whether a null operand is reachable from \p Root through node operands.
bool reachesNullOperand(const MDNode &Root) {
  SmallVector<const MDNode *, 8> Work = {&Root};
  SmallPtrSet<const MDNode *, 16> Seen = {&Root};
  while (!Work.empty())
    for (const MDOperand &Op : Work.pop_back_val()->operands()) {
      if (!Op)
        return true;
      if (const auto *Child = dyn_cast<MDNode>(Op.get()))
        if (Seen.insert(Child).second)
          Work.push_back(Child);
    }
  return false;
}

/// Whether LLVM's TBAA verifier crashes on \p Tag: as the upgrade, and on a
/// null operand anywhere in the type nodes it walks (a !DI node reached as a
/// parent type; found by the module fuzzer). \p Checked remembers tags.
bool crashesTBAAVerifier(const MDNode &Tag,
                         DenseMap<const MDNode *, bool> &Checked) {
  auto [It, New] = Checked.try_emplace(&Tag, false);
  if (New)
    It->second = crashesTBAAUpgrade(Tag) || reachesNullOperand(Tag);
  return It->second;
}

/// The statepoint \p Relocate's token names, found the way LLVM's verifier
/// and AsmWriter find it, or null where their unchecked casts would fail.
const GCStatepointInst *tiedStatepoint(const GCRelocateInst &Relocate) {
  const Value *Token = Relocate.getArgOperand(0);
  // A relocate on an invoke's unwind path names its landing pad.
  if (const auto *Pad = dyn_cast<LandingPadInst>(Token)) {
    const BasicBlock *Invoke = Pad->getParent()->getUniquePredecessor();
    if (!Invoke)
      return nullptr;
    Token = Invoke->getTerminator();
  }
  return dyn_cast_or_null<GCStatepointInst>(Token);
}

/// Whether LLVM can print and verify \p Relocate: printing reads its base
/// and derived values through the statepoint and the two indices unchecked
/// (an untied token or an index past the live values crashed the verifier
/// while it printed its message; found by the restore fuzz target).
bool isPrintableRelocate(const GCRelocateInst &Relocate) {
  if (Relocate.arg_size() != 3)
    return false;
  const GCStatepointInst *Statepoint = tiedStatepoint(Relocate);
  if (!Statepoint)
    return false;
  std::optional<OperandBundleUse> Live =
      Statepoint->getOperandBundle(LLVMContext::OB_gc_live);
  uint64_t Values = Live ? Live->Inputs.size() : Statepoint->arg_size();
  return llvm::all_of(ArrayRef<unsigned>{1, 2}, [&](unsigned Operand) {
    const auto *Index = dyn_cast<ConstantInt>(Relocate.getArgOperand(Operand));
    return Index && Index->getValue().ult(Values);
  });
}

/// Whether LLVM knows the garbage collector \p F names.
bool knowsGC(const Function &F) {
  linkAllBuiltinGCs();
  return llvm::any_of(GCRegistry::entries(), [&](const GCRegistry::entry &E) {
    return E.getName() == F.getGC();
  });
}

/// What in \p F LLVM's verifier would crash on rather than report, if
/// anything. \p CheckedTags remembers !tbaa tags across functions.
std::optional<std::string>
verifierCrash(const Function &F, DenseMap<const MDNode *, bool> &CheckedTags) {
  // getGCStrategy's report_fatal_error, reached from gc.relocate calls and
  // from an unknown collector (found by the restore and module fuzz targets).
  if (F.hasGC() && !knowsGC(F))
    return ("@" + F.getName() + " uses the garbage collector '" +
            escapeForMessage(F.getGC()) + "', which LLVM does not know")
        .str();
  for (const Instruction &I : instructions(F)) {
    if (const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa))
      if (crashesTBAAVerifier(*Tag, CheckedTags))
        return ("a !tbaa tag in @" + F.getName() +
                " has no first operand, or reaches a null one")
            .str();
    const auto *Relocate = dyn_cast<GCRelocateInst>(&I);
    if (Relocate && !F.hasGC())
      return ("@" + F.getName() +
              " calls gc.relocate but names no garbage collector")
          .str();
    if (Relocate && !isPrintableRelocate(*Relocate))
      return ("a gc.relocate in @" + F.getName() +
              " is not tied to a statepoint, or indexes past its live values")
          .str();
  }
  return std::nullopt;
}

} // namespace

bool functionVerifies(const Function &F) {
  DenseMap<const MDNode *, bool> CheckedTags;
  return !verifierCrash(F, CheckedTags) && !verifyFunction(F);
}

std::optional<std::string> verifierProblem(const Module &M,
                                           bool *BrokenDebugInfo) {
  DenseMap<const MDNode *, bool> CheckedTags;
  for (const Function &F : M)
    if (std::optional<std::string> Crash = verifierCrash(F, CheckedTags))
      return Crash;
  // A silent run first: only a module with a problem is printed from.
  if (!verifyModule(M, nullptr, BrokenDebugInfo))
    return std::nullopt;
  if (const Function *F = compat::functionWithUnlocatedDebugRecord(M))
    return ("a debug record in @" + F->getName() + " has no !dbg location")
        .str();
  std::string Msg;
  raw_string_ostream OS(Msg);
  verifyModule(M, &OS, BrokenDebugInfo);
  return firstLine(OS.str());
}

Error verifyModuleOrError(const Module &M, StringRef What) {
  std::optional<std::string> Problem = verifierProblem(M);
  if (!Problem)
    return Error::success();
  return makeToolError(ExitCode::VerifierFailed,
                       What +
                           " failed the LLVM verifier (a bug in "
                           "ir-sanitize, please report it): " +
                           *Problem);
}
} // namespace irs
