//===- InvariantDivision.cpp - Division by invariants as multiplication ---===//
#include "ir-sanitize/Transforms/InvariantDivision.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "ir-sanitize-invariant-division"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumDivisions,
                         "Divisions by loop-invariant values made "
                         "multiplications");
ALWAYS_ENABLED_STATISTIC(NumRemainders, "Remainders made n - q * d");

using namespace llvm;

namespace irs {
namespace {

/// What a division by one divisor needs, computed once before the loop.
struct Reciprocal {
  Value *Fits = nullptr; ///< i1: the divisor fits 32 bits.
  Value *Multiplier = nullptr, *Shift1 = nullptr, *Shift2 = nullptr; ///< i32
};

/// Marks the division a 64-bit rewrite keeps for operands that do not fit
/// 32 bits: it is not a candidate again (a second run changes nothing).
constexpr const char KeptDivision[] = "irs.wide_division";

bool isCandidateType(Type *T) {
  return T->isIntegerTy(32) || T->isIntegerTy(64);
}

/// The block that enters the outermost loop around \p I in which \p D is
/// invariant (the loop's one predecessor outside it, whose terminator \p D
/// then dominates); null if there is none. The reciprocal is computed
/// there: it neither traps nor has side effects, so the block need not be a
/// preheader.
BasicBlock *hoistingBlock(const LoopInfo &LI, const Instruction &I,
                          const Value *D) {
  if (auto *DI = dyn_cast<Instruction>(D); DI && DI->isTerminator())
    return nullptr; // an invoke's result: not available before it
  BasicBlock *Entering = nullptr;
  for (Loop *L = LI.getLoopFor(I.getParent()); L && L->isLoopInvariant(D);
       L = L->getParentLoop()) {
    BasicBlock *P = L->getLoopPredecessor();
    if (!P)
      break;
    Entering = P;
  }
  return Entering;
}

/// \p V >= 0 as a signed value: ValueTracking's answer, or a division or
/// remainder of non-negative operands (at most the dividend, of its sign),
/// which ValueTracking before LLVM 17 does not derive for signed ones: the
/// pass rewrites the same divisions on every LLVM.
bool isNonNegative(const Value *V, const DataLayout &DL, unsigned Depth = 0) {
  if (isKnownNonNegative(V, DL))
    return true;
  const auto *B = dyn_cast<BinaryOperator>(V);
  if (!B || Depth == 4)
    return false;
  switch (B->getOpcode()) {
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
    return isNonNegative(B->getOperand(0), DL, Depth + 1) &&
           isNonNegative(B->getOperand(1), DL, Depth + 1);
  default:
    return false;
  }
}

/// A division or remainder this pass rewrites: unsigned (or signed with
/// operands known to be non-negative), 32 or 64 bits, by a divisor that is
/// not a constant and is invariant in a loop around it.
BasicBlock *rewritableIn(const LoopInfo &LI, const BinaryOperator &B,
                         const DataLayout &DL) {
  unsigned Op = B.getOpcode();
  bool Signed = Op == Instruction::SDiv || Op == Instruction::SRem;
  if ((!Signed && Op != Instruction::UDiv && Op != Instruction::URem) ||
      !isCandidateType(B.getType()) || isa<Constant>(B.getOperand(1)) ||
      B.getMetadata(KeptDivision))
    return nullptr;
  if (Signed && !(isNonNegative(B.getOperand(0), DL) &&
                  isNonNegative(B.getOperand(1), DL)))
    return nullptr;
  return hoistingBlock(LI, B, B.getOperand(1));
}

Reciprocal reciprocalOf(Value *D, Instruction *InsertBefore) {
  IRBuilder<> B(InsertBefore);
  Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  Reciprocal R;
  Value *D32 = D;
  R.Fits = B.getTrue();
  if (D->getType()->isIntegerTy(64)) {
    R.Fits = B.CreateICmpULT(D, B.getInt64(1ULL << 32), "div.fits");
    D32 = B.CreateTrunc(D, I32);
  }
  // 1 where the division cannot run (d = 0) or takes the other path.
  Value *Safe =
      B.CreateSelect(B.CreateAnd(R.Fits, B.CreateICmpNE(D32, B.getInt32(0))),
                     D32, B.getInt32(1), "div.d");
  Value *Ctlz = B.CreateBinaryIntrinsic(
      Intrinsic::ctlz, B.CreateSub(Safe, B.getInt32(1)), B.getFalse());
  Value *L = B.CreateSub(B.getInt32(32), Ctlz, "div.log2"); // ceil(log2 d)
  Value *Safe64 = B.CreateZExt(Safe, I64);
  Value *Numerator = B.CreateShl(
      B.CreateSub(B.CreateShl(B.getInt64(1), B.CreateZExt(L, I64)), Safe64),
      32);
  R.Multiplier = B.CreateTrunc(
      B.CreateAdd(B.CreateUDiv(Numerator, Safe64), B.getInt64(1), "div.m.wide"),
      I32, "div.m");
  R.Shift1 = B.CreateBinaryIntrinsic(Intrinsic::umin, L, B.getInt32(1));
  R.Shift2 = B.CreateSub(L, R.Shift1);
  return R;
}

/// floor(N / d) for a 32-bit \p N. The high half of a product of two
/// zero-extended 32-bit values: code generation's mul.hi.u32.
Value *quotient32(IRBuilder<> &B, Value *N, const Reciprocal &R) {
  Type *I64 = B.getInt64Ty();
  // Each extension its own statement: the order of evaluating arguments,
  // and so of the instructions, would be the compiler's.
  Value *N64 = B.CreateZExt(N, I64);
  Value *M64 = B.CreateZExt(R.Multiplier, I64);
  Value *T =
      B.CreateTrunc(B.CreateLShr(B.CreateMul(N64, M64), 32), B.getInt32Ty());
  Value *Half = B.CreateLShr(B.CreateSub(N, T), R.Shift1);
  return B.CreateLShr(B.CreateAdd(T, Half), R.Shift2, "div.q");
}

/// Replaces the 64-bit \p Div with the multiplication where its operands fit
/// 32 bits and keeps it, on the other path, where they do not.
void rewrite64(BinaryOperator &Div, const Reciprocal &R) {
  IRBuilder<> B(&Div);
  Value *N = Div.getOperand(0);
  Value *Fits = B.CreateAnd(R.Fits, B.CreateICmpULT(N, B.getInt64(1ULL << 32)));
  Instruction *Then = nullptr, *Else = nullptr;
  SplitBlockAndInsertIfThenElse(Fits, &Div, &Then, &Else);
  BasicBlock *Join = Div.getParent();
  Div.moveBefore(*Else->getParent(), Else->getIterator());
  Div.setMetadata(KeptDivision, MDNode::get(Div.getContext(), {}));
  B.SetInsertPoint(Then);
  Value *Fast = B.CreateZExt(quotient32(B, B.CreateTrunc(N, B.getInt32Ty()), R),
                             Div.getType());
  B.SetInsertPoint(Join, Join->begin());
  PHINode *Q = B.CreatePHI(Div.getType(), 2, "div.q");
  Q->addIncoming(Fast, Then->getParent());
  Q->addIncoming(&Div, Else->getParent());
  Div.replaceUsesWithIf(Q, [Q](Use &U) { return U.getUser() != Q; });
}

void rewriteDivision(BinaryOperator &Div, const Reciprocal &R) {
  if (Div.getType()->isIntegerTy(64))
    return rewrite64(Div, R);
  IRBuilder<> B(&Div);
  Div.replaceAllUsesWith(quotient32(B, Div.getOperand(0), R));
  Div.eraseFromParent();
}

/// The block's udiv of \p Rem's operands, moved up to \p Rem if it comes
/// later; null if there is none. Only a plain one: an `exact` quotient is
/// poison where the division is not exact, which is where a remainder is
/// not 0, so the remainder cannot be built on it.
BinaryOperator *quotientIn(BinaryOperator &Rem) {
  for (Instruction &I : *Rem.getParent()) {
    auto *Div = dyn_cast<BinaryOperator>(&I);
    if (!Div || Div->getOpcode() != Instruction::UDiv ||
        Div->hasPoisonGeneratingFlags() ||
        Div->getOperand(0) != Rem.getOperand(0) ||
        Div->getOperand(1) != Rem.getOperand(1))
      continue;
    // Its operands are Rem's, so they are defined before Rem.
    if (Rem.comesBefore(Div))
      Div->moveBefore(*Rem.getParent(), Rem.getIterator());
    return Div;
  }
  return nullptr;
}

/// Signed operations on non-negative operands as unsigned ones.
BinaryOperator *asUnsigned(BinaryOperator &B) {
  Instruction::BinaryOps Op = B.getOpcode();
  if (Op != Instruction::SDiv && Op != Instruction::SRem)
    return &B;
  IRBuilder<> Builder(&B);
  auto *U = cast<BinaryOperator>(Builder.CreateBinOp(
      Op == Instruction::SDiv ? Instruction::UDiv : Instruction::URem,
      B.getOperand(0), B.getOperand(1)));
  U->takeName(&B);
  B.replaceAllUsesWith(U);
  B.eraseFromParent();
  return U;
}

/// Rewrites \p Rem as n - q * d; returns q when it had to be created.
BinaryOperator *expandRemainder(BinaryOperator &Rem) {
  IRBuilder<> B(&Rem);
  BinaryOperator *Div = quotientIn(Rem), *Created = nullptr;
  if (!Div)
    Div = Created = cast<BinaryOperator>(
        B.CreateUDiv(Rem.getOperand(0), Rem.getOperand(1), "div.q"));
  Rem.replaceAllUsesWith(
      B.CreateSub(Rem.getOperand(0), B.CreateMul(Div, Rem.getOperand(1))));
  Rem.eraseFromParent();
  return Created;
}

struct Candidate {
  BinaryOperator *Op;
  BasicBlock *Entering; ///< Where its reciprocal is computed.
};

std::vector<Candidate> candidatesIn(Function &F, const LoopInfo &LI) {
  std::vector<Candidate> Found;
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *B = dyn_cast<BinaryOperator>(&I))
        if (BasicBlock *Entering = rewritableIn(LI, *B, DL))
          Found.push_back({B, Entering});
  return Found;
}

} // namespace

PreservedAnalyses InvariantDivisionPass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  std::vector<Candidate> Found =
      candidatesIn(F, FAM.getResult<LoopAnalysis>(F));
  if (Found.empty())
    return PreservedAnalyses::all();
  for (Candidate &C : Found)
    C.Op = asUnsigned(*C.Op);
  // Remainders first: each needs a quotient, which is then rewritten too.
  std::vector<Candidate> Divisions;
  unsigned Remainders = 0;
  for (Candidate C : Found) {
    if (C.Op->getOpcode() == Instruction::UDiv) {
      Divisions.push_back(C);
      continue;
    }
    if (BinaryOperator *Created = expandRemainder(*C.Op))
      Divisions.push_back({Created, C.Entering});
    ++Remainders;
  }
  // Every reciprocal before any rewrite: a 64-bit rewrite splits its block,
  // and a block that enters an inner loop may hold an outer loop's division
  // before the inner divisor's definition, which the split would move past
  // that block's terminator. Each division holds its own: a rewrite replaces
  // a quotient that may be another division's divisor, so no value is
  // looked up once rewriting starts.
  DenseMap<std::pair<BasicBlock *, Value *>, Reciprocal> Reciprocals;
  std::vector<std::pair<BinaryOperator *, Reciprocal>> Rewrites;
  for (Candidate C : Divisions) {
    Value *D = C.Op->getOperand(1);
    auto [It, New] = Reciprocals.try_emplace({C.Entering, D});
    if (New)
      It->second = reciprocalOf(D, C.Entering->getTerminator());
    Rewrites.push_back({C.Op, It->second});
  }
  for (auto &[Div, R] : Rewrites)
    rewriteDivision(*Div, R);
  NumDivisions += Divisions.size();
  NumRemainders += Remainders;
  OptimizationRemarkEmitter ORE(&F);
  ORE.emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Multiplied", &F)
           << ore::NV("Function", &F)
           << ": divisions by loop-invariant values made multiplications: "
           << ore::NV("Divisions", static_cast<unsigned>(Divisions.size()))
           << " (remainders: " << ore::NV("Remainders", Remainders) << ")";
  });
  return PreservedAnalyses::none();
}

} // namespace irs
