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

/// A function holding an instruction whose !tbaa tag LLVM cannot check.
const Function *functionWithUncheckableTBAATag(const Module &M) {
  DenseMap<const MDNode *, bool> Checked;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa))
        if (crashesTBAAVerifier(*Tag, Checked))
          return &F;
  return nullptr;
}

/// Whether \p F calls gc.relocate.
bool relocates(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (isa<GCRelocateInst>(I))
      return true;
  return false;
}

/// A function whose garbage collector LLVM does not know, or that has none
/// but relocates: the verifier aborts on its gc.relocate calls
/// (getGCStrategy's report_fatal_error; found by the restore and module
/// fuzz targets).
const Function *functionWithUnknownGC(const Module &M) {
  linkAllBuiltinGCs();
  for (const Function &F : M) {
    if (!F.hasGC()) {
      if (relocates(F))
        return &F;
      continue;
    }
    auto Known = GCRegistry::entries();
    if (llvm::none_of(Known, [&](const GCRegistry::entry &E) {
          return E.getName() == F.getGC();
        }))
      return &F;
  }
  return nullptr;
}

} // namespace

std::optional<std::string> verifierProblem(const Module &M,
                                           bool *BrokenDebugInfo) {
  if (const Function *F = functionWithUncheckableTBAATag(M))
    return ("a !tbaa tag in @" + F->getName() +
            " has no first operand, or reaches a null one")
        .str();
  if (const Function *F = functionWithUnknownGC(M)) {
    if (!F->hasGC())
      return ("@" + F->getName() +
              " calls gc.relocate but names no garbage collector")
          .str();
    return ("@" + F->getName() + " uses the garbage collector '" +
            escapeForMessage(F->getGC()) + "', which LLVM does not know")
        .str();
  }
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
