//===- WarpShuffleRules.cpp - Warp shuffles Enzyme can differentiate ------===//
#include "ir-sanitize/Transforms/WarpShuffleRules.h"

#include "WarpLanes.h"

#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

#include <map>
#include <optional>

#define DEBUG_TYPE "ir-sanitize-warp-rules"

ALWAYS_ENABLED_STATISTIC(NumRules, "Warp shuffles of floats given rules");
ALWAYS_ENABLED_STATISTIC(NumWordGroups,
                         "Of them, floats shuffled as integer words");
ALWAYS_ENABLED_STATISTIC(NumInactive, "Warp intrinsic calls marked inactive");
ALWAYS_ENABLED_STATISTIC(NumLeft, "Shuffles of a float's bits left alone");

using namespace llvm;
using namespace llvm::PatternMatch;

namespace irs {
namespace {

enum class ShuffleMode { Down, Up, Bfly, Idx, None };

/// The names of the helpers and their rules start so.
constexpr const char HelperPrefix[] = "__irs_shfl_";

struct ShuffleIntrinsic {
  ShuffleMode Mode;
  const char *Name;
  Intrinsic::ID F32, I32;
  ShuffleMode Transpose;
};

constexpr ShuffleIntrinsic ShuffleIntrinsics[] = {
#define WARP_SHUFFLE(MODE, NAME, F32, I32, TRANSPOSE)                          \
  {ShuffleMode::MODE, NAME, Intrinsic::F32, Intrinsic::I32,                    \
   ShuffleMode::TRANSPOSE},
#include "ir-sanitize/Transforms/WarpIntrinsics.def"
};

constexpr const char *InactivePrefixes[] = {
#define WARP_INACTIVE(PREFIX, WHAT) PREFIX,
#include "ir-sanitize/Transforms/WarpIntrinsics.def"
};

const ShuffleIntrinsic &intrinsicFor(ShuffleMode Mode) {
  for (const ShuffleIntrinsic &S : ShuffleIntrinsics)
    if (S.Mode == Mode)
      return S;
  llvm_unreachable("a mode without a row");
}

/// The operands of one shfl.sync call, as the PTX instruction takes them.
struct Shuffle {
  const ShuffleIntrinsic *Kind = nullptr;
  bool OfFloat = false; ///< .f32, else .i32
  llvm::Value *Mask = nullptr, *Val = nullptr, *B = nullptr, *C = nullptr;
  bool sameLanes(const Shuffle &O) const {
    return Kind == O.Kind && Mask == O.Mask && B == O.B && C == O.C;
  }
};

std::optional<Shuffle> asShuffle(const llvm::Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return std::nullopt;
  for (const ShuffleIntrinsic &S : ShuffleIntrinsics)
    if (II->getIntrinsicID() == S.F32 || II->getIntrinsicID() == S.I32)
      return Shuffle{&S,
                     II->getIntrinsicID() == S.F32,
                     II->getArgOperand(0),
                     II->getArgOperand(1),
                     II->getArgOperand(2),
                     II->getArgOperand(3)};
  return std::nullopt;
}

bool isInactiveWarpIntrinsic(const Function *F) {
  return F && F->isIntrinsic() && any_of(InactivePrefixes, [&](const char *P) {
           return F->getName().starts_with(P);
         });
}

/// Whether integer \p V holds a float's bits (a bitcast from a float, a
/// few integer steps up).
bool holdsFloatBits(const llvm::Value *V, unsigned Depth = 0) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return false;
  if (isa<BitCastInst>(I))
    return I->getOperand(0)->getType()->isFPOrFPVectorTy();
  if (!isa<TruncInst>(I) && !isa<ZExtInst>(I) && !I->isShift() &&
      !I->isBitwiseLogicOp())
    return false;
  return any_of(I->operands(), [&](const Use &Op) {
    return holdsFloatBits(Op.get(), Depth + 1);
  });
}

//===----------------------------------------------------------------------===//
// Shuffles by mode (WarpLanes.h emits them word by word).
//===----------------------------------------------------------------------===//

Value *shuffleValue(IRBuilder<> &B, ShuffleMode Mode, Value *Mask, Value *V,
                    Value *Lane, Value *C) {
  const ShuffleIntrinsic &S = intrinsicFor(Mode);
  return irs::shuffleValue(B, S.F32, S.I32, Mask, V, Lane, C);
}

//===----------------------------------------------------------------------===//
// The helpers and their rules.
//===----------------------------------------------------------------------===//

/// One helper: a mode, a float type, and the operands that are constants
/// (part of the helper) rather than arguments.
struct HelperKey {
  ShuffleMode Mode;
  Type *T;
  std::optional<uint32_t> Mask, B, C;
  bool operator<(const HelperKey &O) const {
    return std::tie(Mode, T, Mask, B, C) <
           std::tie(O.Mode, O.T, O.Mask, O.B, O.C);
  }
};

/// The operand slots of a shuffle, in the order the helper takes them.
enum Slot { MaskSlot, ValueSlot, BSlot, CSlot };
constexpr Slot Slots[] = {MaskSlot, ValueSlot, BSlot, CSlot};

const std::optional<uint32_t> &constantIn(const HelperKey &K, Slot S) {
  static const std::optional<uint32_t> None;
  return S == MaskSlot ? K.Mask : S == BSlot ? K.B : S == CSlot ? K.C : None;
}

std::string typeSuffix(Type *T) {
  return T->isHalfTy() ? "f16" : T->isFloatTy() ? "f32" : "f64";
}

std::string helperName(const HelperKey &K) {
  std::string Name = std::string(HelperPrefix) + intrinsicFor(K.Mode).Name +
                     "_" + typeSuffix(K.T);
  const char *Tags[] = {"_m", "", "_b", "_c"};
  for (Slot S : Slots)
    if (const std::optional<uint32_t> &V = constantIn(K, S))
      Name += Tags[S] + utostr(*V);
  return Name;
}

/// The values of a shuffle's operands inside a helper or rule: the
/// constants of \p K, else the arguments \p Args gives.
struct Operands {
  Value *Mask, *Val, *B, *C;
};

class RuleBuilder {
public:
  explicit RuleBuilder(Module &M) : M(M), Ctx(M.getContext()) {}
  /// The helper for \p K, with its rules registered.
  Function *helper(const HelperKey &K);

private:
  Module &M;
  LLVMContext &Ctx;
  std::map<HelperKey, Function *> Helpers;

  enum class Convention { Primal, Forward, Augmented, Gradient };
  Function *create(const HelperKey &K, Convention Conv, const Twine &Name);
  Operands operandsOf(const HelperKey &K, Function *F, Convention Conv,
                      Value *&Shadow);
  void emitGradient(IRBuilder<> &B, const HelperKey &K, const Operands &Ops,
                    Value *Adjoint);
  Value *transposeUniform(IRBuilder<> &B, ShuffleMode Transpose,
                          const Operands &Ops, Value *Lane, Value *Send);
  Value *gatherFromAll(IRBuilder<> &B, const Operands &Ops, Value *Lane,
                       Value *Send, Value *Src);
  void registerRules(Function *Helper, ArrayRef<Function *> Derivative,
                     ArrayRef<Function *> Gradient);
};

/// A rule's or helper's signature. Enzyme passes an inactive integer
/// argument to a rule twice (value and shadow), the shuffled value with
/// its tangent in forward mode and alone in reverse mode, where the
/// gradient also takes the result's adjoint.
Function *RuleBuilder::create(const HelperKey &K, Convention Conv,
                              const Twine &Name) {
  SmallVector<Type *, 8> Params;
  Type *I32 = Type::getInt32Ty(Ctx);
  for (Slot S : Slots) {
    bool Passed = S == ValueSlot || !constantIn(K, S);
    if (!Passed)
      continue;
    Type *T = S == ValueSlot ? K.T : I32;
    Params.push_back(T);
    bool Twice = Conv == Convention::Forward ||
                 (S != ValueSlot && Conv != Convention::Primal);
    if (Twice)
      Params.push_back(T);
  }
  if (Conv == Convention::Gradient)
    Params.push_back(K.T);
  Type *Ret = Conv == Convention::Forward    ? StructType::get(K.T, K.T)
              : Conv == Convention::Gradient ? StructType::get(K.T)
                                             : K.T;
  Function *F = Function::Create(FunctionType::get(Ret, Params, false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::Convergent);
  F->addFnAttr(Attribute::NoUnwind);
  if (Conv == Convention::Primal)
    F->addFnAttr(Attribute::NoInline); // Enzyme must see the call
  return F;
}

/// The operands inside \p F; \p Shadow: the tangent (forward) or the
/// result's adjoint (gradient), else null.
Operands RuleBuilder::operandsOf(const HelperKey &K, Function *F,
                                 Convention Conv, Value *&Shadow) {
  Operands Ops{};
  Value **Into[] = {&Ops.Mask, &Ops.Val, &Ops.B, &Ops.C};
  auto Arg = F->arg_begin();
  Shadow = nullptr;
  for (Slot S : Slots) {
    if (S != ValueSlot && constantIn(K, S)) {
      *Into[S] = ConstantInt::get(Type::getInt32Ty(Ctx), *constantIn(K, S));
      continue;
    }
    *Into[S] = &*Arg++;
    if (S == ValueSlot && Conv == Convention::Forward)
      Shadow = &*Arg++;
    else if (S != ValueSlot && Conv != Convention::Primal)
      ++Arg; // the integer's shadow
  }
  if (Conv == Convention::Gradient)
    Shadow = &*Arg++;
  return Ops;
}

Function *RuleBuilder::helper(const HelperKey &K) {
  if (Function *F = Helpers[K])
    return F;
  std::string Name = helperName(K);
  Value *Shadow;
  Function *Primal = create(K, Convention::Primal, Name);
  Operands Ops = operandsOf(K, Primal, Convention::Primal, Shadow);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Primal));
  B.CreateRet(shuffleValue(B, K.Mode, Ops.Mask, Ops.Val, Ops.B, Ops.C));

  Function *Fwd = create(K, Convention::Forward, Name + "_fwd");
  Ops = operandsOf(K, Fwd, Convention::Forward, Shadow);
  B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", Fwd));
  Value *Both = PoisonValue::get(Fwd->getReturnType());
  Both = B.CreateInsertValue(
      Both, shuffleValue(B, K.Mode, Ops.Mask, Ops.Val, Ops.B, Ops.C), 0);
  Both = B.CreateInsertValue(
      Both, shuffleValue(B, K.Mode, Ops.Mask, Shadow, Ops.B, Ops.C), 1);
  B.CreateRet(Both);

  Function *Aug = create(K, Convention::Augmented, Name + "_aug");
  Ops = operandsOf(K, Aug, Convention::Augmented, Shadow);
  B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", Aug));
  B.CreateRet(shuffleValue(B, K.Mode, Ops.Mask, Ops.Val, Ops.B, Ops.C));

  Function *Rev = create(K, Convention::Gradient, Name + "_rev");
  Ops = operandsOf(K, Rev, Convention::Gradient, Shadow);
  B.SetInsertPoint(BasicBlock::Create(Ctx, "entry", Rev));
  emitGradient(B, K, Ops, Shadow);

  registerRules(Primal, {Primal, Fwd}, {Primal, Aug, Rev});
  return Helpers[K] = Primal;
}

void RuleBuilder::registerRules(Function *Helper,
                                ArrayRef<Function *> Derivative,
                                ArrayRef<Function *> Gradient) {
  auto Register = [&](StringRef Prefix, ArrayRef<Function *> Fns) {
    SmallVector<Constant *, 3> Elts(Fns.begin(), Fns.end());
    auto *Ty = ArrayType::get(PointerType::get(Ctx, 0), Elts.size());
    // External: optimisation before Enzyme must not drop it.
    new GlobalVariable(
        M, Ty, /*isConstant=*/false, GlobalValue::ExternalLinkage,
        ConstantArray::get(Ty, Elts), Prefix + Helper->getName());
  };
  Register(RegisterDerivativePrefix, Derivative);
  Register(RegisterGradientPrefix, Gradient);
}

/// The lane that \p Lane reads in \p Mode (up, down or bfly) by \p BVal,
/// before the segment and the clamp: lane - b, lane + b, lane ^ b.
Value *laneRead(IRBuilder<> &B, ShuffleMode Mode, Value *Lane, Value *BVal) {
  switch (Mode) {
  case ShuffleMode::Up:
    return B.CreateSub(Lane, BVal);
  case ShuffleMode::Down:
    return B.CreateAdd(Lane, BVal);
  case ShuffleMode::Bfly:
    return B.CreateXor(Lane, BVal);
  default:
    llvm_unreachable("idx reads a lane, not an offset");
  }
}

/// Whether lane \p Lane (below 32) is in \p Mask.
Value *inMask(IRBuilder<> &B, Value *Mask, Value *Lane) {
  Value *Bit = B.CreateAnd(B.CreateLShr(Mask, B.CreateAnd(Lane, 31)), 1);
  return B.CreateICmpNE(Bit, B.getInt32(0));
}

/// The gradient: the lane a lane read from, as PTX's shfl.sync computes it
/// (c: the clamp in bits 0-4, the segment mask in bits 8-12), gets back its
/// adjoint; a lane that read itself keeps it.
void RuleBuilder::emitGradient(IRBuilder<> &B, const HelperKey &K,
                               const Operands &Ops, Value *Adjoint) {
  Value *Lane = readLane(B);
  Value *BVal = B.CreateAnd(Ops.B, 31);
  Value *CVal = B.CreateAnd(Ops.C, 31);
  Value *Seg = B.CreateAnd(B.CreateLShr(Ops.C, 8), 31);
  Value *MinLane = B.CreateAnd(Lane, Seg);
  Value *MaxLane = B.CreateOr(MinLane, B.CreateAnd(CVal, B.CreateNot(Seg)));
  // Up's bound is below the lane (the segment's start), the others' above.
  Value *J = K.Mode == ShuffleMode::Idx
                 ? B.CreateOr(MinLane, B.CreateAnd(BVal, B.CreateNot(Seg)))
                 : laneRead(B, K.Mode, Lane, BVal);
  Value *Valid = K.Mode == ShuffleMode::Up ? B.CreateICmpSGE(J, MaxLane)
                                           : B.CreateICmpSLE(J, MaxLane);
  Value *Src = B.CreateSelect(Valid, J, Lane);
  Value *Zero = ConstantFP::get(K.T, 0.0);
  Value *Self = B.CreateICmpEQ(Src, Lane);
  Value *Own = B.CreateSelect(Self, Adjoint, Zero);
  Value *Send = B.CreateSelect(Self, Zero, Adjoint);
  ShuffleMode Transpose = intrinsicFor(K.Mode).Transpose;
  Value *Received;
  if (Transpose == ShuffleMode::None) {
    Received = gatherFromAll(B, Ops, Lane, Send, Src);
  } else if (K.B) {
    Received = transposeUniform(B, Transpose, Ops, Lane, Send);
  } else {
    // b is an argument: the one shuffle back only where every lane of the
    // mask has the same.
    Value *FirstB = shuffleValue(B, ShuffleMode::Idx, Ops.Mask, BVal,
                                 firstLane(B, Ops.Mask), B.getInt32(31));
    Value *Uniform = callIntrinsic(B, Intrinsic::nvvm_vote_all_sync,
                                   {Ops.Mask, B.CreateICmpEQ(BVal, FirstB)});
    Function *F = B.GetInsertBlock()->getParent();
    BasicBlock *Fast = BasicBlock::Create(Ctx, "uniform", F);
    BasicBlock *Slow = BasicBlock::Create(Ctx, "per_lane", F);
    BasicBlock *Join = BasicBlock::Create(Ctx, "join", F);
    B.CreateCondBr(Uniform, Fast, Slow);
    B.SetInsertPoint(Fast);
    Value *FastR = transposeUniform(B, Transpose, Ops, Lane, Send);
    BasicBlock *FastEnd = B.GetInsertBlock();
    B.CreateBr(Join);
    B.SetInsertPoint(Slow);
    Value *SlowR = gatherFromAll(B, Ops, Lane, Send, Src);
    BasicBlock *SlowEnd = B.GetInsertBlock();
    B.CreateBr(Join);
    B.SetInsertPoint(Join);
    PHINode *Phi = B.CreatePHI(K.T, 2);
    Phi->addIncoming(FastR, FastEnd);
    Phi->addIncoming(SlowR, SlowEnd);
    Received = Phi;
  }
  Value *Sum = B.CreateFAdd(Own, Received);
  B.CreateRet(
      B.CreateInsertValue(PoisonValue::get(StructType::get(K.T)), Sum, 0));
}

/// Every lane shuffled by the same b: the lane that read from me is the one
/// the transposed shuffle reads from (unclamped, the whole warp); what it
/// sends counts where that lane exists and is in the mask.
Value *RuleBuilder::transposeUniform(IRBuilder<> &B, ShuffleMode Transpose,
                                     const Operands &Ops, Value *Lane,
                                     Value *Send) {
  Value *BVal = B.CreateAnd(Ops.B, 31);
  // Up reads lane - b where lane >= b (clamp 0); down lane + b where it is
  // at most 31 (clamp 31); bfly lane ^ b, always a lane.
  Value *Clamp = B.getInt32(Transpose == ShuffleMode::Up ? 0 : 31);
  Value *R = shuffleValue(B, Transpose, Ops.Mask, Send, BVal, Clamp);
  Value *Peer = laneRead(B, Transpose, Lane, BVal);
  Value *Exists = Transpose == ShuffleMode::Up ? B.CreateICmpUGE(Lane, BVal)
                  : Transpose == ShuffleMode::Down
                      ? B.CreateICmpULE(Peer, B.getInt32(31))
                      : B.getTrue();
  Value *Counts = B.CreateAnd(Exists, inMask(B, Ops.Mask, Peer));
  return B.CreateSelect(Counts, R, ConstantFP::get(Send->getType(), 0.0));
}

/// Any shuffle: each lane gathers from the 31 others (a butterfly by d
/// reaches lane ^ d) what they send and whether they read from it.
Value *RuleBuilder::gatherFromAll(IRBuilder<> &B, const Operands &Ops,
                                  Value *Lane, Value *Send, Value *Src) {
  Function *F = B.GetInsertBlock()->getParent();
  BasicBlock *Entry = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "gather", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "gathered", F);
  Type *T = Send->getType();
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *D = B.CreatePHI(B.getInt32Ty(), 2);
  PHINode *Acc = B.CreatePHI(T, 2);
  D->addIncoming(B.getInt32(1), Entry);
  Acc->addIncoming(ConstantFP::get(T, 0.0), Entry);
  Value *Clamp = B.getInt32(31);
  Value *Theirs = shuffleValue(B, ShuffleMode::Bfly, Ops.Mask, Send, D, Clamp);
  Value *TheirSrc = shuffleValue(B, ShuffleMode::Bfly, Ops.Mask, Src, D, Clamp);
  Value *Peer = B.CreateXor(Lane, D);
  Value *ToMe =
      B.CreateAnd(B.CreateICmpEQ(TheirSrc, Lane), inMask(B, Ops.Mask, Peer));
  Value *Next =
      B.CreateFAdd(Acc, B.CreateSelect(ToMe, Theirs, ConstantFP::get(T, 0.0)));
  Value *DNext = B.CreateAdd(D, B.getInt32(1));
  D->addIncoming(DNext, Loop);
  Acc->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpULT(DNext, B.getInt32(32)), Loop, Done);
  B.SetInsertPoint(Done);
  return Next;
}

//===----------------------------------------------------------------------===//
// Recognising the shuffles of a float.
//===----------------------------------------------------------------------===//

/// A float shuffled as integer words: the shuffle of the words and the
/// integer of the float's bits they come from.
struct WordGroup {
  Shuffle Lanes;
  Value *Bits = nullptr;
  SmallVector<Instruction *, 8> Steps; ///< what the group computed with
};

bool inBlock(const Value *V, const BasicBlock *BB) {
  const auto *I = dyn_cast<Instruction>(V);
  return I && I->getParent() == BB;
}

/// The integer \p W, of the width of a float, as a shuffle of words of one
/// integer: `s` (32 bits), `trunc(s(zext x))` (16), or
/// `or(shl(zext(s(trunc(lshr x, 32))), 32), zext(s(trunc x)))` (64), all
/// in \p BB (a shuffle moved to another block would meet other lanes).
std::optional<WordGroup> matchWords(Value *W, const BasicBlock *BB) {
  WordGroup G;
  auto Add = [&](Value *V) {
    if (auto *I = dyn_cast<Instruction>(V))
      G.Steps.push_back(I);
  };
  if (W->getType()->isIntegerTy(32)) {
    std::optional<Shuffle> S = asShuffle(W);
    if (!S || S->OfFloat || !inBlock(W, BB))
      return std::nullopt;
    G.Lanes = *S;
    G.Bits = S->Val;
    Add(W);
    return G;
  }
  Value *Word, *Bits;
  if (W->getType()->isIntegerTy(16)) {
    std::optional<Shuffle> S;
    if (!match(W, m_Trunc(m_Value(Word))) || !(S = asShuffle(Word)) ||
        S->OfFloat || !match(S->Val, m_ZExt(m_Value(Bits))) ||
        !Bits->getType()->isIntegerTy(16) || !inBlock(Word, BB))
      return std::nullopt;
    G.Lanes = *S;
    G.Bits = Bits;
    for (Value *V : {W, Word, S->Val})
      Add(V);
    return G;
  }
  Value *HiWord, *LoWord;
  if (!W->getType()->isIntegerTy(64) ||
      !match(W, m_c_Or(m_Shl(m_ZExt(m_Value(HiWord)), m_SpecificInt(32)),
                       m_ZExt(m_Value(LoWord)))))
    return std::nullopt;
  std::optional<Shuffle> Hi = asShuffle(HiWord), Lo = asShuffle(LoWord);
  if (!Hi || !Lo || Hi->OfFloat || Lo->OfFloat || !Hi->sameLanes(*Lo) ||
      !inBlock(HiWord, BB) || !inBlock(LoWord, BB) ||
      !match(Lo->Val, m_Trunc(m_Value(Bits))) ||
      !Bits->getType()->isIntegerTy(64) ||
      !match(Hi->Val, m_Trunc(m_LShr(m_Specific(Bits), m_SpecificInt(32)))))
    return std::nullopt;
  G.Lanes = *Hi;
  G.Bits = Bits;
  auto *Or = cast<Instruction>(W);
  Add(W);
  for (Value *Op : Or->operands()) {
    Add(Op);
    if (auto *I = dyn_cast<Instruction>(Op))
      for (Value *Inner : I->operands())
        Add(Inner);
  }
  for (Value *V : {LoWord, HiWord, Lo->Val, Hi->Val})
    Add(V);
  if (auto *T = dyn_cast<Instruction>(Hi->Val))
    Add(T->getOperand(0)); // the lshr
  return G;
}

/// Erases those of \p Steps nothing uses any more, users first.
void eraseUnused(ArrayRef<Instruction *> Steps) {
  SmallSetVector<Instruction *, 8> Left(Steps.begin(), Steps.end());
  for (bool Erased = true; Erased;) {
    Erased = false;
    for (Instruction *I : Left.takeVector()) {
      if (I->use_empty()) {
        I->eraseFromParent();
        Erased = true;
      } else {
        Left.insert(I);
      }
    }
  }
}

std::optional<uint32_t> constantOperand(Value *V) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return static_cast<uint32_t>(C->getZExtValue());
  return std::nullopt;
}

class WarpRewriter {
public:
  explicit WarpRewriter(Module &M) : Rules(M) {}
  bool rewriteWordGroups(Function &F);
  bool rewriteCalls(Function &F, OptimizationRemarkEmitter &ORE);

private:
  RuleBuilder Rules;

  /// A call of the helper for \p S's lanes on \p V (of a float type).
  Value *callHelper(IRBuilder<> &B, const Shuffle &S, Value *V);
};

Value *WarpRewriter::callHelper(IRBuilder<> &B, const Shuffle &S, Value *V) {
  HelperKey K{S.Kind->Mode, V->getType(), constantOperand(S.Mask),
              constantOperand(S.B), constantOperand(S.C)};
  Function *H = Rules.helper(K);
  SmallVector<Value *, 4> Args;
  Value *Ops[] = {S.Mask, V, S.B, S.C};
  for (Slot Sl : Slots)
    if (Sl == ValueSlot || !constantIn(K, Sl))
      Args.push_back(Ops[Sl]);
  CallInst *Call = B.CreateCall(H, Args);
  Call->addFnAttr(Attribute::Convergent);
  return Call;
}

/// `bitcast (word shuffles of x's bits) to double` becomes one helper call
/// on x; the words are erased where nothing else uses them.
bool WarpRewriter::rewriteWordGroups(Function &F) {
  SmallVector<BitCastInst *, 8> Casts;
  for (Instruction &I : instructions(F))
    if (auto *BC = dyn_cast<BitCastInst>(&I))
      if (BC->getType()->isHalfTy() || BC->getType()->isFloatTy() ||
          BC->getType()->isDoubleTy())
        Casts.push_back(BC);
  bool Changed = false;
  for (BitCastInst *R : Casts) {
    std::optional<WordGroup> G = matchWords(R->getOperand(0), R->getParent());
    if (!G)
      continue;
    IRBuilder<> B(R);
    Value *X = G->Bits;
    if (auto *BC = dyn_cast<BitCastInst>(X);
        BC && BC->getOperand(0)->getType() == R->getType())
      X = BC->getOperand(0);
    else
      X = B.CreateBitCast(X, R->getType());
    R->replaceAllUsesWith(callHelper(B, G->Lanes, X));
    R->eraseFromParent();
    if (auto *Bits = dyn_cast<Instruction>(G->Bits))
      G->Steps.push_back(Bits); // the float's bitcast, if nothing else uses it
    eraseUnused(G->Steps);
    ++NumRules;
    ++NumWordGroups;
    Changed = true;
  }
  return Changed;
}

void markInactive(CallInst &Call) {
  LLVMContext &Ctx = Call.getContext();
  Call.addFnAttr(Attribute::get(Ctx, "enzyme_inactive"));
  if (Call.getType()->isIntegerTy())
    Call.addRetAttr(Attribute::get(Ctx, "enzyme_type", "{[-1]:Integer}"));
}

bool WarpRewriter::rewriteCalls(Function &F, OptimizationRemarkEmitter &ORE) {
  SmallVector<CallInst *, 16> Calls;
  for (Instruction &I : instructions(F))
    if (auto *C = dyn_cast<CallInst>(&I))
      Calls.push_back(C);
  bool Changed = false;
  for (CallInst *Call : Calls) {
    std::optional<Shuffle> S = asShuffle(Call);
    if (S && S->OfFloat) {
      IRBuilder<> B(Call);
      Call->replaceAllUsesWith(callHelper(B, *S, S->Val));
      Call->eraseFromParent();
      ++NumRules;
      Changed = true;
    } else if (S && holdsFloatBits(S->Val)) {
      ++NumLeft;
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "FloatBits", Call)
               << "a shuffle of a float's bits in a shape not recognised: "
                  "left for Enzyme";
      });
    } else if (S || isInactiveWarpIntrinsic(Call->getCalledFunction())) {
      if (!Call->hasFnAttr("enzyme_inactive")) {
        markInactive(*Call);
        ++NumInactive;
        Changed = true;
      }
    }
  }
  return Changed;
}

bool isHelper(const Function &F) {
  return F.getName().starts_with(HelperPrefix);
}

/// A call of a shuffle or of another intrinsic of WarpIntrinsics.def.
bool isWarpIntrinsicCall(const Instruction &I) {
  const auto *Call = dyn_cast<CallInst>(&I);
  return Call && (asShuffle(Call) ||
                  isInactiveWarpIntrinsic(Call->getCalledFunction()));
}

/// The integer shuffles of \p F that shuffle a float as words.
SmallPtrSet<const Value *, 8> groupedWords(const Function &F) {
  SmallPtrSet<const Value *, 8> Words;
  for (const Instruction &I : instructions(F))
    if (const auto *BC = dyn_cast<BitCastInst>(&I))
      if (BC->getType()->isFloatingPointTy())
        if (std::optional<WordGroup> G = matchWords(
                const_cast<Value *>(BC->getOperand(0)), BC->getParent()))
          for (Instruction *Step : G->Steps)
            if (asShuffle(Step))
              Words.insert(Step);
  return Words;
}

} // namespace

bool finalizeWarpRules(Module &M) {
  bool Changed = false;
  for (GlobalVariable &G : make_early_inc_range(M.globals()))
    if (isRuleRegistration(G) && G.getName().contains(HelperPrefix)) {
      G.eraseFromParent();
      Changed = true;
    }
  for (Function &F : M)
    if (isHelper(F) && !F.isDeclaration()) {
      F.removeFnAttr(Attribute::NoInline);
      F.setLinkage(GlobalValue::InternalLinkage);
      Changed = true;
    }
  return Changed;
}

bool callsWarpIntrinsics(const Module &M) {
  for (const Function &F : M)
    if (!F.isDeclaration() && !isHelper(F))
      for (const Instruction &I : instructions(F))
        if (isWarpIntrinsicCall(I))
          return true;
  return false;
}

std::vector<WarpIntrinsicUse> findWarpIntrinsics(const Module &M) {
  std::map<std::pair<std::string, WarpAction>, unsigned> Counts;
  for (const Function &F : M) {
    if (F.isDeclaration() || isHelper(F))
      continue;
    SmallPtrSet<const Value *, 8> Grouped = groupedWords(F);
    for (const Instruction &I : instructions(F)) {
      if (!isWarpIntrinsicCall(I))
        continue;
      const auto *Call = cast<CallInst>(&I);
      const Function *Callee = Call->getCalledFunction();
      std::optional<Shuffle> S = asShuffle(Call);
      WarpAction A = S && (S->OfFloat || Grouped.count(Call)) ? WarpAction::Rule
                     : S && holdsFloatBits(S->Val)            ? WarpAction::Left
                                                   : WarpAction::Inactive;
      ++Counts[{Callee->getName().str(), A}];
    }
  }
  std::vector<WarpIntrinsicUse> Out;
  for (const auto &[Key, N] : Counts)
    Out.push_back({Key.first, N, Key.second});
  return Out;
}

PreservedAnalyses WarpShuffleRulesPass::run(Module &M,
                                            ModuleAnalysisManager &MAM) {
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  WarpRewriter Rewriter(M);
  SmallVector<Function *, 8> Functions;
  for (Function &F : M)
    if (!F.isDeclaration() && !isHelper(F))
      Functions.push_back(&F);
  bool Changed = false;
  for (Function *F : Functions) {
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(*F);
    bool Groups = Rewriter.rewriteWordGroups(*F);
    bool Calls = Rewriter.rewriteCalls(*F, ORE);
    if (Groups || Calls) {
      Changed = true;
      FAM.invalidate(*F, PreservedAnalyses::none());
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace irs
