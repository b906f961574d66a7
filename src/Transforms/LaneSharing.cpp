//===- LaneSharing.cpp - Where the lanes of a warp share an address -------===//
#include "LaneSharing.h"

#include "WarpLanes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace irs {
namespace {

/// Whether \p V reads this thread's x index or lane: the values that differ
/// between the lanes of a warp in a one-dimensional block.
bool isLaneIndex(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  return threadIndexDim(V) == 0u ||
         (II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_laneid);
}

/// Whether \p V reads a value every thread of a block shares: its block's
/// index, the block and grid sizes.
bool isBlockConstant(const Value *V) {
  const SpecialRegister *R = specialRegisterRead(V);
  return R && R->blockConstant();
}

/// Whether integer operation \p BO is injective in its operand \p Varying
/// for the other operand fixed: addition and subtraction modulo 2^n, xor, a
/// multiplication or left shift by a constant that cannot wrap (or a
/// multiplication by an odd constant, a bijection modulo 2^n).
bool injectiveIn(const BinaryOperator &BO, unsigned Varying) {
  const auto *C = dyn_cast<ConstantInt>(BO.getOperand(1 - Varying));
  bool NoWrap = BO.hasNoUnsignedWrap() || BO.hasNoSignedWrap();
  switch (BO.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Xor:
    return true;
  case Instruction::Mul:
    return C && !C->isZero() && (C->getValue()[0] || NoWrap);
  case Instruction::Shl:
    return C && Varying == 0 && NoWrap;
  default:
    return false;
  }
}

/// Whether \p I is an intrinsic that computes from its operands alone
/// (smax, abs: Julia's array sizes): not the operand-free reads of the
/// thread's registers, nothing convergent.
bool isPureOperation(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && II->arg_size() > 0 && !II->isConvergent() &&
         !II->mayReadOrWriteMemory() && !II->mayHaveSideEffects();
}

} // namespace

bool LaneSharing::uniform(const Value *V, unsigned Depth) {
  if (isa<Constant>(V) || isa<Argument>(V) || isBlockConstant(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth || I->mayReadOrWriteMemory() ||
      I->mayHaveSideEffects() || (isa<CallBase>(I) && !isPureOperation(*I)))
    return false;
  if (const auto *Phi = dyn_cast<PHINode>(I)) {
    if (!InProgress.insert(Phi).second)
      return true; // a cycle: uniform if the rest is
    bool All = all_of(Phi->incoming_values(),
                      [&](const Value *In) { return uniform(In, Depth + 1); });
    InProgress.erase(Phi);
    return All;
  }
  return all_of(I->operands(),
                [&](const Value *Op) { return uniform(Op, Depth + 1); });
}

bool LaneSharing::injective(Value *V, SmallVectorImpl<LaneLiteral> &When,
                            unsigned Depth) {
  if (isLaneIndex(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth)
    return false;
  auto Next = [&](Value *Op) { return injective(Op, When, Depth + 1); };
  if (isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<BitCastInst>(I) ||
      isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I) || isa<AddrSpaceCastInst>(I))
    return Next(I->getOperand(0));
  if (auto *BO = dyn_cast<BinaryOperator>(I))
    return any_of(std::initializer_list<unsigned>{0, 1}, [&](unsigned Vary) {
      return injectiveIn(*BO, Vary) && uniform(BO->getOperand(1 - Vary)) &&
             Next(BO->getOperand(Vary));
    });
  if (auto *Sel = dyn_cast<SelectInst>(I))
    return injectiveSelect(*Sel, When, Depth);
  auto *GEP = dyn_cast<GetElementPtrInst>(I);
  return GEP && GEP->isInBounds() && injectiveGEP(*GEP, When, Depth);
}

/// Injective where its condition picks an injective side (both sides:
/// always, given theirs).
bool LaneSharing::injectiveSelect(SelectInst &Sel,
                                  SmallVectorImpl<LaneLiteral> &When,
                                  unsigned Depth) {
  Value *C = Sel.getCondition();
  if (!uniform(C))
    return false;
  SmallVector<LaneLiteral, 2> IfTrue, IfFalse;
  bool T = injective(Sel.getTrueValue(), IfTrue, Depth + 1);
  bool F = injective(Sel.getFalseValue(), IfFalse, Depth + 1);
  if (!T && !F)
    return false;
  append_range(When, IfTrue);
  append_range(When, IfFalse);
  if (!T || !F)
    When.push_back({C, T});
  return true;
}

/// One varying operand: the base, or an index into a sized element
/// (inbounds: its scaled offset does not wrap).
bool LaneSharing::injectiveGEP(GetElementPtrInst &GEP,
                               SmallVectorImpl<LaneLiteral> &When,
                               unsigned Depth) {
  Value *Varying = nullptr;
  bool Sized = true;
  const DataLayout &DL = GEP.getModule()->getDataLayout();
  if (!uniform(GEP.getPointerOperand()))
    Varying = GEP.getPointerOperand();
  for (auto It = gep_type_begin(&GEP); It != gep_type_end(&GEP); ++It) {
    if (uniform(It.getOperand()))
      continue;
    if (Varying || It.isStruct())
      return false;
    Varying = It.getOperand();
    Sized = !DL.getTypeAllocSize(It.getIndexedType()).isZero();
  }
  return Varying && Sized && injective(Varying, When, Depth + 1);
}

//===----------------------------------------------------------------------===//
// Addresses of a 2-D index
//===----------------------------------------------------------------------===//
//
// A broadcast over an N x M array splits the linear index I (the x index
// plus a uniform value) into I / N and I % N, and each array's element is
// base + A * (I / N) + B * (I % N) for uniform A and B (its strides, zero
// where the array is extruded). Over the lanes of a warp I runs through
// consecutive values, so the offsets differ in every lane where B != 0 and
// either |A| >= |B| * N (the remainder's range never reaches the next
// quotient's offsets) or A = 0 and N >= 32 (the remainder does not wrap
// within a warp). Selects on uniform flags (Extruded's `keep`) are decided
// case by case; the test is their disjunction.

namespace {

/// |S| without overflow.
uint64_t magnitudeOf(int64_t S) {
  return S < 0 ? 0 - static_cast<uint64_t>(S) : static_cast<uint64_t>(S);
}

/// A uniform integer: Scale times the product of Factors.
struct Term {
  int64_t Scale = 0;
  SmallVector<Value *, 2> Factors;
};

/// Whether \p A and \p B multiply the same factors (in any order).
bool sameFactors(const Term &A, const Term &B) {
  if (A.Factors.size() != B.Factors.size())
    return false;
  SmallVector<Value *, 2> X(A.Factors), Y(B.Factors);
  // Pointer order only compares here; nothing is emitted in it.
  llvm::sort(X);
  llvm::sort(Y);
  return X == Y;
}

/// A sum of nonzero terms, no two over the same factors. Operations fail
/// (false) where a scale overflows.
struct Poly {
  SmallVector<Term, 2> Terms;

  bool add(const Term &T) {
    for (auto *It = Terms.begin(); It != Terms.end(); ++It) {
      if (!sameFactors(*It, T))
        continue;
      if (AddOverflow(It->Scale, T.Scale, It->Scale))
        return false;
      if (It->Scale == 0)
        Terms.erase(It);
      return true;
    }
    if (T.Scale)
      Terms.push_back(T);
    return true;
  }

  bool add(const Poly &P, int64_t Sign) {
    for (Term T : P.Terms)
      if (MulOverflow(T.Scale, Sign, T.Scale) || !add(T))
        return false;
    return true;
  }

  bool multiply(const Term &By) {
    for (Term &T : Terms) {
      if (MulOverflow(T.Scale, By.Scale, T.Scale))
        return false;
      append_range(T.Factors, By.Factors);
    }
    if (By.Scale == 0)
      Terms.clear();
    return true;
  }
};

/// An integer as Linear * I + Quotient * (I / Divisor) +
/// Remainder * (I % Divisor) plus a uniform value, where Dividend = I is
/// the x index plus a uniform value.
struct IndexForm {
  Poly Linear, Quotient, Remainder;
  Value *Dividend = nullptr, *Divisor = nullptr;

  bool add(const IndexForm &F, int64_t Sign) {
    if (F.Divisor) {
      if (Divisor && (Divisor != F.Divisor || Dividend != F.Dividend))
        return false;
      Divisor = F.Divisor;
      Dividend = F.Dividend;
    }
    return Linear.add(F.Linear, Sign) && Quotient.add(F.Quotient, Sign) &&
           Remainder.add(F.Remainder, Sign);
  }

  bool multiply(const Term &By) {
    return Linear.multiply(By) && Quotient.multiply(By) &&
           Remainder.multiply(By);
  }

  bool justIndex() const {
    return !Divisor && Linear.Terms.size() == 1 &&
           Linear.Terms[0].Factors.empty() && Linear.Terms[0].Scale == 1;
  }

  /// I = Divisor * (I / Divisor) + I % Divisor: only the quotient and the
  /// remainder left.
  bool normalise() {
    if (!Divisor || Linear.Terms.empty())
      return true;
    Poly ByDivisor = Linear;
    if (!ByDivisor.multiply(Term{1, {Divisor}}) ||
        !Quotient.add(ByDivisor, 1) || !Remainder.add(Linear, 1))
      return false;
    Linear.Terms.clear();
    return true;
  }
};

/// \p V (uniform) as a term.
Term termOf(Value *V) {
  if (auto *C = dyn_cast<ConstantInt>(V); C && C->getBitWidth() <= 64)
    return Term{C->getSExtValue(), {}};
  return Term{1, {V}};
}

constexpr unsigned MaxCaseConditions = 3;

/// The forms of one address under one choice of its uniform selects.
class IndexForms {
public:
  IndexForms(LaneSharing &L, const DataLayout &DL) : L(L), DL(DL) {}

  /// Chooses the side of the selects on each condition (clears what
  /// formOf remembers of the previous choice).
  void choose(Value *Cond, bool Side) {
    Choice[Cond] = Side;
    Known.clear();
  }

  std::optional<IndexForm> formOf(Value *V, unsigned Depth = 0);

  /// The uniform conditions of the selects the address goes through, in
  /// the order met (none if more than MaxCaseConditions).
  bool collectConditions(Value *V, SmallVectorImpl<Value *> &Out,
                         unsigned Depth = 0);

private:
  std::optional<IndexForm> computeForm(Value *V, unsigned Depth);
  std::optional<IndexForm> binaryForm(BinaryOperator &BO, unsigned Depth);
  std::optional<IndexForm> gepForm(GetElementPtrInst &GEP, unsigned Depth);

  LaneSharing &L;
  const DataLayout &DL;
  DenseMap<Value *, bool> Choice;
  /// formOf's answers under Choice: an address's operands share values.
  DenseMap<Value *, std::optional<IndexForm>> Known;
  SmallPtrSet<Value *, 16> Visited; // by collectConditions
  static constexpr unsigned MaxDepth = 16;
};

bool IndexForms::collectConditions(Value *V, SmallVectorImpl<Value *> &Out,
                                   unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth || !Visited.insert(I).second || L.uniform(I))
    return true;
  if (auto *Sel = dyn_cast<SelectInst>(I);
      Sel && L.uniform(Sel->getCondition()) &&
      !is_contained(Out, Sel->getCondition())) {
    if (Out.size() == MaxCaseConditions)
      return false;
    Out.push_back(Sel->getCondition());
  }
  return all_of(I->operands(), [&](Value *Op) {
    return collectConditions(Op, Out, Depth + 1);
  });
}

std::optional<IndexForm> IndexForms::formOf(Value *V, unsigned Depth) {
  if (auto It = Known.find(V); It != Known.end())
    return It->second;
  std::optional<IndexForm> F = computeForm(V, Depth);
  Known[V] = F;
  return F;
}

std::optional<IndexForm> IndexForms::computeForm(Value *V, unsigned Depth) {
  IndexForm F;
  if (L.uniform(V))
    return F;
  if (isLaneIndex(V)) {
    F.Linear.add(Term{1, {}});
    return F;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth)
    return std::nullopt;
  if (isa<CastInst>(I) || isa<FreezeInst>(I))
    return formOf(I->getOperand(0), Depth + 1);
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    auto It = Choice.find(Sel->getCondition());
    if (It == Choice.end())
      return std::nullopt;
    return formOf(It->second ? Sel->getTrueValue() : Sel->getFalseValue(),
                  Depth + 1);
  }
  if (auto *BO = dyn_cast<BinaryOperator>(I))
    return binaryForm(*BO, Depth);
  if (auto *GEP = dyn_cast<GetElementPtrInst>(I))
    return gepForm(*GEP, Depth);
  return std::nullopt;
}

std::optional<IndexForm> IndexForms::binaryForm(BinaryOperator &BO,
                                                unsigned Depth) {
  Value *X = BO.getOperand(0), *Y = BO.getOperand(1);
  auto Of = [&](Value *V) { return formOf(V, Depth + 1); };
  switch (BO.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub: {
    std::optional<IndexForm> A = Of(X), B = Of(Y);
    if (!A || !B || !A->add(*B, BO.getOpcode() == Instruction::Add ? 1 : -1))
      return std::nullopt;
    return A;
  }
  case Instruction::Mul: {
    if (L.uniform(X))
      std::swap(X, Y);
    std::optional<IndexForm> A = L.uniform(Y) ? Of(X) : std::nullopt;
    if (!A || !A->multiply(termOf(Y)))
      return std::nullopt;
    return A;
  }
  case Instruction::Shl: {
    auto *C = dyn_cast<ConstantInt>(Y);
    std::optional<IndexForm> A =
        C && C->getLimitedValue() < 62 ? Of(X) : std::nullopt;
    if (!A || !A->multiply(Term{int64_t(1) << C->getLimitedValue(), {}}))
      return std::nullopt;
    return A;
  }
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem: {
    std::optional<IndexForm> A = L.uniform(Y) ? Of(X) : std::nullopt;
    if (!A || !A->justIndex())
      return std::nullopt;
    IndexForm F;
    bool Div = BO.getOpcode() == Instruction::SDiv ||
               BO.getOpcode() == Instruction::UDiv;
    (Div ? F.Quotient : F.Remainder).add(Term{1, {}});
    F.Dividend = X;
    F.Divisor = Y;
    return F;
  }
  default:
    return std::nullopt;
  }
}

std::optional<IndexForm> IndexForms::gepForm(GetElementPtrInst &GEP,
                                             unsigned Depth) {
  std::optional<IndexForm> F = formOf(GEP.getPointerOperand(), Depth + 1);
  for (auto It = gep_type_begin(&GEP); F && It != gep_type_end(&GEP); ++It) {
    if (L.uniform(It.getOperand()))
      continue;
    TypeSize Size = DL.getTypeAllocSize(It.getIndexedType());
    if (It.isStruct() || Size.isScalable())
      return std::nullopt;
    std::optional<IndexForm> Index = formOf(It.getOperand(), Depth + 1);
    if (!Index ||
        !Index->multiply(
            Term{static_cast<int64_t>(Size.getFixedValue()), {}}) ||
        !F->add(*Index, 1))
      return std::nullopt;
  }
  return F;
}

/// What one case of the selects says about the lanes' offsets, and the
/// choice of the selects that makes it.
struct CaseTest {
  enum { Never, Always, Test } Kind = Never;
  IndexForm Form;
  SmallVector<LaneLiteral, MaxCaseConditions> When;
};

/// \p X * \p Y, or the one that is not the constant 1.
Value *product(IRBuilderBase &B, Value *X, Value *Y) {
  if (match(X, m_One()))
    return Y;
  return match(Y, m_One()) ? X : B.CreateMul(X, Y);
}

/// |T| / \p Divide as \p Ty (T's factors sign-extended; abs skipped where
/// a factor is known non-negative).
Value *magnitude(IRBuilderBase &B, const Term &T, uint64_t Divide, Type *Ty) {
  const DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  uint64_t Scale = magnitudeOf(T.Scale) / Divide;
  Value *P = ConstantInt::get(Ty, Scale);
  for (Value *F : T.Factors) {
    Value *X = B.CreateSExtOrTrunc(F, Ty);
    if (!isKnownNonNegative(F, DL))
      X = B.CreateBinaryIntrinsic(Intrinsic::abs, X, B.getFalse());
    P = product(B, P, X);
  }
  return P;
}

/// Classifies a normalised form. A sum of symbolic coefficients is not
/// told.
CaseTest classify(IndexForm F) {
  const Poly &Q = F.Quotient, &R = F.Remainder;
  CaseTest C;
  C.Form = F;
  if (!F.Divisor) { // only the linear part: distinct where it is not zero
    if (F.Linear.Terms.size() == 1)
      C.Kind =
          F.Linear.Terms[0].Factors.empty() ? CaseTest::Always : CaseTest::Test;
  } else if (R.Terms.size() == 1 && Q.Terms.size() <= 1) {
    C.Kind = CaseTest::Test;
    Term RN = R.Terms[0];
    RN.Factors.push_back(F.Divisor);
    if (Q.Terms.size() == 1 && sameFactors(Q.Terms[0], RN) &&
        magnitudeOf(Q.Terms[0].Scale) >= magnitudeOf(RN.Scale) &&
        RN.Factors.size() == 1)
      C.Kind = CaseTest::Always; // the stride is the extent: |A| = |B| N
  }
  return C;
}

/// The i1 that holds where a case's offsets differ in every lane.
Value *emitCaseTest(IRBuilderBase &B, const IndexForm &F, Type *Ty) {
  if (!F.Divisor)
    return B.CreateICmpNE(magnitude(B, F.Linear.Terms[0], 1, Ty),
                          ConstantInt::get(Ty, 0));
  const Term &R = F.Remainder.Terms[0];
  Value *N = B.CreateSExtOrTrunc(F.Divisor, Ty);
  if (F.Quotient.Terms.empty()) {
    Value *Wide = B.CreateICmpUGE(N, ConstantInt::get(Ty, 32));
    if (R.Factors.empty())
      return Wide;
    return B.CreateAnd(
        Wide, B.CreateICmpNE(magnitude(B, R, 1, Ty), ConstantInt::get(Ty, 0)));
  }
  const Term &Q = F.Quotient.Terms[0];
  uint64_t G = std::gcd(magnitudeOf(Q.Scale), magnitudeOf(R.Scale));
  // Wrapping products: a wrong answer only picks the other, exact, path.
  // N is not zero where the division that made the address ran.
  Value *RowSpan = product(B, magnitude(B, R, G, Ty), N);
  Value *Spans = B.CreateICmpUGE(magnitude(B, Q, G, Ty), RowSpan);
  if (R.Factors.empty())
    return Spans;
  return B.CreateAnd(Spans, B.CreateICmpNE(RowSpan, ConstantInt::get(Ty, 0)));
}

} // namespace

Value *allHold(IRBuilderBase &B, ArrayRef<LaneLiteral> When, Value *Start) {
  Value *All = Start;
  for (auto [C, Holds] : When) {
    Value *L = Holds ? C : B.CreateNot(C);
    All = All ? B.CreateAnd(All, L) : L;
  }
  return All;
}

std::optional<DistinctTest> LaneSharing::distinctByExtents(Value *Addr) {
  auto *I = dyn_cast<Instruction>(Addr);
  if (!I)
    return std::nullopt;
  const DataLayout &DL = I->getModule()->getDataLayout();
  IndexForms Forms(*this, DL);
  SmallVector<Value *, MaxCaseConditions> Conds;
  if (!Forms.collectConditions(Addr, Conds))
    return std::nullopt;
  SmallVector<CaseTest, 8> Cases; // those that may be distinct
  bool AllAlways = true;
  for (unsigned Bits = 0; Bits < (1u << Conds.size()); ++Bits) {
    SmallVector<LaneLiteral, MaxCaseConditions> When;
    for (unsigned C = 0; C < Conds.size(); ++C) {
      When.push_back({Conds[C], (Bits >> C) & 1});
      Forms.choose(Conds[C], When.back().second);
    }
    std::optional<IndexForm> F = Forms.formOf(Addr);
    CaseTest T;
    if (F && F->normalise())
      T = classify(*F);
    AllAlways &= T.Kind == CaseTest::Always;
    if (T.Kind == CaseTest::Never)
      continue;
    T.When = std::move(When);
    Cases.push_back(std::move(T));
  }
  if (Cases.empty())
    return std::nullopt;
  if (AllAlways)
    return DistinctTest(); // no test: distinct in every case
  Type *Ty = DL.getIntPtrType(Addr->getType());
  return DistinctTest([Cases, Ty](IRBuilderBase &B) -> Value * {
    Value *Any = nullptr;
    for (const CaseTest &T : Cases) {
      Value *Holds = allHold(
          B, T.When,
          T.Kind == CaseTest::Always ? nullptr : emitCaseTest(B, T.Form, Ty));
      Holds = Holds ? Holds : B.getTrue();
      Any = Any ? B.CreateOr(Any, Holds) : Holds;
    }
    return Any;
  });
}

} // namespace irs
