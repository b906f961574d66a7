//===- BundleStash.cpp - Recording removed bundles for `restore` ----------===//
//
// The record format is described in BundleStash.h.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Transforms/Utils/BundleStash.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ModuleVerifier.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/ModRef.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace irs {
namespace {

/// The marker declaration's type: void (i64 KEY, ...).
FunctionType *markerType(LLVMContext &Ctx) {
  return FunctionType::get(Type::getVoidTy(Ctx), {Type::getInt64Ty(Ctx)},
                           /*isVarArg=*/true);
}

/// Why no marker call can be made in \p M ("" when one can): its name is
/// taken by a global, a definition, or a declaration of another type.
std::string whyNoMarker(const Module &M) {
  const GlobalValue *GV = M.getNamedValue(StashOperandsFunction);
  if (!GV)
    return "";
  const auto *F = dyn_cast<Function>(GV);
  if (F && F->isDeclaration() &&
      F->getFunctionType() == markerType(M.getContext()))
    return "";
  return ("the name " + StashOperandsFunction +
          " is taken by another symbol, so function-local operands cannot be "
          "recorded")
      .str();
}

Function *getMarkerDeclaration(Module &M) {
  assert(whyNoMarker(M).empty() && "the marker's name is taken");
  auto *F = cast<Function>(
      M.getOrInsertFunction(StashOperandsFunction, markerType(M.getContext()))
          .getCallee());
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

bool callsMarkerName(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Value *Callee = CB ? CB->getCalledOperand() : nullptr;
  return Callee && Callee->getName() == StashOperandsFunction;
}

/// The key of a marker call, or 0 when \p I is not one as
/// recordStashedBundles makes them: a call of the marker declaration with
/// its type, a non-zero i64 key first, no uses and no record of its own.
uint64_t markerKey(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  const Function *F = CI ? CI->getCalledFunction() : nullptr;
  if (!F || F->getName() != StashOperandsFunction || !F->isDeclaration() ||
      F->getFunctionType() != markerType(I.getContext()) ||
      CI->arg_size() == 0 || !CI->use_empty() ||
      CI->getMetadata(StashMetadataKind))
    return 0;
  const auto *Key = dyn_cast<ConstantInt>(CI->getArgOperand(0));
  return Key && Key->getType()->isIntegerTy(64) ? Key->getZExtValue() : 0;
}

/// The record's key, or nullopt when it has none (a damaged record).
std::optional<uint64_t> recordKey(const MDNode &Record) {
  if (Record.getNumOperands() == 0)
    return std::nullopt;
  auto *Key = mdconst::dyn_extract_or_null<ConstantInt>(Record.getOperand(0));
  if (!Key || !Key->getType()->isIntegerTy(64))
    return std::nullopt;
  return Key->getZExtValue();
}

/// The marker holding the local operands recorded under \p Key for \p CB:
/// the nearest one before it in its block, else the only one in the function
/// that dominates it (in reachable code, where dominance means something).
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
    if (!CI || CI == Found || CI->getFunction() != F || markerKey(*CI) != Key)
      continue;
    if (!DT)
      DT.emplace(*F);
    if (!DT->isReachableFromEntry(CB.getParent()))
      return nullptr;
    if (!DT->dominates(CI, &CB))
      continue;
    if (Found)
      return nullptr; // Ambiguous: two copies dominate the call.
    Found = CI;
  }
  return Found;
}

/// A bundle whose operands follow replaceAllUsesWith: an operand may be
/// another recorded call, replaced while this one waits.
struct TrackedBundle {
  std::string Tag;
  SmallVector<WeakTrackingVH, 2> Inputs;
  explicit TrackedBundle(const OperandBundleDef &B)
      : Tag(B.getTag()), Inputs(B.input_begin(), B.input_end()) {}
};

SmallVector<OperandBundleDef, 4> defs(ArrayRef<TrackedBundle> Bundles) {
  SmallVector<OperandBundleDef, 4> Defs;
  for (const TrackedBundle &B : Bundles)
    Defs.emplace_back(B.Tag,
                      std::vector<Value *>(B.Inputs.begin(), B.Inputs.end()));
  return Defs;
}

/// One restore, decoded and checked before anything changes.
struct RestorePlan {
  CallBase *Call = nullptr;
  MDNode *Record = nullptr;
  CallInst *Marker = nullptr;
  SmallVector<TrackedBundle, 4> Before; ///< The call's bundles now.
  SmallVector<TrackedBundle, 4> After;  ///< With the restored ones.
  SmallVector<std::string, 4> Tags;     ///< Of the restored ones.
  RestoreOutcome Out;

  void lose(StringRef Tag, const Twine &Why) {
    Out.Lost.push_back({Tag.str(), Why.str()});
  }
  /// Counts every bundle to restore as lost (the call keeps its own).
  void loseAll(const Twine &Why) {
    for (const std::string &Tag : Tags)
      lose(Tag, Why);
    Tags.clear();
    After = Before;
  }
};

/// Decodes operand \p I of an entry: a constant, or `!{i32 K}` naming
/// argument K of \p Marker. Null if it is neither (or names nothing).
Value *decodeOperand(const MDOperand &Op, const CallInst *Marker) {
  if (auto *C = dyn_cast_or_null<ConstantAsMetadata>(Op.get()))
    return C->getType()->isTokenTy() ? nullptr : C->getValue();
  auto *Ref = dyn_cast_or_null<MDNode>(Op.get());
  if (!Ref || Ref->getNumOperands() != 1 || !Marker)
    return nullptr;
  auto *Index = mdconst::dyn_extract_or_null<ConstantInt>(Ref->getOperand(0));
  if (!Index || Index->isZero() || Index->getValue().uge(Marker->arg_size()))
    return nullptr;
  return Marker->getArgOperand(Index->getZExtValue());
}

/// Decodes one `!{!"TAG", i32 POSITION, OP...}` entry; the reason it cannot
/// be restored in \p Why otherwise.
std::optional<StashedBundle> decodeEntry(const MDOperand &Op,
                                         const CallInst *Marker,
                                         std::string &Tag, std::string &Why) {
  auto *Entry = dyn_cast_or_null<MDNode>(Op.get());
  auto *TagMD = Entry && Entry->getNumOperands() >= 2
                    ? dyn_cast_or_null<MDString>(Entry->getOperand(0))
                    : nullptr;
  if (TagMD)
    Tag = TagMD->getString().str();
  auto *Pos =
      TagMD ? mdconst::dyn_extract_or_null<ConstantInt>(Entry->getOperand(1))
            : nullptr;
  if (!Pos || Tag.empty()) {
    Why = "its record entry is damaged";
    return std::nullopt;
  }
  if (Pos->getValue().getActiveBits() > 32) {
    Why = "its recorded position is out of range";
    return std::nullopt;
  }
  std::vector<Value *> Inputs;
  for (unsigned I = 2, E = Entry->getNumOperands(); I != E; ++I) {
    Value *V = decodeOperand(Entry->getOperand(I), Marker);
    if (!V) {
      Why = Marker ? "an operand's record is damaged"
                   : "its operand marker was lost";
      return std::nullopt;
    }
    Inputs.push_back(V);
  }
  return StashedBundle{unsigned(Pos->getZExtValue()),
                       OperandBundleDef(Tag, std::move(Inputs))};
}

/// Decodes \p CB's record without changing anything.
RestorePlan planRestore(CallBase &CB) {
  RestorePlan P;
  P.Call = &CB;
  P.Record = CB.getMetadata(StashMetadataKind);
  P.Out.Call = &CB;
  SmallVector<OperandBundleDef, 4> Own;
  CB.getOperandBundlesAsDefs(Own);
  for (const OperandBundleDef &B : Own)
    P.Before.emplace_back(B);
  P.After = P.Before;
  unsigned Entries = P.Record->getNumOperands();
  std::optional<uint64_t> Key = recordKey(*P.Record);
  if (!Key || callsMarkerName(CB)) {
    StringRef Why =
        Key ? "a marker call cannot carry a record" : "its record has no key";
    for (unsigned I = 1; I < std::max(Entries, 2u); ++I)
      P.lose("", Why);
    return P;
  }
  P.Out.Key = *Key;
  P.Marker = *Key ? findMarker(CB, *Key) : nullptr;
  SmallVector<StashedBundle, 4> Stashed;
  SmallSet<unsigned, 4> Positions;
  for (unsigned I = 1; I != Entries; ++I) {
    std::string Tag, Why;
    std::optional<StashedBundle> SB =
        decodeEntry(P.Record->getOperand(I), P.Marker, Tag, Why);
    if (SB && !Positions.insert(SB->Position).second)
      Why = "another recorded bundle has its position";
    if (!Why.empty()) {
      P.lose(Tag, Why);
      continue;
    }
    P.Tags.push_back(Tag);
    Stashed.push_back(std::move(*SB));
  }
  // Merge by original position: the kept bundles stayed in order, so putting
  // each stashed one back at its index (lowest first) rebuilds the list.
  llvm::stable_sort(Stashed,
                    [](const StashedBundle &A, const StashedBundle &B) {
                      return A.Position < B.Position;
                    });
  for (StashedBundle &SB : Stashed) {
    size_t At = std::min<size_t>(SB.Position, P.After.size());
    P.After.insert(P.After.begin() + At, TrackedBundle(SB.Def));
  }
  return P;
}

void apply(RestorePlan &P) {
  P.Call = replaceOperandBundles(*P.Call, defs(P.After));
  P.Call->setMetadata(StashMetadataKind, nullptr);
}

void undo(RestorePlan &P) {
  P.Call = replaceOperandBundles(*P.Call, defs(P.Before));
  P.Call->setMetadata(StashMetadataKind, P.Record);
}

/// Puts the planned bundles back; the verifier judges what decoding cannot
/// (which tags a call may carry and how often, their operands, what an
/// intrinsic requires). If \p F then fails, each call is tried alone and
/// the ones that break it lose their bundles. A function that was already
/// invalid (input not verified) gets every planned bundle back unchecked.
void applyChecked(Function &F, MutableArrayRef<RestorePlan> Plans) {
  auto Changing = [](const RestorePlan &P) { return !P.Tags.empty(); };
  bool Changed = false;
  for (RestorePlan &P : Plans)
    if (Changing(P)) {
      apply(P);
      Changed = true;
    }
  if (!Changed || functionVerifies(F))
    return;
  for (RestorePlan &P : Plans)
    if (Changing(P))
      undo(P);
  bool WasValid = functionVerifies(F);
  for (RestorePlan &P : Plans) {
    if (!Changing(P))
      continue;
    apply(P);
    if (WasValid && !functionVerifies(F)) {
      undo(P);
      P.loseAll("restoring it would break the IR (the verifier refuses it)");
    }
  }
}

/// Erases \p Markers that have no uses and whose key no record in \p F
/// names any more.
void eraseUnnamedMarkers(Function &F, ArrayRef<CallInst *> Markers) {
  if (Markers.empty())
    return;
  DenseSet<uint64_t> Named;
  for (Instruction &I : instructions(F))
    if (MDNode *Record = I.getMetadata(StashMetadataKind))
      if (std::optional<uint64_t> Key = recordKey(*Record))
        Named.insert(*Key);
  for (CallInst *Marker : Markers)
    if (Marker->use_empty() && !Named.count(markerKey(*Marker)))
      Marker->eraseFromParent();
}

} // namespace

bool canStash(const OperandBundleUse &B) {
  return llvm::none_of(B.Inputs,
                       [](const Use &U) { return U->getType()->isTokenTy(); });
}

std::string whyCannotStash(const CallBase &CB, const OperandBundleUse &B) {
  if (!canStash(B))
    return "a token operand cannot be stashed";
  bool Local =
      llvm::any_of(B.Inputs, [](const Use &U) { return !isa<Constant>(U); });
  return Local ? whyNoMarker(*CB.getModule()) : "";
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

std::vector<RestoreOutcome> restoreStashedBundles(Function &F,
                                                  ArrayRef<CallBase *> Calls) {
  // Every record is decoded before the first call changes: a marker one
  // record names stays until all are done.
  std::vector<RestorePlan> Plans;
  SmallSetVector<CallInst *, 8> Markers;
  for (CallBase *CB : Calls) {
    assert(CB->getFunction() == &F && hasStashRecord(*CB));
    Plans.push_back(planRestore(*CB));
    if (Plans.back().Marker)
      Markers.insert(Plans.back().Marker);
  }
  applyChecked(F, Plans);
  std::vector<RestoreOutcome> Outcomes;
  for (RestorePlan &P : Plans) {
    P.Call->setMetadata(StashMetadataKind, nullptr);
    P.Out.Call = P.Call;
    P.Out.Restored = P.Tags.size();
    Outcomes.push_back(std::move(P.Out));
  }
  eraseUnnamedMarkers(F, Markers.getArrayRef());
  return Outcomes;
}

RestoreOutcome restoreStashedBundles(CallBase &CB) {
  return std::move(restoreStashedBundles(*CB.getFunction(), {&CB}).front());
}

unsigned eraseStashMarkers(Module &M) {
  Function *MF = M.getFunction(StashOperandsFunction);
  if (!MF)
    return 0;
  // Keys still referenced by a record, per function holding markers.
  DenseMap<Function *, DenseSet<uint64_t>> LiveKeys;
  SmallSetVector<CallInst *, 16> Markers;
  for (User *U : MF->users()) {
    auto *CI = dyn_cast<CallInst>(U);
    if (!CI || !markerKey(*CI) || !Markers.insert(CI))
      continue;
    Function *F = CI->getFunction();
    if (LiveKeys.count(F))
      continue;
    DenseSet<uint64_t> &Keys = LiveKeys[F];
    for (Instruction &I : instructions(*F))
      if (MDNode *Record = I.getMetadata(StashMetadataKind))
        if (std::optional<uint64_t> Key = recordKey(*Record))
          Keys.insert(*Key);
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
