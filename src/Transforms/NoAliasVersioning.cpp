//===- NoAliasVersioning.cpp - Enzyme on a noalias copy, when disjoint ----===//
#include "ir-sanitize/Transforms/NoAliasVersioning.h"

#include "AddressRanges.h"

#include "ir-sanitize/Analysis/ActivitySpec.h"
#include "ir-sanitize/Analysis/ArgumentAccess.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Support/PassParameters.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-noalias-version"

ALWAYS_ENABLED_STATISTIC(NumVersioned, "Enzyme calls given a noalias version");
ALWAYS_ENABLED_STATISTIC(NumRanges, "Address ranges the versions compare");

namespace irs {

std::string noAliasCopyName(StringRef F) { return (F + ".noalias").str(); }

namespace {

/// One argument of the differentiated function as an Enzyme call passes
/// it: its value and, for dup and dupnoneed, its shadow.
struct PassedArg {
  Value *Primal = nullptr, *Shadow = nullptr;
};

std::optional<Activity> markerActivity(const Value *V) {
  const auto *MV = dyn_cast<MetadataAsValue>(V);
  const auto *S = MV ? dyn_cast<MDString>(MV->getMetadata()) : nullptr;
  if (!S)
    return std::nullopt;
  for (Activity A :
       {Activity::Const, Activity::Dup, Activity::DupNoNeed, Activity::Out})
    if (S->getString() == activityMarker(A))
      return A;
  return std::nullopt;
}

/// The arguments \p Call passes \p F, one per parameter, as
/// AddDerivativeWrapper writes them (a marker before each); nothing for
/// another shape.
std::optional<std::vector<PassedArg>> passedArgs(const CallBase &Call,
                                                 const Function &F) {
  std::vector<PassedArg> Args;
  unsigned I = 1, E = Call.arg_size();
  while (I < E) {
    std::optional<Activity> A = markerActivity(Call.getArgOperand(I));
    if (!A || I + 1 >= E)
      return std::nullopt;
    PassedArg P;
    P.Primal = Call.getArgOperand(I + 1);
    I += 2;
    if (hasShadow(*A)) {
      if (I >= E)
        return std::nullopt;
      P.Shadow = Call.getArgOperand(I++);
    }
    Args.push_back(P);
  }
  if (Args.size() != F.arg_size())
    return std::nullopt;
  return Args;
}

/// Why \p Extents cannot make \p F's pointer parameters noalias, or empty:
/// every pointer parameter \p F may access must be listed, each with an
/// integer extent.
std::string whyNotVersionable(const Function &F,
                              ArrayRef<ParamExtent> Extents) {
  for (auto [P, E] : Extents)
    if (P >= F.arg_size() || E >= F.arg_size() ||
        !F.getArg(P)->getType()->isPointerTy() ||
        !F.getArg(E)->getType()->isIntegerTy())
      return "extent=" + std::to_string(P) + ":" + std::to_string(E) +
             " is not a pointer parameter and an integer one";
  std::vector<ArgumentAccess> Access = analyzeArgumentAccess(F);
  for (const Argument &A : F.args()) {
    bool Listed =
        any_of(Extents, [&](ParamExtent X) { return X.first == A.getArgNo(); });
    if (A.getType()->isPointerTy() && !Listed &&
        Access[A.getArgNo()].at(0) != MemoryAccess::None)
      return "parameter " + std::to_string(A.getArgNo()) +
             " is a pointer the function may access and has no extent";
  }
  return "";
}

/// Whether the ranges [start, start + extent) are pairwise apart.
Value *allDisjoint(IRBuilderBase &B,
                   ArrayRef<std::pair<Value *, Value *>> Ranges) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  Value *All = B.getTrue();
  SmallVector<std::pair<Value *, Value *>, 8> Ints; // start, end
  for (auto [Ptr, Extent] : Ranges) {
    Type *IntPtr = DL.getIntPtrType(Ptr->getType());
    Value *Start = B.CreatePtrToInt(Ptr, IntPtr);
    Value *End = B.CreateAdd(Start, B.CreateZExtOrTrunc(Extent, IntPtr));
    Ints.push_back({Start, End});
  }
  for (unsigned I = 0; I < Ints.size(); ++I)
    for (unsigned J = I + 1; J < Ints.size(); ++J) {
      if (Ints[I].first->getType() != Ints[J].first->getType())
        return B.getFalse(); // address spaces apart: not compared
      All = B.CreateAnd(All, rangesApart(B, Ints[I].first, Ints[I].second,
                                         Ints[J].first, Ints[J].second));
    }
  All->setName("arrays.disjoint");
  return All;
}

/// \p F's copy with the listed pointer parameters noalias (made once).
Function *noAliasCopy(Function &F, ArrayRef<ParamExtent> Extents) {
  std::string Name = noAliasCopyName(F.getName());
  if (Function *Existing = F.getParent()->getFunction(Name))
    return Existing;
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(Name);
  for (auto [P, E] : Extents)
    Copy->addParamAttr(P, Attribute::NoAlias);
  return Copy;
}

/// Versions \p Call (an Enzyme call on \p F) on the ranges of \p Args.
void version(CallBase &Call, Function &F, ArrayRef<PassedArg> Args,
             ArrayRef<ParamExtent> Extents) {
  IRBuilder<> B(&Call);
  SmallVector<std::pair<Value *, Value *>, 8> Ranges;
  for (auto [P, E] : Extents) {
    Ranges.push_back({Args[P].Primal, Args[E].Primal});
    if (Args[P].Shadow)
      Ranges.push_back({Args[P].Shadow, Args[E].Primal});
  }
  Value *Disjoint = allDisjoint(B, Ranges);
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(Disjoint, &Call, &Then, &Else);
  auto *NoAlias = cast<CallBase>(Call.clone());
  NoAlias->setArgOperand(0, noAliasCopy(F, Extents));
  NoAlias->insertBefore(Then);
  Call.moveBefore(Else);
  if (!Call.getType()->isVoidTy()) {
    PHINode *Phi = PHINode::Create(Call.getType(), 2, "",
                                   &*Then->getSuccessor(0)->begin());
    Call.replaceAllUsesWith(Phi);
    Phi->addIncoming(NoAlias, Then->getParent());
    Phi->addIncoming(&Call, Else->getParent());
  }
  ++NumVersioned;
  NumRanges += Ranges.size();
}

/// The Enzyme calls in \p Wrapper on a function of \p M's.
SmallVector<CallBase *, 2> enzymeCalls(Function &Wrapper) {
  SmallVector<CallBase *, 2> Calls;
  for (BasicBlock &BB : Wrapper)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction();
            Callee && isEnzymeEntryPoint(Callee->getName()) &&
            CB->arg_size() > 0 &&
            isa<Function>(CB->getArgOperand(0)->stripPointerCasts()))
          Calls.push_back(CB);
  return Calls;
}

} // namespace

PreservedAnalyses NoAliasVersioningPass::run(Module &M,
                                             ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  Function *Wrapper = M.getFunction(P.Fn);
  if (!Wrapper || Wrapper->isDeclaration() || P.Extents.empty())
    return PreservedAnalyses::all();
  OptimizationRemarkEmitter ORE(Wrapper);
  bool Changed = false;
  for (CallBase *Call : enzymeCalls(*Wrapper)) {
    auto &F = *cast<Function>(Call->getArgOperand(0)->stripPointerCasts());
    std::optional<std::vector<PassedArg>> Args = passedArgs(*Call, F);
    std::string Why = !Args ? "its arguments are not marked one by one"
                      : FAM.getResult<LoopAnalysis>(F).empty()
                          ? "it has no loop (Enzyme caches nothing in memory)"
                          : whyNotVersionable(F, P.Extents);
    if (!Why.empty()) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NotVersioned", Call)
               << "the Enzyme call on " << F.getName()
               << " keeps one version: " << Why;
      });
      continue;
    }
    version(*Call, F, *Args, P.Extents);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Versioned", Call)
             << "the Enzyme call on " << F.getName() << " takes "
             << noAliasCopyName(F.getName())
             << " where its arrays are apart (tested at run time)";
    });
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void NoAliasVersioningPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<NoAliasVersioningPass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  std::vector<std::string> Settings = {"fn=" + escapePassParameter(P.Fn)};
  for (auto [Ptr, Extent] : P.Extents)
    Settings.push_back("extent=" + std::to_string(Ptr) + ":" +
                       std::to_string(Extent));
  printPassParameters(OS, Settings);
}

} // namespace irs
