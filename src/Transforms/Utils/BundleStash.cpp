//===- BundleStash.cpp - Recording removed bundles for `restore` ----------===//
//
// The record format is described in BundleStash.h.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Transforms/Utils/BundleStash.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/ModRef.h"

#include <algorithm>

using namespace llvm;

namespace irs {
namespace {

Function *getMarkerDeclaration(Module &M) {
  LLVMContext &Ctx = M.getContext();
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx), {Type::getInt64Ty(Ctx)},
                                /*isVarArg=*/true);
  auto *F = cast<Function>(
      M.getOrInsertFunction(StashOperandsFunction, FTy).getCallee());
  if (!F->hasFnAttribute("enzyme_inactive")) {
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::NoFree);
    F->addFnAttr(Attribute::WillReturn);
    F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
    F->addFnAttr("enzyme_inactive");
    F->addFnAttr("enzyme_no_escaping_allocation");
  }
  return F;
}

/// The key of a marker call, or 0 when \p I is not a marker.
uint64_t markerKey(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F || F->getName() != StashOperandsFunction || CI->arg_size() == 0)
    return 0;
  const auto *Key = dyn_cast<ConstantInt>(CI->getArgOperand(0));
  return Key ? Key->getZExtValue() : 0;
}

uint64_t recordKey(const MDNode &Record) {
  if (Record.getNumOperands() == 0)
    return 0;
  auto *Key = mdconst::dyn_extract<ConstantInt>(Record.getOperand(0));
  return Key ? Key->getZExtValue() : 0;
}

/// The marker holding the local operands recorded under \p Key for \p CB:
/// the nearest one before it in its block, else the only one in the function
/// that dominates it.
CallInst *findMarker(CallBase &CB, uint64_t Key) {
  for (Instruction *I = CB.getPrevNode(); I; I = I->getPrevNode())
    if (markerKey(*I) == Key)
      return cast<CallInst>(I);
  Function *MF = CB.getModule()->getFunction(StashOperandsFunction);
  if (!MF)
    return nullptr;
  Function *F = CB.getFunction();
  std::optional<DominatorTree> DT;
  CallInst *Found = nullptr;
  for (User *U : MF->users()) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || CI->getFunction() != F || markerKey(*CI) != Key)
      continue;
    if (!DT)
      DT.emplace(*F);
    if (!DT->dominates(CI, &CB))
      continue;
    if (Found)
      return nullptr; // Ambiguous: two copies dominate the call.
    Found = CI;
  }
  return Found;
}

/// Decodes one `!{!"TAG", i32 POSITION, OP...}` entry; false if malformed or
/// a local operand's marker is missing.
bool decodeEntry(const MDNode &Entry, CallInst *Marker, StashedBundle &Out) {
  if (Entry.getNumOperands() < 2)
    return false;
  auto *Tag = dyn_cast<MDString>(Entry.getOperand(0));
  auto *Pos = mdconst::dyn_extract<ConstantInt>(Entry.getOperand(1));
  if (!Tag || !Pos)
    return false;
  std::vector<Value *> Inputs;
  for (unsigned I = 2, E = Entry.getNumOperands(); I != E; ++I) {
    const MDOperand &Op = Entry.getOperand(I);
    if (auto *C = dyn_cast_or_null<ConstantAsMetadata>(Op.get())) {
      Inputs.push_back(C->getValue());
      continue;
    }
    auto *Ref = dyn_cast_or_null<MDNode>(Op.get());
    if (!Ref || Ref->getNumOperands() != 1 || !Marker)
      return false;
    auto *Index = mdconst::dyn_extract<ConstantInt>(Ref->getOperand(0));
    if (!Index || Index->getZExtValue() >= Marker->arg_size())
      return false;
    Inputs.push_back(Marker->getArgOperand(Index->getZExtValue()));
  }
  Out.Position = Pos->getZExtValue();
  Out.Def = OperandBundleDef(Tag->getString().str(), std::move(Inputs));
  return true;
}

} // namespace

bool canStash(const OperandBundleUse &B) {
  return llvm::none_of(B.Inputs,
                       [](const Use &U) { return U->getType()->isTokenTy(); });
}

StashKeyAllocator::StashKeyAllocator(Module &M) {
  if (Function *MF = M.getFunction(StashOperandsFunction))
    for (User *U : MF->users())
      if (auto *I = dyn_cast<Instruction>(U))
        Next = std::max(Next, markerKey(*I) + 1);
}

void recordStashedBundles(CallBase &CB, ArrayRef<StashedBundle> Bundles,
                          StashKeyAllocator &Keys, uint64_t ReuseKey) {
  LLVMContext &Ctx = CB.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  SmallVector<Value *, 4> Locals;
  SmallVector<Metadata *, 4> Entries{nullptr}; // [0] is the key.
  for (const StashedBundle &SB : Bundles) {
    SmallVector<Metadata *, 4> Entry{
        MDString::get(Ctx, SB.Def.getTag()),
        ConstantAsMetadata::get(ConstantInt::get(I32, SB.Position))};
    for (Value *V : SB.Def.inputs()) {
      if (auto *C = dyn_cast<Constant>(V)) {
        Entry.push_back(ConstantAsMetadata::get(C));
        continue;
      }
      Locals.push_back(V);
      // Marker argument 0 is the key, so locals start at 1.
      Entry.push_back(MDNode::get(
          Ctx, ConstantAsMetadata::get(ConstantInt::get(I32, Locals.size()))));
    }
    Entries.push_back(MDNode::get(Ctx, Entry));
  }
  uint64_t Key = Locals.empty() ? 0 : ReuseKey ? ReuseKey : Keys.next();
  Entries[0] = ConstantAsMetadata::get(ConstantInt::get(I64, Key));
  if (!Locals.empty()) {
    Locals.insert(Locals.begin(), ConstantInt::get(I64, Key));
    CallInst *Marker =
        CallInst::Create(getMarkerDeclaration(*CB.getModule()), Locals, "",
                         compat::insertBefore(CB.getIterator()));
    Marker->setDebugLoc(CB.getDebugLoc());
  }
  CB.setMetadata(StashMetadataKind, MDNode::get(Ctx, Entries));
}

bool hasStashRecord(const CallBase &CB) {
  // Most calls carry no metadata but !dbg: skip the kind's lookup by name.
  return CB.hasMetadataOtherThanDebugLoc() &&
         CB.getMetadata(StashMetadataKind) != nullptr;
}

RestoreOutcome restoreStashedBundles(CallBase &CB) {
  RestoreOutcome Out;
  Out.Call = &CB;
  MDNode *Record = CB.getMetadata(StashMetadataKind);
  if (!Record)
    return Out;
  uint64_t Key = Out.Key = recordKey(*Record);
  CallInst *Marker = Key ? findMarker(CB, Key) : nullptr;
  SmallVector<StashedBundle, 4> Stashed;
  for (unsigned I = 1, E = Record->getNumOperands(); I != E; ++I) {
    auto *Entry = dyn_cast_or_null<MDNode>(Record->getOperand(I).get());
    StashedBundle SB{0, OperandBundleDef("", std::vector<Value *>())};
    if (Entry && decodeEntry(*Entry, Marker, SB))
      Stashed.push_back(std::move(SB));
    else
      ++Out.Lost;
  }
  // Merge by original position: the kept bundles stayed in order, so putting
  // each stashed one back at its index (lowest first) rebuilds the list.
  llvm::stable_sort(Stashed,
                    [](const StashedBundle &A, const StashedBundle &B) {
                      return A.Position < B.Position;
                    });
  SmallVector<OperandBundleDef, 4> Merged;
  CB.getOperandBundlesAsDefs(Merged);
  for (StashedBundle &SB : Stashed) {
    size_t At = std::min<size_t>(SB.Position, Merged.size());
    Merged.insert(Merged.begin() + At, std::move(SB.Def));
  }
  Out.Restored = Stashed.size();
  CallBase *New = replaceOperandBundles(CB, Merged);
  New->setMetadata(StashMetadataKind, nullptr);
  if (Marker)
    Marker->eraseFromParent();
  Out.Call = New;
  return Out;
}

unsigned eraseStashMarkers(Module &M) {
  Function *MF = M.getFunction(StashOperandsFunction);
  if (!MF)
    return 0;
  // Keys still referenced by a record, per function holding markers.
  DenseMap<Function *, DenseSet<uint64_t>> LiveKeys;
  SmallVector<CallInst *, 16> Markers;
  for (User *U : MF->users()) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || !markerKey(*CI))
      continue;
    Markers.push_back(CI);
    Function *F = CI->getFunction();
    if (LiveKeys.count(F))
      continue;
    DenseSet<uint64_t> &Keys = LiveKeys[F];
    for (Instruction &I : instructions(*F))
      if (MDNode *Record = I.getMetadata(StashMetadataKind))
        Keys.insert(recordKey(*Record));
  }
  unsigned Erased = 0;
  for (CallInst *CI : Markers)
    if (!LiveKeys[CI->getFunction()].count(markerKey(*CI))) {
      CI->eraseFromParent();
      ++Erased;
    }
  if (MF->use_empty())
    MF->eraseFromParent();
  return Erased;
}

/// \p CB with \p Bundles instead of its own, unnamed, before \p CB.
/// CallBase::Create would copy the name CB still holds, which the symbol
/// table must first make unique ("r1") and takeName then drop: a sixth of
/// bundle normalisation. A call is copied here as CallInst::Create(CI, OpB)
/// does, without the name; an invoke (rare in Julia code) by LLVM.
static CallBase *unnamedCopy(CallBase &CB, ArrayRef<OperandBundleDef> Bundles) {
  auto *CI = dyn_cast<CallInst>(&CB);
  if (!CI)
    return CallBase::Create(&CB, Bundles,
                            compat::insertBefore(CB.getIterator()));
  SmallVector<Value *, 8> Args(CI->args());
  CallInst *New =
      CallInst::Create(CI->getFunctionType(), CI->getCalledOperand(), Args,
                       Bundles, "", compat::insertBefore(CB.getIterator()));
  New->setTailCallKind(CI->getTailCallKind());
  New->setCallingConv(CI->getCallingConv());
  New->copyIRFlags(CI); // fast-math flags
  New->setAttributes(CI->getAttributes());
  New->setDebugLoc(CI->getDebugLoc());
  return New;
}

CallBase *replaceOperandBundles(CallBase &CB,
                                ArrayRef<OperandBundleDef> Bundles) {
  CallBase *New = unnamedCopy(CB, Bundles);
  New->copyMetadata(CB);
  CB.replaceAllUsesWith(New);
  New->takeName(&CB);
  CB.eraseFromParent();
  return New;
}

} // namespace irs
