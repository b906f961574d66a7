//===- GCSafeRegion.cpp - Explicit jl_gc_safe_enter/leave around a call ---===//
#include "ir-sanitize/Transforms/GCSafeRegion.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace irs {
namespace {

/// Declares (or finds) \p Name and marks it the way Enzyme.jl treats Julia's
/// own jl_gc_safe_enter/leave: inactive, never frees, never unwinds.
FunctionCallee getGCSafeFunction(Module &M, StringRef Name, FunctionType *FTy) {
  FunctionCallee FC = M.getOrInsertFunction(Name, FTy);
  auto *F = dyn_cast<Function>(FC.getCallee());
  if (F && !F->hasFnAttribute("enzyme_inactive")) {
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::NoFree);
    F->addFnAttr("enzyme_inactive");
    F->addFnAttr("enzyme_no_escaping_allocation");
  }
  return FC;
}

/// The block where code that must run right after \p II unwinds goes: its
/// landing pad, split off from the pad's other predecessors if it has any.
BasicBlock *unwindEdgeBlock(InvokeInst &II) {
  BasicBlock *Pad = II.getUnwindDest();
  if (Pad->getSinglePredecessor())
    return Pad;
  SmallVector<BasicBlock *, 2> NewBBs;
  SplitLandingPadPredecessors(Pad, {II.getParent()}, ".gc_leave", ".split",
                              NewBBs);
  return NewBBs.front();
}

/// The block where code that must run right after \p II returns goes.
BasicBlock *normalEdgeBlock(InvokeInst &II) {
  BasicBlock *Normal = II.getNormalDest();
  if (Normal->getSinglePredecessor())
    return Normal;
  BasicBlock *From = II.getParent();
  BasicBlock *Edge =
      BasicBlock::Create(II.getContext(), Normal->getName() + ".gc_leave",
                         Normal->getParent(), Normal);
  BranchInst::Create(Normal, Edge);
  II.setNormalDest(Edge);
  for (PHINode &PN : Normal->phis())
    PN.replaceIncomingBlockWith(From, Edge);
  return Edge;
}

} // namespace

std::string whyCannotWrapInGCSafeRegion(const CallBase &CB) {
  if (const auto *CI = dyn_cast<CallInst>(&CB)) {
    if (CI->isMustTailCall())
      return "a musttail call leaves no room for jl_gc_safe_leave";
    return "";
  }
  if (const auto *II = dyn_cast<InvokeInst>(&CB)) {
    if (!II->getUnwindDest()->isLandingPad())
      return "the invoke unwinds to a funclet pad, not a landingpad";
    return "";
  }
  return "only call and invoke can be wrapped";
}

GCSafeFunctions GCSafeFunctions::getOrInsert(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *I8 = Type::getInt8Ty(Ctx);
  return {getGCSafeFunction(M, GCSafeEnterName,
                            FunctionType::get(I8, /*isVarArg=*/false)),
          getGCSafeFunction(M, GCSafeLeaveName,
                            FunctionType::get(Type::getVoidTy(Ctx), {I8},
                                              /*isVarArg=*/false))};
}

void wrapInGCSafeRegion(CallBase &CB, const GCSafeFunctions &Fns) {
  const FunctionCallee &Enter = Fns.Enter, &Leave = Fns.Leave;
  // Unnamed: naming it costs a symbol-table entry per call, about a sixth
  // of the pass on a Julia module (Julia itself discards value names).
  CallInst *State =
      CallInst::Create(Enter, "", compat::insertBefore(CB.getIterator()));
  State->setDebugLoc(CB.getDebugLoc());
  auto LeaveAt = [&](BasicBlock::iterator Where) {
    CallInst::Create(Leave, {State}, "", compat::insertBefore(Where))
        ->setDebugLoc(CB.getDebugLoc());
  };
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    LeaveAt(normalEdgeBlock(*II)->getFirstInsertionPt());
    LeaveAt(unwindEdgeBlock(*II)->getFirstInsertionPt());
    return;
  }
  LeaveAt(std::next(CB.getIterator()));
}

} // namespace irs
