//===- KernelSplat.cpp - One kernel parameter per aggregate leaf ----------===//
//
// Per kernel: plan (which parameters split into which leaves), then rewrite:
// a new function with the leaf signature takes over the name, attributes,
// metadata and body; the entry block rebuilds each aggregate from its leaves
// (an insertvalue chain for by-value parameters, a stack copy for byval/byref
// pointers) so every original use keeps its meaning; calls are rewritten to
// pass the leaves; the old function goes. An extractvalue of a by-value
// parameter reads its leaf directly instead of the rebuilt aggregate: the
// same value, without a chain that ties every array's activity together.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <unordered_map>

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-splat"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumKernelsSplatted, "Kernels splatted");
ALWAYS_ENABLED_STATISTIC(NumParamsBefore,
                         "Parameters of the splatted kernels, before");
ALWAYS_ENABLED_STATISTIC(NumParamsAfter,
                         "Parameters of the splatted kernels, after");
ALWAYS_ENABLED_STATISTIC(NumLeftAlone,
                         "Kernels or parameters left whole, with a note");

namespace irs {
namespace {

enum class Passing { Scalar, Value, ByVal, ByRef };

StringRef passingName(Passing P) {
  switch (P) {
  case Passing::Scalar:
    return "scalar";
  case Passing::Value:
    return "value";
  case Passing::ByVal:
    return "byval";
  case Passing::ByRef:
    return "byref";
  }
  llvm_unreachable("unknown passing kind");
}

struct ParamPlan {
  Passing How = Passing::Scalar;
  Type *StorageTy = nullptr; ///< The value type, or the byval/byref pointee.
  bool Splat = false;
  ArrayRef<AggregateLeaf> Leaves; ///< Owned by the LeafCache; empty if whole.
};

/// The leaves of each aggregate type, collected once: thousands of kernels
/// share a handful of parameter types. Entries never move, so plans can
/// point into them.
class LeafCache {
public:
  LeafCache(const DataLayout &DL, LeafLimits Limits) : DL(DL), Limits(Limits) {}

  /// The leaves of \p Ty (empty unless \p Walk is Complete).
  ArrayRef<AggregateLeaf> get(Type *Ty, LeafWalk &Walk) {
    auto [It, New] = Lists.try_emplace(Ty);
    LeafList &L = It->second;
    if (New) {
      L.Walk = collectLeaves(Ty, DL, L.Leaves, Limits);
      if (L.Walk != LeafWalk::Complete)
        L.Leaves.clear();
    }
    Walk = L.Walk;
    return L.Leaves;
  }

private:
  struct LeafList {
    LeafWalk Walk = LeafWalk::Complete;
    SmallVector<AggregateLeaf, 8> Leaves;
  };
  const DataLayout &DL;
  LeafLimits Limits;
  std::unordered_map<Type *, LeafList> Lists;
};

struct KernelPlan {
  Function *F = nullptr;
  SmallVector<ParamPlan, 8> Params;
};

/// Types as spelled in the IR ("%Array1" for a named struct), printed once
/// each: thousands of kernels share a handful of leaf types.
class TypeNames {
public:
  const std::string &operator()(Type *Ty) {
    std::string &S = Names[Ty];
    if (S.empty()) {
      raw_string_ostream OS(S);
      Ty->print(OS, /*IsForDebug=*/false, /*NoDetails=*/true);
    }
    return S;
  }

private:
  DenseMap<Type *, std::string> Names;
};

/// "bc" for a named parameter, "arg2" for the unnamed third one.
std::string baseName(const Argument &A) {
  return A.hasName() ? A.getName().str() : "arg" + std::to_string(A.getArgNo());
}

/// How \p A is passed, left whole.
ParamPlan wholeParam(const Argument &A) {
  ParamPlan P;
  P.StorageTy = A.getType();
  if (Type *T = A.getParamByValType()) {
    P.How = Passing::ByVal;
    P.StorageTy = T;
  } else if (Type *T = A.getParamByRefType()) {
    P.How = Passing::ByRef;
    P.StorageTy = T;
  } else if (isAggregateType(A.getType())) {
    P.How = Passing::Value;
  }
  return P;
}

/// How \p A would be split. A parameter that could be but stays whole gets
/// the reason in \p Why.
ParamPlan planParam(const Argument &A, const DataLayout &DL,
                    const SplatOptions &Opts, LeafCache &Leaves,
                    std::string &Why) {
  ParamPlan P = wholeParam(A);
  if (P.How == Passing::Scalar || !isAggregateType(P.StorageTy) ||
      !P.StorageTy->isSized())
    return P;
  // The stack copy must be castable to the parameter's address space: the
  // stack's own, or generic (0). AMDGPU's byref kernarg pointers (4) are not.
  unsigned AS =
      P.How == Passing::Value ? 0 : A.getType()->getPointerAddressSpace();
  if (AS != 0 && AS != DL.getAllocaAddrSpace()) {
    Why = "points into address space " + std::to_string(AS) +
          ", where no stack copy can be made";
    return P;
  }
  LeafWalk Walk;
  P.Leaves = Leaves.get(P.StorageTy, Walk);
  P.Splat = Walk == LeafWalk::Complete;
  if (Walk == LeafWalk::TooManyLeaves)
    Why = "has more than " + std::to_string(Opts.MaxLeavesPerParam) + " leaves";
  else if (Walk == LeafWalk::TooDeep)
    Why = "nests aggregates more than " + std::to_string(Opts.MaxNestingDepth) +
          " deep";
  return P;
}

bool isUsedList(const User *U) {
  auto *GV = dyn_cast<GlobalVariable>(U);
  return GV && (GV->getName() == "llvm.used" ||
                GV->getName() == "llvm.compiler.used");
}

/// llvm.used and llvm.compiler.used entries follow the kernel through RAUW.
bool isUsedListEntry(const User *U) {
  if (isa<GlobalValue>(U))
    return isUsedList(U);
  return isa<Constant>(U) && all_of(U->users(), isUsedList);
}

/// Whether every use of \p F is a direct call or invoke with F's own type
/// (rewritten to pass leaves) or an entry in a used list. A kernel whose
/// address escapes elsewhere would be called with the old signature.
bool usesAreRewritable(const Function &F) {
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (auto *CB = dyn_cast<CallBase>(Usr)) {
      // A musttail caller would have to change its own signature too.
      auto *CI = dyn_cast<CallInst>(CB);
      if (!CB->isCallee(&U) || isa<CallBrInst>(CB) ||
          (CI && CI->isMustTailCall()) ||
          CB->getFunctionType() != F.getFunctionType())
        return false;
      continue;
    }
    if (!isUsedListEntry(Usr))
      return false;
  }
  return true;
}

/// Whether \p F ends in a musttail call: the callee must then have F's own
/// parameter list, which the splat would change under it.
bool makesMustTailCall(const Function &F) {
  for (const BasicBlock &BB : F)
    if (BB.getTerminatingMustTailCall())
      return true;
  return false;
}

/// The plan for \p F, or nothing when no parameter would change.
std::optional<KernelPlan> planKernel(Function &F, const SplatOptions &Opts,
                                     LeafCache &Leaves) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  KernelPlan Plan;
  Plan.F = &F;
  bool Changes = false;
  for (const Argument &A : F.args()) {
    std::string Why;
    Plan.Params.push_back(planParam(A, DL, Opts, Leaves, Why));
    Changes |= Plan.Params.back().Splat;
    if (!Why.empty() && Opts.Note)
      Opts.Note(F,
                ("kernel '" + escapeForMessage(F.getName()) + "': parameter #" +
                 Twine(A.getArgNo()) + " stays whole: it " + Why)
                    .str());
  }
  if (!Changes)
    return std::nullopt;
  if (!usesAreRewritable(F)) {
    if (Opts.Note)
      Opts.Note(F, "kernel '" + escapeForMessage(F.getName()) +
                       "' is not splatted: its address is used other than by "
                       "direct (non-musttail) calls");
    return std::nullopt;
  }
  if (makesMustTailCall(F)) {
    if (Opts.Note)
      Opts.Note(F, ("kernel '" + F.getName() +
                    "' is not splatted: it makes a musttail call, whose callee "
                    "must keep the kernel's own parameters")
                       .str());
    return std::nullopt;
  }
  return Plan;
}

/// The manifest entry for a plan. Leaf names are the intended ones; the
/// rewrite names the parameters after them and records any LLVM uniqued.
KernelManifest describePlan(const KernelPlan &Plan, TypeNames &TypeName) {
  const Function &F = *Plan.F;
  const DataLayout &DL = F.getParent()->getDataLayout();
  KernelManifest K;
  K.Name = F.getName().str();
  K.OriginalParams.reserve(Plan.Params.size());
  size_t NumParams = 0;
  for (const ParamPlan &P : Plan.Params)
    NumParams += P.Splat ? P.Leaves.size() : 1;
  K.Params.reserve(NumParams);
  for (unsigned I = 0; I != Plan.Params.size(); ++I) {
    const ParamPlan &P = Plan.Params[I];
    const Argument &A = *F.getArg(I);
    uint64_t Size = DL.getTypeAllocSize(P.StorageTy).getKnownMinValue();
    K.OriginalParams.push_back(
        {I, TypeName(P.StorageTy), Size, passingName(P.How).str()});
    if (!P.Splat) {
      Type *Ty = A.getType();
      K.Params.push_back(
          {static_cast<unsigned>(K.Params.size()),
           A.getName().str(),
           TypeName(Ty),
           I,
           {},
           0,
           Size,
           Ty->isPointerTy(),
           Ty->isPointerTy() ? Ty->getPointerAddressSpace() : 0});
      continue;
    }
    std::string Base = baseName(A) + ".";
    for (const AggregateLeaf &L : P.Leaves)
      K.Params.push_back(
          {static_cast<unsigned>(K.Params.size()), Base + joinPath(L.Path),
           TypeName(L.Ty), I,
           std::vector<unsigned>(L.Path.begin(), L.Path.end()), L.Offset,
           L.Size, L.Ty->isPointerTy(),
           L.Ty->isPointerTy() ? L.Ty->getPointerAddressSpace() : 0});
  }
  return K;
}

/// Attributes for the leaves of parameter \p P. Only `noundef` of a by-value
/// aggregate says something about its fields; a byval/byref pointer's
/// attributes describe the argument's storage, not the values stored there.
/// Never `noalias`: the same array often sits in two leaves (`-b .- b`).
AttributeSet leafAttrs(LLVMContext &Ctx, const ParamPlan &P,
                       AttributeSet Orig) {
  if (P.How == Passing::Value && Orig.hasAttribute(Attribute::NoUndef))
    return AttributeSet::get(Ctx, {Attribute::get(Ctx, Attribute::NoUndef)});
  return {};
}

/// Parameter attributes of the splatted signature, from \p Orig (the
/// function's or a call site's list).
SmallVector<AttributeSet, 16> splatParamAttrs(const KernelPlan &Plan,
                                              const AttributeList &Orig,
                                              unsigned NumArgs) {
  LLVMContext &Ctx = Plan.F->getContext();
  SmallVector<AttributeSet, 16> Attrs;
  for (unsigned I = 0; I != NumArgs; ++I) {
    if (I >= Plan.Params.size() || !Plan.Params[I].Splat) {
      Attrs.push_back(Orig.getParamAttrs(I));
      continue;
    }
    AttributeSet Leaf = leafAttrs(Ctx, Plan.Params[I], Orig.getParamAttrs(I));
    Attrs.append(Plan.Params[I].Leaves.size(), Leaf);
  }
  return Attrs;
}

/// The splatted declaration, in F's place, with F's name, attributes and
/// metadata.
Function *createSplatFunction(const KernelPlan &Plan) {
  Function &F = *Plan.F;
  SmallVector<Type *, 16> ParamTys;
  for (unsigned I = 0; I != Plan.Params.size(); ++I) {
    if (!Plan.Params[I].Splat)
      ParamTys.push_back(F.getArg(I)->getType());
    for (const AggregateLeaf &L : Plan.Params[I].Leaves)
      ParamTys.push_back(L.Ty);
  }
  auto *Ty = FunctionType::get(F.getReturnType(), ParamTys, F.isVarArg());
  Function *NF = Function::Create(Ty, F.getLinkage(), F.getAddressSpace(), "");
  NF->copyAttributesFrom(&F);
  NF->setComdat(F.getComdat()); // not among the attributes copied
  AttributeList Attrs = F.getAttributes();
  NF->setAttributes(AttributeList::get(
      F.getContext(), Attrs.getFnAttrs(), Attrs.getRetAttrs(),
      splatParamAttrs(Plan, Attrs, F.arg_size())));
  F.getParent()->getFunctionList().insert(F.getIterator(), NF);
  NF->takeName(&F);
  SmallVector<std::pair<unsigned, MDNode *>, 4> MDs;
  F.getAllMetadata(MDs);
  F.clearMetadata();
  for (auto &[Kind, Node] : MDs)
    NF->addMetadata(Kind, *Node);
  return NF;
}

Value *byteAddress(IRBuilder<> &B, Value *Base, uint64_t Offset) {
  return Offset ? B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Offset)
                : Base;
}

/// The part of by-value parameter \p P at \p Prefix: its leaf, or the
/// sub-aggregate of type \p Ty rebuilt from the leaves under it.
Value *rebuildPart(IRBuilder<> &B, const ParamPlan &P,
                   ArrayRef<Argument *> Leaves, ArrayRef<unsigned> Prefix,
                   Type *Ty) {
  SmallVector<unsigned, 16> Under;
  for (unsigned I = 0; I != Leaves.size(); ++I) {
    ArrayRef<unsigned> Path = P.Leaves[I].Path;
    if (Path.take_front(Prefix.size()) == Prefix)
      Under.push_back(I);
  }
  if (Under.size() == 1 && P.Leaves[Under[0]].Path.size() == Prefix.size())
    return Leaves[Under[0]];
  Value *Agg = PoisonValue::get(Ty);
  for (unsigned I : Under)
    Agg = B.CreateInsertValue(
        Agg, Leaves[I],
        ArrayRef<unsigned>(P.Leaves[I].Path).drop_front(Prefix.size()));
  return Agg;
}

/// An extractvalue of by-value parameter \p Old reads its leaf (or its part,
/// rebuilt), so Enzyme sees each leaf's own activity; any other use (a
/// store, a call, a debug record) gets the whole aggregate rebuilt at entry.
/// The replaced extractvalues go to \p Dead: erasing one here could pull the
/// builder's insertion point from under it.
void replaceByValue(IRBuilder<> &B, const ParamPlan &P, Argument &Old,
                    ArrayRef<Argument *> Leaves, StringRef Name,
                    SmallVectorImpl<Instruction *> &Dead) {
  // Parts by index path; the paths point into extractvalues that stay
  // alive (in Dead) until the caller is done. A parameter has few parts.
  SmallVector<std::pair<ArrayRef<unsigned>, Value *>, 16> Parts;
  bool NeedsWhole = Old.isUsedByMetadata();
  for (User *U : make_early_inc_range(Old.users())) {
    auto *EV = dyn_cast<ExtractValueInst>(U);
    if (!EV) {
      NeedsWhole = true;
      continue;
    }
    ArrayRef<unsigned> Path = EV->getIndices();
    auto It = find_if(Parts, [&](const auto &KV) { return KV.first == Path; });
    Value *Part = It != Parts.end() ? It->second : nullptr;
    if (!Part) {
      Part = rebuildPart(B, P, Leaves, Path, EV->getType());
      if (isa<Instruction>(Part))
        Part->takeName(EV);
      Parts.emplace_back(Path, Part);
    }
    EV->replaceAllUsesWith(Part);
    Dead.push_back(EV);
  }
  if (!NeedsWhole)
    return;
  Value *Whole = rebuildPart(B, P, Leaves, {}, P.StorageTy);
  if (isa<Instruction>(Whole)) // a zero-sized aggregate is a constant
    Whole->setName(Name);
  Old.replaceAllUsesWith(Whole);
}

/// A private copy, like the one byval promises, at the original alignment;
/// cast to the parameter's address space if the stack lives elsewhere.
Value *rebuildInMemory(IRBuilder<> &B, const ParamPlan &P, const Argument &Old,
                       ArrayRef<Argument *> Leaves, const Twine &Name) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  Align A = std::max(Old.getParamAlign().valueOrOne(),
                     DL.getABITypeAlign(P.StorageTy));
  AllocaInst *Slot =
      B.CreateAlloca(P.StorageTy, DL.getAllocaAddrSpace(), nullptr, Name);
  Slot->setAlignment(A);
  for (unsigned I = 0; I != Leaves.size(); ++I) {
    uint64_t Offset = P.Leaves[I].Offset;
    B.CreateAlignedStore(Leaves[I], byteAddress(B, Slot, Offset),
                         commonAlignment(A, Offset));
  }
  if (Slot->getType() == Old.getType())
    return Slot;
  return B.CreateAddrSpaceCast(Slot, Old.getType(), Name + ".cast");
}

/// Names the new parameters as \p K says (recording where LLVM had to
/// unique a name) and points every use of the old ones at them or at the
/// aggregate rebuilt from them.
void rebuildArguments(const KernelPlan &Plan, Function &NF, KernelManifest &K) {
  BasicBlock &Entry = NF.getEntryBlock();
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  B.SetCurrentDebugLocation(DebugLoc()); // prologue code has no source line
  SmallVector<Instruction *, 16> Dead;
  unsigned Next = 0;
  for (unsigned I = 0; I != Plan.Params.size(); ++I) {
    const ParamPlan &P = Plan.Params[I];
    Argument &Old = *Plan.F->getArg(I);
    if (!P.Splat) {
      NF.getArg(Next)->takeName(&Old);
      Old.replaceAllUsesWith(NF.getArg(Next++));
      continue;
    }
    SmallVector<Argument *, 8> Leaves;
    for (unsigned L = 0; L != P.Leaves.size(); ++L, ++Next) {
      Argument *Leaf = NF.getArg(Next);
      std::string &Name = K.Params[Next].Name;
      Leaf->setName(Name);
      if (Leaf->getName() != Name)
        Name = Leaf->getName().str();
      Leaves.push_back(Leaf);
    }
    // The old arguments live in the old function's symbol table: the
    // rebuilt aggregate can take the original name as it is.
    std::string Base = baseName(Old);
    if (P.How == Passing::Value)
      replaceByValue(B, P, Old, Leaves, Base, Dead);
    else if (!Old.use_empty() || Old.isUsedByMetadata())
      Old.replaceAllUsesWith(rebuildInMemory(B, P, Old, Leaves, Base));
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

/// The leaves of actual argument \p Actual, read where the kernel's entry
/// will rebuild them.
void appendLeafOperands(IRBuilder<> &B, const ParamPlan &P, Value *Actual,
                        MaybeAlign KnownAlign, SmallVectorImpl<Value *> &Out) {
  for (const AggregateLeaf &L : P.Leaves) {
    if (P.How == Passing::Value) {
      Out.push_back(B.CreateExtractValue(Actual, L.Path));
      continue;
    }
    Out.push_back(B.CreateAlignedLoad(
        L.Ty, byteAddress(B, Actual, L.Offset),
        commonAlignment(KnownAlign.valueOrOne(), L.Offset)));
  }
}

void rewriteCall(CallBase &CB, const KernelPlan &Plan, Function &NF) {
  IRBuilder<> B(&CB);
  SmallVector<Value *, 16> Args;
  for (unsigned I = 0; I != CB.arg_size(); ++I) {
    Value *Actual = CB.getArgOperand(I);
    if (I >= Plan.Params.size() || !Plan.Params[I].Splat)
      Args.push_back(Actual);
    else
      appendLeafOperands(B, Plan.Params[I], Actual, Plan.F->getParamAlign(I),
                         Args);
  }
  SmallVector<OperandBundleDef, 2> Bundles;
  CB.getOperandBundlesAsDefs(Bundles);
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(&CB)) {
    New = B.CreateInvoke(NF.getFunctionType(), &NF, II->getNormalDest(),
                         II->getUnwindDest(), Args, Bundles);
  } else {
    auto *CI = B.CreateCall(NF.getFunctionType(), &NF, Args, Bundles);
    CI->setTailCallKind(cast<CallInst>(CB).getTailCallKind());
    New = CI;
  }
  AttributeList Attrs = CB.getAttributes();
  New->setAttributes(AttributeList::get(
      CB.getContext(), Attrs.getFnAttrs(), Attrs.getRetAttrs(),
      splatParamAttrs(Plan, Attrs, CB.arg_size())));
  New->setCallingConv(CB.getCallingConv());
  New->copyMetadata(CB);
  New->takeName(&CB);
  CB.replaceAllUsesWith(New);
  CB.eraseFromParent();
}

/// Rewrites the kernel of \p Plan as \p K describes.
void rewriteKernel(const KernelPlan &Plan, KernelManifest &K) {
  Function &F = *Plan.F;
  Function *NF = createSplatFunction(Plan);
  compat::copyDebugInfoFormat(*NF, F);
  NF->splice(NF->begin(), &F);
  rebuildArguments(Plan, *NF, K);
  SmallVector<CallBase *, 4> Calls;
  for (User *U : F.users())
    if (auto *CB = dyn_cast<CallBase>(U))
      Calls.push_back(CB);
  for (CallBase *CB : Calls)
    rewriteCall(*CB, Plan, *NF);
  // What is left: !nvvm.annotations entries and used lists.
  F.replaceAllUsesWith(NF);
  F.eraseFromParent();
}

/// The kernels the options select, in module order.
Expected<SmallVector<Function *>> selectKernels(Module &M,
                                                const SplatOptions &Opts) {
  SmallVector<Function *> All = findKernels(M);
  if (Opts.Kernels.empty())
    return All;
  StringSet<> Known;
  for (Function *F : All)
    Known.insert(F->getName());
  for (const std::string &Name : Opts.Kernels) {
    if (Known.contains(Name))
      continue;
    std::string List;
    for (unsigned I = 0; I != All.size() && I != 10; ++I)
      List += (I ? ", " : "") + escapeForMessage(All[I]->getName());
    if (All.size() > 10)
      List += ", ... (" + std::to_string(All.size()) + " in all)";
    return makeToolError(ExitCode::Usage,
                         "no kernel named '" + escapeForMessage(Name) +
                             "' in " +
                             escapeForMessage(M.getModuleIdentifier()) +
                             (All.empty() ? "; it defines no kernels"
                                          : "; its kernels: " + List));
  }
  StringSet<> Wanted;
  for (const std::string &Name : Opts.Kernels)
    Wanted.insert(Name);
  SmallVector<Function *> Chosen;
  for (Function *F : All)
    if (Wanted.contains(F->getName()))
      Chosen.push_back(F);
  return Chosen;
}

LaunchManifest emptyManifest(const Module &M) {
  LaunchManifest Manifest;
  Manifest.Triple = compat::moduleTriple(M).str();
  Manifest.DataLayout = M.getDataLayoutStr();
  return Manifest;
}

/// Plans every selected kernel that has a parameter to splat and hands the
/// plan to \p Visit, one kernel at a time (a visit may rewrite its kernel).
Error forEachKernelPlan(Module &M, const SplatOptions &Opts,
                        function_ref<void(KernelPlan &)> Visit) {
  Expected<SmallVector<Function *>> Kernels = selectKernels(M, Opts);
  if (!Kernels)
    return Kernels.takeError();
  LeafCache Leaves(M.getDataLayout(),
                   {Opts.MaxLeavesPerParam, Opts.MaxNestingDepth});
  for (Function *F : *Kernels)
    if (std::optional<KernelPlan> Plan = planKernel(*F, Opts, Leaves))
      Visit(*Plan);
  return Error::success();
}

} // namespace

Expected<LaunchManifest> planSplat(Module &M, const SplatOptions &Opts) {
  LaunchManifest Manifest = emptyManifest(M);
  TypeNames TypeName;
  if (Error E = forEachKernelPlan(M, Opts, [&](KernelPlan &Plan) {
        Manifest.Kernels.push_back(describePlan(Plan, TypeName));
      }))
    return E;
  return Manifest;
}

Expected<std::vector<KernelSplatSummary>>
summarizeSplat(Module &M, const SplatOptions &Opts) {
  std::vector<KernelSplatSummary> Summaries;
  if (Error E = forEachKernelPlan(M, Opts, [&](KernelPlan &Plan) {
        KernelSplatSummary S;
        S.Kernel = Plan.F;
        for (const ParamPlan &P : Plan.Params)
          S.Params.emplace_back(passingName(P.How).str(),
                                P.Splat ? static_cast<int>(P.Leaves.size())
                                        : -1);
        Summaries.push_back(std::move(S));
      }))
    return E;
  return Summaries;
}

Expected<LaunchManifest> splatKernels(Module &M, const SplatOptions &Opts) {
  LaunchManifest Manifest = emptyManifest(M);
  TypeNames TypeName;
  if (Error E = forEachKernelPlan(M, Opts, [&](KernelPlan &Plan) {
        KernelManifest K = describePlan(Plan, TypeName);
        rewriteKernel(Plan, K);
        Manifest.Kernels.push_back(std::move(K));
      }))
    return E;
  return Manifest;
}

KernelManifest describeUnsplattedKernel(Function &Kernel) {
  KernelPlan Plan;
  Plan.F = &Kernel;
  for (const Argument &A : Kernel.args())
    Plan.Params.push_back(wholeParam(A));
  TypeNames TypeName;
  return describePlan(Plan, TypeName);
}

namespace {

/// Counts the kernels of \p Manifest and says, as a remark, how each was
/// split.
void reportSplatted(Module &M, const LaunchManifest &Manifest) {
  for (const KernelManifest &K : Manifest.Kernels) {
    ++NumKernelsSplatted;
    NumParamsBefore += K.OriginalParams.size();
    NumParamsAfter += K.Params.size();
    Function *F = M.getFunction(K.Name);
    if (!F)
      continue;
    OptimizationRemarkEmitter ORE(F);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Splatted", F)
             << "kernel '" << ore::NV("Kernel", K.Name) << "' splatted: "
             << ore::NV("Params", unsigned(K.OriginalParams.size()))
             << " parameters into "
             << ore::NV("Leaves", unsigned(K.Params.size()));
    });
  }
}

} // namespace

PreservedAnalyses KernelSplatPass::run(Module &M, ModuleAnalysisManager &MAM) {
  PassResults *Results = passResults(M, MAM);
  SplatOptions O = Opts;
  O.Note = [Results](const Function &Kernel, const std::string &Note) {
    ++NumLeftAlone;
    OptimizationRemarkEmitter ORE(&Kernel);
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotSplatted", &Kernel)
             << Note;
    });
    if (Results)
      Results->note(Note);
  };
  Expected<LaunchManifest> Manifest = splatKernels(M, O);
  if (!Manifest) {
    reportPassFailure(M, Results, DEBUG_TYPE, Manifest.takeError());
    return PreservedAnalyses::all();
  }
  if (!ManifestPath.empty())
    if (Error E = Manifest->writeFile(ManifestPath))
      M.getContext().emitError("ir-sanitize-splat: " + toString(std::move(E)));
  reportSplatted(M, *Manifest);
  bool Changed = !Manifest->Kernels.empty();
  if (Results)
    Results->get<LaunchManifest>() = std::move(*Manifest);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void KernelSplatPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<KernelSplatPass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  std::vector<std::string> Settings;
  for (const std::string &Kernel : Opts.Kernels)
    Settings.push_back("kernel=" + escapePassParameter(Kernel));
  if (!ManifestPath.empty())
    Settings.push_back("manifest=" + escapePassParameter(ManifestPath));
  printPassParameters(OS, Settings);
}

} // namespace irs
