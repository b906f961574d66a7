//===- GridStrideCoarsening.cpp - Several blocks per thread ---------------===//
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"

#include "Accumulation.h"

#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/PassParameters.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#define DEBUG_TYPE "ir-sanitize-grid-stride"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumCoarsened, "Kernels given a grid-stride version");
ALWAYS_ENABLED_STATISTIC(NumHeld, "Accumulations held in registers");
ALWAYS_ENABLED_STATISTIC(NumRefused,
                         "Kernels with accumulations left without one");

using namespace llvm;

namespace irs {
namespace {

constexpr const char GridStrideAttr[] = "irs-grid-stride-param";

/// Kernels with more accumulations than this are left alone: each one is
/// checked against every access of the kernel.
constexpr int MaxAccumulations = 64;

/// Whether \p V is, or is a constant expression over, a shared address
/// (walked with a worklist: constant expressions nest arbitrarily deep).
bool mentionsShared(const Value *V) {
  SmallVector<const Value *, 8> Work = {V};
  SmallPtrSet<const Value *, 8> Seen;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (auto *PT = dyn_cast<PointerType>(X->getType());
        PT && PT->getAddressSpace() == compat::SharedAddressSpace)
      return true;
    if (const auto *CE = dyn_cast<ConstantExpr>(X))
      for (const Use &U : CE->operands())
        Work.push_back(U.get());
  }
  return false;
}

/// libdevice writes some math as pure inline assembly (rcp.approx); that
/// is arithmetic, unless it names the registers that number blocks.
bool isPureArithmeticAsm(const CallBase &CB) {
  const auto *IA = cast<InlineAsm>(CB.getCalledOperand());
  StringRef Text = IA->getAsmString();
  return !IA->hasSideEffects() && CB.doesNotAccessMemory() &&
         !Text.contains("ctaid") && !Text.contains("%cluster") &&
         !Text.contains("%gridid");
}

std::optional<std::string> whyNotCall(const CallBase &CB) {
  if (CB.isConvergent())
    return std::string("a convergent call (a barrier, shuffle or vote)");
  if (CB.isInlineAsm())
    return isPureArithmeticAsm(CB)
               ? std::nullopt
               : std::optional<std::string>("inline assembly that is not "
                                            "pure arithmetic");
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic())
    return "a call to " +
           (Callee ? "@" + Callee->getName().str() : "an unknown function");
  // Cluster registers number blocks too; the loop renumbers only ctaid.x.
  if (Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.cluster"))
    return "a read of " + Callee->getName().str();
  const auto &II = cast<IntrinsicInst>(CB);
  if (II.isAssumeLikeIntrinsic())
    return std::nullopt;
  if (const auto *MI = dyn_cast<MemIntrinsic>(&II))
    return MI->isVolatile() ? std::optional<std::string>(
                                  "a volatile " + Callee->getName().str())
                            : std::nullopt;
  if (II.doesNotAccessMemory() && !II.mayHaveSideEffects())
    return std::nullopt;
  return "a call to " + Callee->getName().str();
}

/// What in \p I could order one block's threads against another's, or see
/// that a thread runs several blocks.
std::optional<std::string> whyNotInstruction(const Instruction &I) {
  if (any_of(I.operands(), [](const Use &U) { return mentionsShared(U); }))
    return std::string("shared memory");
  if (isa<FenceInst>(I) || isa<AtomicCmpXchgInst>(I))
    return std::string("a fence or compare-and-swap");
  if (const auto *A = dyn_cast<AtomicRMWInst>(&I))
    if (A->isVolatile() || !A->use_empty() ||
        isStrongerThan(A->getOrdering(), AtomicOrdering::Monotonic))
      return std::string("an atomic that orders memory or returns a value");
  if (const auto *L = dyn_cast<LoadInst>(&I); L && !L->isSimple())
    return std::string("a volatile or atomic load");
  if (const auto *S = dyn_cast<StoreInst>(&I); S && !S->isSimple())
    return std::string("a volatile or atomic store");
  if (const auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca())
    return std::string("a dynamic alloca");
  if (const auto *CB = dyn_cast<CallBase>(&I))
    return whyNotCall(*CB);
  return std::nullopt;
}

/// Why \p F cannot run several blocks per thread, or nothing.
std::optional<std::string> whyNotCoarsen(const Function &F) {
  if (F.isDeclaration() || !isKernel(F) || !F.getReturnType()->isVoidTy() ||
      F.isVarArg())
    return std::string("not a kernel returning void");
  if (F.hasFnAttribute(GridStrideAttr))
    return std::string("already a grid-stride loop");
  if (any_of(F.users(), [](const User *U) { return isa<CallBase>(U); }))
    return std::string("called from other code");
  for (const Instruction &I : instructions(F))
    if (std::optional<std::string> Why = whyNotInstruction(I))
      return Why;
  return std::nullopt;
}

bool isCandidate(const Instruction &I, bool ReassociateFP) {
  const auto *A = dyn_cast<AtomicRMWInst>(&I);
  return A && A->use_empty() && isAccumulation(*A, ReassociateFP);
}

/// Whether nothing after \p S in one execution of \p F may touch its
/// address. Accumulations of its type commute with it and do not count.
bool canHold(AtomicRMWInst &S, Function &F, AAResults &AA,
             const DominatorTree &DT, const LoopInfo &LI, bool ReassociateFP) {
  MemoryLocation Loc = MemoryLocation::get(&S);
  Type *Ty = S.getValOperand()->getType();
  for (Instruction &I : instructions(F)) {
    if (&I == &S || !I.mayReadOrWriteMemory())
      continue;
    if (isCandidate(I, ReassociateFP) &&
        cast<AtomicRMWInst>(I).getValOperand()->getType() == Ty)
      continue;
    if (isModOrRefSet(AA.getModRefInfo(&I, Loc)) &&
        isPotentiallyReachable(&S, &I, nullptr, &DT, &LI))
      return false;
  }
  return true;
}

SmallVector<AtomicRMWInst *, 8>
holdableAccumulations(Function &F, AAResults &AA, bool ReassociateFP) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  SmallVector<AtomicRMWInst *, 8> Sites;
  for (Instruction &I : instructions(F))
    if (isCandidate(I, ReassociateFP) &&
        canHold(cast<AtomicRMWInst>(I), F, AA, DT, LI, ReassociateFP))
      Sites.push_back(cast<AtomicRMWInst>(&I));
  return Sites;
}

/// A copy of \p F with an i32 parameter appended ("grid.x"), not yet
/// anyone's replacement; \p VMap maps \p F's values to the copy's.
Function *cloneWithGridParam(Function &F, ValueToValueMapTy &VMap) {
  SmallVector<Type *, 16> Tys(F.getFunctionType()->params());
  Tys.push_back(Type::getInt32Ty(F.getContext()));
  Function *NF = Function::Create(
      FunctionType::get(F.getReturnType(), Tys, false), F.getLinkage(),
      F.getAddressSpace(), gridStrideName(F.getName()), F.getParent());
  compat::copyDebugInfoFormat(*NF, F);
  for (auto [Old, New] : zip(F.args(), NF->args())) {
    New.setName(Old.getName());
    VMap[&Old] = &New;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(NF, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  NF->getArg(F.arg_size())->setName("grid.x");
  return NF;
}

/// \p F's launch bound (threads per block): the "nvvm.maxntid" attribute
/// LLVM 21+ upgrades the annotations into, or the "maxntidx" annotation.
std::optional<uint64_t> launchBound(const Function &F) {
  Attribute A = F.getFnAttribute("nvvm.maxntid");
  uint64_t X;
  if (A.isStringAttribute() &&
      !A.getValueAsString().split(',').first.trim().getAsInteger(10, X))
    return X;
  return nvvmAnnotation(F, "maxntidx");
}

/// \p NF is a kernel as \p F is: its !nvvm.annotations entries (the
/// "kernel" mark of annotated kernels, launch bounds) are copied for it
/// (attributes were cloned), and with \p ThreadsPerSM a launch bound asks
/// for enough blocks per multiprocessor to run that many threads.
void annotateLike(const Function &F, Function &NF, unsigned ThreadsPerSM) {
  copyNVVMAnnotations(F, NF);
  std::optional<uint64_t> Bound = launchBound(F);
  if (!ThreadsPerSM || !Bound || !*Bound || *Bound > ThreadsPerSM ||
      nvvmAnnotation(F, "minctasm") || F.hasFnAttribute("nvvm.minctasm"))
    return;
  unsigned Blocks = ThreadsPerSM / *Bound;
  if (F.hasFnAttribute("nvvm.maxntid")) // where the bound is, LLVM reads this
    NF.addFnAttr("nvvm.minctasm", utostr(Blocks));
  else
    addNVVMAnnotation(NF, "minctasm", Blocks);
}

/// Reads of ctaid.x and nctaid.x in \p F become \p Block and \p Grid.
void renumberBlocks(Function &F, Value *Block, Value *Grid) {
  for (Instruction &I : make_early_inc_range(instructions(F))) {
    auto *II = dyn_cast<IntrinsicInst>(&I);
    if (!II)
      continue;
    if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_ctaid_x)
      II->replaceAllUsesWith(Block);
    else if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_nctaid_x)
      II->replaceAllUsesWith(Grid);
    else
      continue;
    II->eraseFromParent();
  }
}

/// What makes two accumulations interchangeable but for the value added.
using AccumulationKey = std::tuple<const Value *, AtomicRMWInst::BinOp, Type *,
                                   uint64_t, AtomicOrdering, SyncScope::ID>;

AccumulationKey keyOf(const AtomicRMWInst &A) {
  return {A.getPointerOperand(), A.getOperation(), A.getValOperand()->getType(),
          A.getAlign().value(),  A.getOrdering(),  A.getSyncScopeID()};
}

/// The registers one held accumulation lives in (stack slots until
/// promoted): the element it last added to, the additions into that element
/// not yet made, and whether there are any.
struct HeldSlots {
  AllocaInst *Element, *Sum, *Pending;
};

HeldSlots slotsFor(const AtomicRMWInst &S, IRBuilder<> &Entry) {
  Type *PtrTy = S.getPointerOperand()->getType();
  Type *ValTy = S.getValOperand()->getType();
  HeldSlots H{Entry.CreateAlloca(PtrTy, nullptr, "held.element"),
              Entry.CreateAlloca(ValTy, nullptr, "held.sum"),
              Entry.CreateAlloca(Entry.getInt1Ty(), nullptr, "held.pending")};
  // No element yet: null is no address an addition could go to (one that
  // did would fault, and still does when the held sum goes out).
  Entry.CreateStore(Constant::getNullValue(PtrTy), H.Element);
  Entry.CreateStore(Constant::getNullValue(ValTy), H.Sum);
  Entry.CreateStore(Entry.getFalse(), H.Pending);
  return H;
}

struct HeldValues {
  Value *Element, *Sum, *Pending;
};

HeldValues loadHeld(IRBuilder<> &B, const HeldSlots &H,
                    const AtomicRMWInst &S) {
  return {B.CreateLoad(S.getPointerOperand()->getType(), H.Element),
          B.CreateLoad(S.getValOperand()->getType(), H.Sum),
          B.CreateLoad(B.getInt1Ty(), H.Pending)};
}

/// \p S's operation on the held element with the held sum, before \p At.
void emitFlush(const AtomicRMWInst &S, const HeldValues &V, Instruction *At) {
  auto *Flush = cast<AtomicRMWInst>(S.clone());
  Flush->setOperand(AtomicRMWInst::getPointerOperandIndex(), V.Element);
  Flush->setOperand(1, V.Sum);
  Flush->setName("held.flush");
  Flush->insertBefore(compat::insertBefore(At->getIterator()));
}

/// Guards \p S: an addition into the element the last one went to is
/// summed in registers; one into another element makes what is held go out
/// and then goes out itself, where it was. An accumulation that moves on
/// every block so keeps its place among the kernel's accesses: on the H200
/// an atomic that follows a store by one iteration of the loop costs up to
/// 7x (gradient-only `x .+ y`), so nothing is deferred that need not be.
void holdAt(AtomicRMWInst &S, const HeldSlots &H) {
  IRBuilder<> B(&S);
  HeldValues V = loadHeld(B, H, S);
  Value *Addr = S.getPointerOperand(), *Val = S.getValOperand();
  Value *Same = B.CreateICmpEQ(V.Element, Addr, "same.element");
  Value *Merged =
      B.CreateSelect(V.Pending, accumulate(B, S, V.Sum, Val), Val, "merged");
  Instruction *Other = SplitBlockAndInsertIfThen(B.CreateNot(Same), &S, false);
  BasicBlock *Join = S.getParent();
  S.moveBefore(*Other->getParent(), Other->getIterator());
  emitFlush(S, V, SplitBlockAndInsertIfThen(V.Pending, &S, false));
  B.SetInsertPoint(Join, Join->getFirstInsertionPt());
  B.CreateStore(Addr, H.Element);
  B.CreateStore(B.CreateSelect(Same, Merged, V.Sum), H.Sum);
  B.CreateStore(Same, H.Pending);
}

/// After the last block: what \p S holds goes to memory, before \p Ret.
void flushAt(const AtomicRMWInst &S, const HeldSlots &H, ReturnInst *Ret) {
  IRBuilder<> B(Ret);
  HeldValues V = loadHeld(B, H, S);
  emitFlush(S, V, SplitBlockAndInsertIfThen(V.Pending, Ret, false));
}

/// Wraps \p F's body in the loop over virtual blocks; returns the one
/// return, after the loop.
ReturnInst *buildLoop(Function &F, Argument &Grid, BasicBlock *Entry) {
  LLVMContext &Ctx = F.getContext();
  BasicBlock *Body = Entry->getNextNode();
  auto *Latch = BasicBlock::Create(Ctx, "grid.next", &F);
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast_or_null<ReturnInst>(BB.getTerminator())) {
      BranchInst::Create(Latch, Ret);
      Ret->eraseFromParent();
    }
  auto *Header = BasicBlock::Create(Ctx, "grid.block", &F, Body);
  auto *Exit = BasicBlock::Create(Ctx, "grid.exit", &F);
  IRBuilder<> B(Header);
  // i32, as ctaid.x is: vblock < grid.x < 2^31 and nctaid.x < 2^31, so the
  // next value does not wrap, and the addresses stay affine for SCEV.
  PHINode *VB = B.CreatePHI(B.getInt32Ty(), 2, "vblock.x");
  renumberBlocks(F, VB, &Grid);
  B.CreateBr(Body);

  B.SetInsertPoint(Entry);
  // With their ranges (CUDA's grid limit), so that SCEV knows the step is
  // not zero.
  MDBuilder MDB(Ctx);
  auto Read = [&](Intrinsic::ID ID, uint64_t Lo, uint64_t Hi) {
    CallInst *C =
        B.CreateCall(compat::intrinsicDeclaration(*F.getParent(), ID), {});
    C->setMetadata(LLVMContext::MD_range,
                   MDB.createRange(APInt(32, Lo), APInt(32, Hi)));
    return C;
  };
  Value *First = Read(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, 0, 0x7fffffff);
  Value *Step = Read(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, 1, 0x80000000);
  B.CreateCondBr(B.CreateICmpULT(First, &Grid), Header, Exit);
  B.SetInsertPoint(Latch);
  Value *Next = B.CreateNUWAdd(VB, Step, "vblock.next");
  B.CreateCondBr(B.CreateICmpULT(Next, &Grid), Header, Exit);
  VB->addIncoming(First, Entry);
  VB->addIncoming(Next, Latch);
  return ReturnInst::Create(Ctx, Exit);
}

/// Whether \p Addr is another element in every virtual block (affine in
/// the block, with a step that is not zero): holding it never sums.
bool advancesEveryBlock(Value *Addr, ScalarEvolution &SE, const Loop &L) {
  const auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Addr));
  return AR && AR->getLoop() == &L && AR->isAffine() &&
         SE.isKnownNonZero(AR->getStepRecurrence(SE));
}

/// \p Sites (of \p F, mapped into its grid-stride copy \p NF by \p VMap)
/// whose element may repeat from one virtual block to the next.
SmallVector<AtomicRMWInst *, 8> summableSites(Function &NF,
                                              ArrayRef<AtomicRMWInst *> Sites,
                                              ValueToValueMapTy &VMap,
                                              BasicBlock *Header) {
  TargetLibraryInfoImpl TLII(compat::moduleTriple(*NF.getParent()));
  TargetLibraryInfo TLI(TLII);
  AssumptionCache AC(NF);
  DominatorTree DT(NF);
  LoopInfo LI(DT);
  ScalarEvolution SE(NF, TLI, AC, DT, LI);
  SmallVector<AtomicRMWInst *, 8> Kept;
  for (AtomicRMWInst *S : Sites) {
    auto *Copy = cast<AtomicRMWInst>(VMap[S]);
    if (!advancesEveryBlock(Copy->getPointerOperand(), SE,
                            *LI.getLoopFor(Header)))
      Kept.push_back(Copy);
  }
  return Kept;
}

/// Adds the grid-stride version of \p F, holding those of \p Sites whose
/// element may repeat; null (nothing added) when there are none.
Function *coarsen(Function &F, ArrayRef<AtomicRMWInst *> Sites,
                  unsigned ThreadsPerSM, unsigned &HeldCount) {
  ValueToValueMapTy VMap;
  Function *NF = cloneWithGridParam(F, VMap);
  BasicBlock *Body = &NF->getEntryBlock();
  auto *Entry = BasicBlock::Create(NF->getContext(), "grid.entry", NF, Body);
  // One stack slot for all virtual blocks, as for one block before.
  for (Instruction &I : make_early_inc_range(*Body))
    if (isa<AllocaInst>(I))
      I.moveBefore(*Entry, Entry->end());
  Argument &Grid = *NF->getArg(NF->arg_size() - 1);
  ReturnInst *Ret = buildLoop(*NF, Grid, Entry);
  BasicBlock *Header = Entry->getTerminator()->getSuccessor(0);
  SmallVector<AtomicRMWInst *, 8> Held =
      summableSites(*NF, Sites, VMap, Header);
  HeldCount = Held.size();
  if (Held.empty()) {
    NF->eraseFromParent();
    return nullptr;
  }
  IRBuilder<> EB(Entry->getTerminator());
  SmallVector<AllocaInst *, 24> Slots;
  SmallVector<std::pair<AccumulationKey, HeldSlots>, 8> Shared;
  for (AtomicRMWInst *S : Held) {
    // StoreSinkVersioning's two versions of one accumulation add to the
    // same address value: one set of registers serves both.
    AccumulationKey Key = keyOf(*S);
    auto *It = find_if(Shared, [&](const auto &P) { return P.first == Key; });
    if (It == Shared.end()) {
      HeldSlots H = slotsFor(*S, EB);
      flushAt(*S, H, Ret);
      Slots.append({H.Element, H.Sum, H.Pending});
      It = Shared.insert(Shared.end(), {Key, H});
    }
    holdAt(*S, It->second);
  }
  DominatorTree DT(*NF);
  PromoteMemToReg(Slots, DT);
  annotateLike(F, *NF, ThreadsPerSM);
  NF->addFnAttr(GridStrideAttr, utostr(Grid.getArgNo()));
  return NF;
}

/// Whether an earlier run gave \p F its version: a second run adds none.
bool hasGridStrideVersion(const Function &F) {
  const Function *V = F.getParent()->getFunction(gridStrideName(F.getName()));
  return V && gridStrideParam(*V);
}

} // namespace

std::string gridStrideName(StringRef Kernel) {
  return (Kernel + "_grid_stride").str();
}

std::optional<unsigned> gridStrideParam(const Function &F) {
  Attribute A = F.getFnAttribute(GridStrideAttr);
  unsigned Index;
  if (!A.isStringAttribute() || A.getValueAsString().getAsInteger(10, Index) ||
      Index >= F.arg_size())
    return std::nullopt;
  return Index;
}

PreservedAnalyses GridStrideCoarseningPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<Function *, 4> Kernels;
  for (Function &F : M)
    if (!F.isDeclaration() && isKernel(F) && !gridStrideParam(F) &&
        !hasGridStrideVersion(F) &&
        any_of(instructions(F), [&](const Instruction &I) {
          return isCandidate(I, ReassociateFP);
        }))
      Kernels.push_back(&F);
  bool Changed = false;
  for (Function *F : Kernels) {
    std::optional<std::string> Why = whyNotCoarsen(*F);
    SmallVector<AtomicRMWInst *, 8> Sites;
    if (!Why && count_if(instructions(*F), [&](const Instruction &I) {
                  return isCandidate(I, ReassociateFP);
                }) > MaxAccumulations)
      Why = "more than " + utostr(MaxAccumulations) + " accumulations";
    if (!Why)
      Sites = holdableAccumulations(*F, FAM.getResult<AAManager>(*F),
                                    ReassociateFP);
    if (!Why && Sites.empty())
      Why = "no accumulation it could hold in registers";
    unsigned Held = 0;
    Function *NF = nullptr;
    if (!Why) {
      NF = coarsen(*F, Sites, ThreadsPerMultiprocessor, Held);
      if (!NF)
        Why = "every accumulation moves to another element with each block";
    }
    OptimizationRemarkEmitter ORE(F);
    if (Why) {
      ++NumRefused;
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NotCoarsened", F)
               << F->getName() << " has no grid-stride version: " << *Why;
      });
      continue;
    }
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Coarsened", F)
             << "added " << NF->getName()
             << ", a grid-stride loop; accumulations held in registers: "
             << utostr(Held);
    });
    ++NumCoarsened;
    NumHeld += Held;
    Changed = true;
  }
  // Existing functions are unchanged; the module has new ones.
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void GridStrideCoarseningPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<GridStrideCoarseningPass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  std::vector<std::string> Settings;
  if (ReassociateFP)
    Settings.push_back("reassociate-fp");
  if (ThreadsPerMultiprocessor)
    Settings.push_back("threads-per-multiprocessor=" +
                       std::to_string(ThreadsPerMultiprocessor));
  printPassParameters(OS, Settings);
}

} // namespace irs
