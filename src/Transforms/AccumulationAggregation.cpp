//===- AccumulationAggregation.cpp - One atomic per address per warp ------===//
#include "ir-sanitize/Transforms/AccumulationAggregation.h"

#include "Accumulation.h"
#include "LaneSharing.h"
#include "WarpLanes.h"

#include "ir-sanitize/Support/GPUArch.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-aggregate-accumulations"

IRS_ACCUMULATION_AGGREGATION_COUNTERS(IRS_COUNTER_STATISTIC)

namespace irs {
namespace {

/// Marks the atomics the pass emitted (and the plain path's original): a
/// second run leaves them alone.
constexpr const char AggregatedMark[] = "irs.aggregated";

/// The address spaces whose atomics meet in L2: generic and global.
bool inGlobalMemory(const AtomicRMWInst &A) {
  unsigned AS = A.getPointerAddressSpace();
  return AS == 0 || AS == 1;
}

bool isCandidate(const AtomicRMWInst &A, bool ReassociateFP) {
  return isAccumulation(A, ReassociateFP) && A.use_empty() &&
         inGlobalMemory(A) && isShuffleable(A.getValOperand()->getType()) &&
         !A.getMetadata(AggregatedMark);
}

/// Whether \p F is compiled for an sm_NN without match.any.sync, as its
/// target-cpu says; without one, the caller chose the target.
bool targetLacksMatch(const Function &F) {
  std::optional<unsigned> SM =
      smNumber(F.getFnAttribute("target-cpu").getValueAsString());
  return SM && *SM < FirstSMWithMatch;
}

/// Where lanes of a warp may share \p A's address: Uniform, every lane;
/// Varying, some; Distinct, none. Where Test is set, the lanes are distinct
/// where it holds and the address is otherwise Varying (or Uniform).
enum class Sharing { Distinct, Varying, Uniform };

struct AddressSharing {
  Sharing S = Sharing::Varying;
  std::optional<DistinctTest> Test;
};

AddressSharing sharingOf(AtomicRMWInst &A) {
  LaneSharing L;
  AddressSharing R;
  SmallVector<LaneLiteral, 2> When;
  Value *Addr = A.getPointerOperand();
  if (L.uniform(Addr)) {
    R.S = Sharing::Uniform;
  } else if (L.injective(Addr, When)) {
    if (When.empty())
      R.S = Sharing::Distinct;
    else
      R.Test = [When](IRBuilderBase &B) { return allHold(B, When); };
  } else if (std::optional<DistinctTest> T = L.distinctByExtents(Addr)) {
    if (*T)
      R.Test = std::move(*T);
    else // distinct whatever the conditions
      R.S = Sharing::Distinct;
  }
  return R;
}

Value *ballot(IRBuilderBase &B, Value *Mask, Value *Pred, const Twine &Name) {
  return callIntrinsic(B, Intrinsic::nvvm_vote_ballot_sync, {Mask, Pred}, {},
                       Name);
}

/// What the lanes of a warp know before they sum.
struct WarpState {
  Value *Active, *Lane, *Me /* 1 << Lane */, *Peers;
};

/// The sum, over \p W.Peers, of \p V in the first peer (Westphal's
/// reduce_peers): in round r a lane adds the value of the next peer above
/// it that is still in; then the peers whose rank among the peers has bit r
/// set are out. After the last round (a vote: every active lane runs it)
/// the first peer holds the group's sum. Leaves \p B in the block after.
Value *sumPeers(IRBuilderBase &B, const AtomicRMWInst &A, const WarpState &W,
                Value *V) {
  Value *Above =
      B.CreateAnd(W.Peers, B.CreateShl(B.getInt32(~1u), W.Lane), "peers.above");
  Value *Rank = B.CreateUnaryIntrinsic(
      Intrinsic::ctpop, B.CreateAnd(W.Peers, B.CreateSub(W.Me, B.getInt32(1))),
      nullptr, "rank");
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *After = SplitBlock(Pre, &*B.GetInsertPoint(),
                                 static_cast<DominatorTree *>(nullptr), nullptr,
                                 nullptr, Pre->getName() + ".summed");
  BasicBlock *Round = BasicBlock::Create(
      B.getContext(), Pre->getName() + ".round", Pre->getParent(), After);
  Pre->getTerminator()->eraseFromParent();
  B.SetInsertPoint(Pre);
  B.CreateBr(Round);
  B.SetInsertPoint(Round);
  PHINode *Sum = B.CreatePHI(V->getType(), 2, "partial");
  PHINode *In = B.CreatePHI(B.getInt32Ty(), 2, "peers.in");
  PHINode *Bits = B.CreatePHI(B.getInt32Ty(), 2, "rank.bits");
  Value *HasNext = B.CreateICmpNE(In, B.getInt32(0));
  Value *Next = B.CreateSelect(HasNext, firstLane(B, In), W.Lane);
  Value *Theirs = shuffleValue(B, Intrinsic::nvvm_shfl_sync_idx_f32,
                               Intrinsic::nvvm_shfl_sync_idx_i32, W.Active, Sum,
                               Next, B.getInt32(31));
  Value *Added = B.CreateSelect(HasNext, accumulate(B, A, Sum, Theirs), Sum);
  Value *Out = ballot(B, W.Active, B.CreateTrunc(Bits, B.getInt1Ty()), "out");
  Value *StillIn = B.CreateAnd(In, B.CreateNot(Out));
  Value *More =
      callIntrinsic(B, Intrinsic::nvvm_vote_any_sync,
                    {W.Active, B.CreateICmpNE(StillIn, B.getInt32(0))});
  Value *NextBits = B.CreateLShr(Bits, 1);
  B.CreateCondBr(More, Round, After);
  Sum->addIncoming(V, Pre);
  Sum->addIncoming(Added, Round);
  In->addIncoming(Above, Pre);
  In->addIncoming(StillIn, Round);
  Bits->addIncoming(Rank, Pre);
  Bits->addIncoming(NextBits, Round);
  B.SetInsertPoint(&*After->getFirstInsertionPt());
  return Added;
}

/// The sum of \p V over a whole warp, in every lane: five butterfly
/// shuffles.
Value *sumWarp(IRBuilderBase &B, const AtomicRMWInst &A, Value *V) {
  for (unsigned Offset : {16, 8, 4, 2, 1})
    V = accumulate(B, A, V,
                   shuffleValue(B, Intrinsic::nvvm_shfl_sync_bfly_f32,
                                Intrinsic::nvvm_shfl_sync_bfly_i32,
                                B.getInt32(~0u), V, B.getInt32(Offset),
                                B.getInt32(31)));
  return V;
}

/// The sum of \p V over each group of peers, in its first lane: where the
/// 32 lanes are one group (a uniform address, a full warp) the butterfly,
/// else sumPeers's rounds. Leaves \p B in the block after.
Value *sumGroup(IRBuilderBase &B, const AtomicRMWInst &A, const WarpState &W,
                Value *V) {
  Value *Whole = B.CreateICmpEQ(W.Peers, B.getInt32(~0u), "whole.warp");
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(Whole, &*B.GetInsertPoint(), &Then, &Else);
  BasicBlock *Joined = Then->getSuccessor(0);
  B.SetInsertPoint(Then);
  Value *WarpSum = sumWarp(B, A, V);
  B.SetInsertPoint(Else);
  Value *GroupSum = sumPeers(B, A, W, V);
  BasicBlock *GroupEnd = B.GetInsertBlock();
  B.SetInsertPoint(&*Joined->getFirstInsertionPt());
  PHINode *Sum = B.CreatePHI(V->getType(), 2, "sum");
  Sum->addIncoming(WarpSum, Then->getParent());
  Sum->addIncoming(GroupSum, GroupEnd);
  return Sum;
}

void markAggregated(Instruction &I) {
  I.setMetadata(AggregatedMark, MDNode::get(I.getContext(), {}));
}

/// Whether some active lane's address \p Addr (lane \p Lane) equals the
/// one below it: a shuffle and a vote, where match.any costs far more.
/// Only the low words are compared, and a lane below that is inactive
/// gives an undefined word: the answer only picks the plain atomic or the
/// grouped one, both exact. Groups that are not neighbours are missed.
Value *neighboursShare(IRBuilderBase &B, Value *Active, Value *Lane,
                       Value *Addr) {
  Value *Low = B.CreateTrunc(Addr, B.getInt32Ty(), "addr.low");
  Value *Below =
      callIntrinsic(B, Intrinsic::nvvm_shfl_sync_up_i32,
                    {Active, Low, B.getInt32(1), B.getInt32(0)}, {}, "below");
  Value *Shares = B.CreateAnd(B.CreateICmpNE(Lane, B.getInt32(0)),
                              B.CreateICmpEQ(Low, Below));
  return callIntrinsic(B, Intrinsic::nvvm_vote_any_sync, {Active, Shares}, {},
                       "neighbours.share");
}

/// The lanes that share this lane's address \p Addr: all the active ones
/// where every active lane has the first one's address (exactly), else
/// match.any's group. Leaves \p B after the choice.
Value *peersOf(IRBuilderBase &B, Value *Active, Value *Addr) {
  Value *Lead = shuffleValue(B, Intrinsic::nvvm_shfl_sync_idx_f32,
                             Intrinsic::nvvm_shfl_sync_idx_i32, Active, Addr,
                             firstLane(B, Active), B.getInt32(31));
  Value *AllLead =
      callIntrinsic(B, Intrinsic::nvvm_vote_all_sync,
                    {Active, B.CreateICmpEQ(Addr, Lead)}, {}, "one.address");
  BasicBlock *Before = B.GetInsertBlock();
  Instruction *Grouped = SplitBlockAndInsertIfThen(
      B.CreateNot(AllLead), &*B.GetInsertPoint(), /*Unreachable=*/false);
  B.SetInsertPoint(Grouped);
  Value *Match = callIntrinsic(B,
                               Addr->getType()->isIntegerTy(64)
                                   ? Intrinsic::nvvm_match_any_sync_i64
                                   : Intrinsic::nvvm_match_any_sync_i32,
                               {Active, Addr}, {}, "matched");
  BasicBlock *Joined = Grouped->getSuccessor(0);
  B.SetInsertPoint(&Joined->front());
  PHINode *Peers = B.CreatePHI(B.getInt32Ty(), 2, "peers");
  Peers->addIncoming(Active, Before);
  Peers->addIncoming(Match, Grouped->getParent());
  return Peers;
}

/// The first point of \p A's block where its address is known: the lanes
/// there are the atomic's, and a test placed there runs while the block's
/// loads are in flight rather than after the value they feed.
Instruction *earliestTest(AtomicRMWInst &A) {
  auto *Def = dyn_cast<Instruction>(A.getPointerOperand());
  if (Def && Def->getParent() == A.getParent() && !isa<PHINode>(Def))
    return Def->getNextNode();
  return &*A.getParent()->getFirstInsertionPt();
}

/// Replaces \p A by the aggregation (the header's picture). A \p Uniform
/// address sums over all active lanes; any other first asks whether
/// neighbouring lanes share it, and keeps the plain atomic where none do.
void aggregate(AtomicRMWInst &A, bool Uniform) {
  IRBuilder<> B(earliestTest(A));
  WarpState W;
  W.Active = activeLaneMask(B, "active");
  W.Lane = readLane(B);
  W.Me = B.CreateShl(B.getInt32(1), W.Lane);
  Instruction *Plain = nullptr;
  if (Uniform) {
    W.Peers = W.Active;
    B.SetInsertPoint(&A);
  } else {
    const DataLayout &DL = A.getModule()->getDataLayout();
    Type *IntPtr = DL.getIntPtrType(A.getPointerOperand()->getType());
    Value *Addr = B.CreatePtrToInt(A.getPointerOperand(), IntPtr, "addr");
    Instruction *Then = nullptr;
    SplitBlockAndInsertIfThenElse(neighboursShare(B, W.Active, W.Lane, Addr),
                                  &A, &Then, &Plain);
    B.SetInsertPoint(Then);
    W.Peers = peersOf(B, W.Active, Addr);
  }
  Value *Sum = sumGroup(B, A, W, A.getValOperand());
  Value *First = B.CreateICmpEQ(W.Lane, firstLane(B, W.Peers), "first");
  Instruction *Leader = SplitBlockAndInsertIfThen(First, &*B.GetInsertPoint(),
                                                  /*Unreachable=*/false);
  auto *Summed = cast<AtomicRMWInst>(A.clone());
  Summed->setOperand(1, Sum);
  Summed->insertBefore(Leader);
  markAggregated(*Summed);
  if (Plain) {
    A.moveBefore(Plain);
    markAggregated(A);
  } else {
    A.eraseFromParent();
  }
}

/// Before \p A, a branch on \p Test (uniform) to a plain copy of \p A
/// where it holds; \p A goes to the other path.
void branchWhereDistinct(AtomicRMWInst &A, const DistinctTest &Test) {
  IRBuilder<> B(&A);
  Value *All = Test(B);
  All->setName("lanes.distinct");
  Instruction *Distinct = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(All, &A, &Distinct, &Else);
  Instruction *Plain = A.clone();
  Plain->insertBefore(Distinct);
  markAggregated(*Plain);
  A.moveBefore(Else);
}

/// Says what becomes of \p A.
void remark(OptimizationRemarkEmitter &ORE, AtomicRMWInst &A,
            const AddressSharing &Sh) {
  Sharing S = Sh.S;
  if (Sh.Test) {
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Aggregated", &A)
             << "an atomic accumulation stays plain where a condition the "
                "lanes share makes its address differ in every lane, and is "
                "summed across the lanes that share it elsewhere";
    });
    return;
  }
  if (S == Sharing::Distinct) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "LaneDistinct", &A)
             << "an atomic accumulation stays as it is: its address differs "
                "in every lane of a warp";
    });
    return;
  }
  ORE.emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Aggregated", &A)
           << (S == Sharing::Uniform
                   ? "an atomic accumulation into one address for the whole "
                     "warp is summed across the lanes first"
                   : "an atomic accumulation is summed first across the "
                     "lanes of a warp that share its address")
           << ": one atomic per address and warp";
  });
}

} // namespace

PreservedAnalyses
AccumulationAggregationPass::run(Function &F, FunctionAnalysisManager &FAM) {
  AccumulationAggregationStats S;
  SmallVector<AtomicRMWInst *, 8> Candidates;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *A = dyn_cast<AtomicRMWInst>(&I);
          A && isCandidate(*A, ReassociateFP))
        Candidates.push_back(A);
  if (Candidates.empty())
    return PreservedAnalyses::all();
  OptimizationRemarkEmitter ORE(&F);
  if (targetLacksMatch(F)) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NoMatch", Candidates[0])
             << "atomic accumulations stay as they are: the target has no "
                "match.any.sync (before sm_70)";
    });
    return PreservedAnalyses::all();
  }
  SmallVector<std::pair<AtomicRMWInst *, AddressSharing>, 8> Plan;
  for (AtomicRMWInst *A : Candidates)
    Plan.push_back({A, sharingOf(*A)});
  for (auto &[A, Sh] : Plan) {
    remark(ORE, *A, Sh);
    if (Sh.S == Sharing::Distinct) {
      ++S.LaneDistinct;
      continue;
    }
    ++S.Aggregated;
    S.Uniform += Sh.S == Sharing::Uniform;
    if (Sh.Test) {
      ++S.Conditional;
      branchWhereDistinct(*A, *Sh.Test);
    }
    aggregate(*A, Sh.S == Sharing::Uniform);
  }
  IRS_ACCUMULATION_AGGREGATION_COUNTERS(IRS_COUNTER_BUMP)
  if (PassResults *Results = passResults(F, FAM))
    Results->get<AccumulationAggregationStats>() += S;
  return S.Aggregated == 0 ? PreservedAnalyses::all()
                           : PreservedAnalyses::none();
}

void AccumulationAggregationPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<AccumulationAggregationPass> *>(this)
      ->printPipeline(OS, MapClassName2PassName);
  if (ReassociateFP)
    printPassParameters(OS, {"reassociate-fp"});
}

} // namespace irs
