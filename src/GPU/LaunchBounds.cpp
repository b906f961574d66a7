//===- LaunchBounds.cpp - Every access of a launch inside its buffer ------===//
#include "ir-sanitize/GPU/LaunchBounds.h"

#include "ir-sanitize/Analysis/SpecialRegisters.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/AnalysisManagers.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LazyValueInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <optional>

using namespace llvm;

namespace irs {

namespace {

/// Signed 128-bit bounds [Lo, Hi] of a byte offset, or unbounded: 64-bit
/// values times element sizes never wrap here, so no range looks small
/// because it wrapped.
struct Interval {
  APInt Lo{128, 0}, Hi{128, 0};
  bool Bounded = true;

  static Interval exactly(int64_t V) {
    Interval I;
    I.Lo = I.Hi = APInt(128, V, /*isSigned=*/true);
    return I;
  }
  static Interval unbounded() {
    Interval I;
    I.Bounded = false;
    return I;
  }
  /// A range of a value of its own width, read as signed (GEP indices are
  /// sign-extended).
  static Interval of(const ConstantRange &R) {
    if (R.isFullSet() || R.isEmptySet() || R.isSignWrappedSet())
      return R.isEmptySet() ? exactly(0) : unbounded();
    Interval I;
    I.Lo = R.getSignedMin().sext(128);
    I.Hi = R.getSignedMax().sext(128);
    return I;
  }
  Interval plus(const Interval &O) const {
    bool OvLo = false, OvHi = false;
    Interval S;
    S.Lo = Lo.sadd_ov(O.Lo, OvLo);
    S.Hi = Hi.sadd_ov(O.Hi, OvHi);
    S.Bounded = Bounded && O.Bounded && !OvLo && !OvHi;
    return S;
  }
  Interval times(uint64_t Scale) const {
    bool OvLo = false, OvHi = false;
    Interval S;
    APInt F(128, Scale);
    S.Lo = Lo.smul_ov(F, OvLo);
    S.Hi = Hi.smul_ov(F, OvHi);
    S.Bounded = Bounded && !OvLo && !OvHi;
    return S;
  }
  /// Bounded, and within 2^62 of zero: no buffer is larger. (LLVM 16's
  /// LazyValueInfo gives an unknown i64 such bounds where later ones give
  /// none.)
  bool finite() const {
    APInt Limit = APInt::getOneBitSet(128, 62);
    return Bounded && Lo.sge(-Limit) && Hi.sle(Limit);
  }
  /// Both bounds: the tighter of each (what is known of a value twice).
  Interval meet(const Interval &O) const {
    if (!Bounded || !O.Bounded)
      return Bounded ? *this : O;
    Interval S;
    S.Lo = Lo.sgt(O.Lo) ? Lo : O.Lo;
    S.Hi = Hi.slt(O.Hi) ? Hi : O.Hi;
    return S;
  }
  /// Bounded within the signed range of a \p Bits-bit integer: arithmetic
  /// that stayed there did not wrap.
  bool fitsIn(unsigned Bits) const {
    return Bounded && Bits < 128 &&
           Lo.sge(APInt::getSignedMinValue(Bits).sext(128)) &&
           Hi.sle(APInt::getSignedMaxValue(Bits).sext(128));
  }
  Interval join(const Interval &O) const {
    Interval S;
    S.Lo = Lo.slt(O.Lo) ? Lo : O.Lo;
    S.Hi = Hi.sgt(O.Hi) ? Hi : O.Hi;
    S.Bounded = Bounded && O.Bounded;
    return S;
  }
};

/// An address as a base and the offsets it may have from it.
struct Address {
  Value *Base = nullptr; ///< An argument, or what the walk stopped at.
  Interval Offset;
};

/// A value loaded from memory that an unbounded offset depends on, and
/// whether through the bound of a loop (a per-row count) or the index.
struct LoadedSource {
  LoadInst *Load = nullptr;
  bool LoopBound = false;
};

/// A buffer a pointer leaf is bound to.
struct BoundBuffer {
  const BufferSpec *Spec = nullptr;
  uint64_t Bytes = 0;
};

/// The launch's values put into a copy of the kernel.
class LaunchedKernel {
public:
  LaunchedKernel(const LaunchSpec &Spec) : Spec(Spec) {}
  /// Clones \p Original, splats kernel \p Name in the clone and puts the
  /// launch's values in.
  Error prepare(const Module &Original, StringRef Name, StringRef What);

  std::unique_ptr<Module> M;
  Function *F = nullptr;
  DenseMap<const Argument *, BoundBuffer> Buffers;

private:
  const LaunchSpec &Spec;
  void bindLeaves(const KernelManifest &K);
  void setGeometry();
};

Constant *leafConstant(Type *T, const LeafValue *V) {
  if (T->isIntegerTy())
    return ConstantInt::get(T, V && V->K == LeafValue::Integer ? V->Int : 0,
                            /*IsSigned=*/true);
  if (T->isFloatingPointTy())
    return ConstantFP::get(T, V && V->K == LeafValue::Float     ? V->Real
                              : V && V->K == LeafValue::Integer ? double(V->Int)
                                                                : 0.0);
  if (T->isPointerTy()) // a pointer leaf the spec does not bind: zero
    return ConstantPointerNull::get(cast<PointerType>(T));
  return nullptr;
}

void LaunchedKernel::bindLeaves(const KernelManifest &K) {
  for (const ManifestParam &P : K.Params) {
    if (P.Index >= F->arg_size())
      continue;
    Argument *A = F->getArg(P.Index);
    const LeafValue *V = Spec.findArg(P.pathString());
    if (V && V->K == LeafValue::Buffer) {
      if (const BufferSpec *B = Spec.findBuffer(V->BufferName))
        Buffers[A] = {B, B->sizeInBytes()};
      continue;
    }
    if (A->hasByValAttr() || A->hasByRefAttr())
      continue; // left whole: what it holds stays unknown
    if (Constant *C = leafConstant(A->getType(), V))
      A->replaceAllUsesWith(C);
  }
}

void LaunchedKernel::setGeometry() {
  auto [Grid, Block] = Spec.gridAndBlock();
  MDBuilder MDB(M->getContext());
  // The special registers a launch fixes: the block and grid sizes become
  // constants, the thread and block indices get their ranges.
  SmallVector<std::pair<Instruction *, const SpecialRegister *>, 16> Reads;
  for (Instruction &I : instructions(*F))
    if (const SpecialRegister *R = specialRegisterRead(&I))
      Reads.push_back({&I, R});
  for (auto [I, R] : Reads) {
    unsigned Size = (R->OfGrid ? Grid : Block)[R->Dim];
    if (R->Index)
      I->setMetadata(LLVMContext::MD_range,
                     MDB.createRange(APInt(32, 0), APInt(32, Size)));
    else
      I->replaceAllUsesWith(ConstantInt::get(I->getType(), Size));
  }
}

Error LaunchedKernel::prepare(const Module &Original, StringRef Name,
                              StringRef What) {
  M = CloneModule(Original);
  SplatOptions Opts;
  Opts.Kernels = {Name.str()};
  Expected<LaunchManifest> Splat = splatKernels(*M, Opts);
  if (!Splat)
    return Splat.takeError();
  F = M->getFunction(Name);
  if (!F || F->isDeclaration())
    return makeToolError(ExitCode::BadInput,
                         What + ": kernel " + escapeForMessage(Name) +
                             " has no body to prove the launch on");
  const KernelManifest *K = Splat->findKernel(Name);
  bindLeaves(K ? *K : describeUnsplattedKernel(*F));
  setGeometry();
  inlineHelpersOf(*M, *F);
  // The launch's constants folded through; the accesses are what remain.
  return runPipeline(*M, "default<O1>");
}

/// The bounds of one launched kernel's accesses.
class BoundsProof {
public:
  BoundsProof(LaunchedKernel &K, FunctionAnalysisManager &FAM)
      : K(K), DL(K.M->getDataLayout()),
        LVI(FAM.getResult<LazyValueAnalysis>(*K.F)),
        SE(FAM.getResult<ScalarEvolutionAnalysis>(*K.F)),
        LI(FAM.getResult<LoopAnalysis>(*K.F)) {}

  /// Ranges on the integers loaded from buffers the kernel does not write:
  /// what their init puts there.
  void markIndexLoads();
  /// Ranges on the integers loaded from shared memory: what the kernel
  /// stores there (it reads what it wrote: reading shared memory no thread
  /// wrote is a race, which compute-sanitizer's racecheck finds).
  void markSharedLoads();
  /// A !range on each integer load without one, where \p RangeOf gives
  /// one that says something (not full, not empty).
  void
  setLoadRanges(function_ref<std::optional<ConstantRange>(LoadInst *)> RangeOf);
  /// Why the first access not proven in bounds is not, or "".
  std::string firstUnproven();

private:
  LaunchedKernel &K;
  const DataLayout &DL;
  LazyValueInfo &LVI;
  ScalarEvolution &SE;
  LoopInfo &LI;

  Address addressOf(Value *P, Instruction *At, unsigned Depth = 0);
  Address integerAddressOf(Value *V, Instruction *At, unsigned Depth);
  Address loopPointerAddress(PHINode *Phi, unsigned Depth);
  Interval rangeOf(Value *V, Instruction *At, unsigned Depth = 0);
  Interval composedRange(Value *V, Instruction *At, unsigned Depth);
  std::string judge(Instruction *I, Value *Ptr, Interval Size,
                    const char *What);
  std::string judgeCall(CallBase *CB);
  /// "idx (its init: random)": where an index loaded from memory comes from.
  std::string bufferOf(LoadInst *Loaded);
  /// The load an unbounded \p V depends on: one that markIndexLoads could
  /// not bound, reached through operands and, from a loop's induction
  /// variable, through the conditions that leave the loop.
  LoadedSource loadedSource(Value *V);
  bool findLoaded(Value *V, SmallPtrSetImpl<Value *> &Seen, LoadedSource &Out,
                  bool ViaExit, unsigned Depth);
  /// Every store into the shared array \p L loads from, where it is one
  /// and nothing else writes there.
  std::optional<SmallVector<StoreInst *, 4>> storesInto(LoadInst *L);
};

LoadedSource BoundsProof::loadedSource(Value *V) {
  SmallPtrSet<Value *, 32> Seen;
  LoadedSource Out;
  findLoaded(V, Seen, Out, false, 0);
  return Out;
}

bool BoundsProof::findLoaded(Value *V, SmallPtrSetImpl<Value *> &Seen,
                             LoadedSource &Out, bool ViaExit, unsigned Depth) {
  if (Depth > 12 || !Seen.insert(V).second)
    return false;
  if (auto *L = dyn_cast<LoadInst>(V)) {
    if (L->getMetadata(LLVMContext::MD_range)) // its init bounds it
      return false;
    // Staged through shared memory: the values stored there.
    if (std::optional<SmallVector<StoreInst *, 4>> Stores = storesInto(L))
      for (StoreInst *S : *Stores)
        if (findLoaded(S->getValueOperand(), Seen, Out, ViaExit, Depth + 1))
          return true;
    Out = {L, ViaExit};
    return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (auto *Phi = dyn_cast<PHINode>(I))
    if (Loop *Lp = LI.getLoopFor(Phi->getParent());
        Lp && Lp->getHeader() == Phi->getParent()) {
      SmallVector<BasicBlock *, 4> Exiting;
      Lp->getExitingBlocks(Exiting);
      for (BasicBlock *BB : Exiting)
        if (auto *Br = dyn_cast<BranchInst>(BB->getTerminator()))
          if (Br->isConditional() &&
              findLoaded(Br->getCondition(), Seen, Out, true, Depth + 1))
            return true;
    }
  for (Value *Op : I->operands())
    if (findLoaded(Op, Seen, Out, ViaExit, Depth + 1))
      return true;
  return false;
}

Interval BoundsProof::rangeOf(Value *V, Instruction *At, unsigned Depth) {
  if (auto *C = dyn_cast<ConstantInt>(V))
    return Interval::exactly(C->getSExtValue());
  if (!V->getType()->isIntegerTy())
    return Interval::unbounded();
  ConstantRange R = LVI.getConstantRange(V, At, /*UndefAllowed=*/false);
  // A value from before the loops around \p At: LazyValueInfo gives up on
  // their back edges, so it is asked on the edges that enter them too,
  // where the guards before a loop hold.
  auto *Def = dyn_cast<Instruction>(V);
  for (Loop *Lp = LI.getLoopFor(At->getParent());
       Lp && !(Def && Lp->contains(Def)); Lp = Lp->getParentLoop())
    if (BasicBlock *Pre = Lp->getLoopPredecessor())
      R = R.intersectWith(LVI.getConstantRangeOnEdge(V, Pre, Lp->getHeader(),
                                                     Pre->getTerminator()),
                          ConstantRange::Signed);
  if (SE.isSCEVable(V->getType()))
    R = R.intersectWith(SE.getSignedRange(SE.getSCEV(V)),
                        ConstantRange::Signed);
  return Interval::of(R).meet(composedRange(V, At, Depth));
}

/// The range of an index computed by adding and scaling, from its
/// operands' ranges at \p At: `(k << 6) | i` with i < 64 from a guard is
/// below 64 * (k + 1), where the whole value's range (LazyValueInfo's or
/// ScalarEvolution's) forgets the guard. Unbounded where the arithmetic
/// may wrap in the value's own width.
Interval BoundsProof::composedRange(Value *V, Instruction *At, unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 8)
    return Interval::unbounded();
  Interval Result = Interval::unbounded();
  auto *Scale = dyn_cast<ConstantInt>(
      I->getNumOperands() > 1 ? I->getOperand(1) : I->getOperand(0));
  switch (I->getOpcode()) {
  case Instruction::Add:
    Result = rangeOf(I->getOperand(0), At, Depth + 1)
                 .plus(rangeOf(I->getOperand(1), At, Depth + 1));
    break;
#if LLVM_VERSION_MAJOR >= 18 // `or disjoint` is an add
  case Instruction::Or:
    if (cast<PossiblyDisjointInst>(I)->isDisjoint())
      Result = rangeOf(I->getOperand(0), At, Depth + 1)
                   .plus(rangeOf(I->getOperand(1), At, Depth + 1));
    break;
#endif
  case Instruction::Shl:
    if (Scale && Scale->getZExtValue() < 62)
      Result = rangeOf(I->getOperand(0), At, Depth + 1)
                   .times(uint64_t(1) << Scale->getZExtValue());
    break;
  case Instruction::Mul:
    if (Scale && !Scale->isNegative())
      Result =
          rangeOf(I->getOperand(0), At, Depth + 1).times(Scale->getZExtValue());
    break;
  case Instruction::SExt:
    Result = rangeOf(I->getOperand(0), At, Depth + 1);
    break;
  case Instruction::ZExt: {
    Interval Op = rangeOf(I->getOperand(0), At, Depth + 1);
    if (Op.Bounded && !Op.Lo.isNegative())
      Result = Op;
    break;
  }
  default:
    break;
  }
  return Result.fitsIn(V->getType()->getIntegerBitWidth())
             ? Result
             : Interval::unbounded();
}

Address BoundsProof::integerAddressOf(Value *V, Instruction *At,
                                      unsigned Depth) {
  if (auto *A = dyn_cast<Argument>(V))
    return {A, Interval::exactly(0)};
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 32)
    return {V, Interval::unbounded()};
  if (auto *P2I = dyn_cast<PtrToIntInst>(I))
    return addressOf(P2I->getPointerOperand(), At, Depth + 1);
  if (I->getOpcode() == Instruction::Add ||
      I->getOpcode() == Instruction::Sub) {
    for (unsigned Side = 0; Side < 2; ++Side) {
      if (I->getOpcode() == Instruction::Sub && Side == 1)
        break; // base - offset only
      Address Base = integerAddressOf(I->getOperand(Side), At, Depth + 1);
      if (!isa<Argument>(Base.Base))
        continue;
      Value *Other = I->getOperand(1 - Side);
      Interval O = rangeOf(Other, At);
      if (I->getOpcode() == Instruction::Sub)
        O = Interval{-O.Hi, -O.Lo, O.Bounded};
      Base.Offset = Base.Offset.plus(O);
      return Base;
    }
  }
  return {V, Interval::unbounded()};
}

Address BoundsProof::addressOf(Value *P, Instruction *At, unsigned Depth) {
  if (Depth > 32)
    return {P, Interval::unbounded()};
  if (auto *GEP = dyn_cast<GEPOperator>(P)) {
    Address A = addressOf(GEP->getPointerOperand(), At, Depth + 1);
    for (gep_type_iterator GTI = gep_type_begin(GEP), E = gep_type_end(GEP);
         GTI != E; ++GTI) {
      Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        unsigned Field = cast<ConstantInt>(Idx)->getZExtValue();
        A.Offset = A.Offset.plus(
            Interval::exactly(DL.getStructLayout(ST)->getElementOffset(Field)));
        continue;
      }
      uint64_t Scale =
          DL.getTypeAllocSize(GTI.getIndexedType()).getFixedValue();
      A.Offset = A.Offset.plus(rangeOf(Idx, At).times(Scale));
    }
    return A;
  }
  if (auto *Cast = dyn_cast<Operator>(P))
    if (Cast->getOpcode() == Instruction::BitCast ||
        Cast->getOpcode() == Instruction::AddrSpaceCast)
      return addressOf(Cast->getOperand(0), At, Depth + 1);
  if (auto *I2P = dyn_cast<IntToPtrInst>(P))
    return integerAddressOf(I2P->getOperand(0), At, Depth + 1);
  if (auto *Op = dyn_cast<Operator>(P);
      Op && Op->getOpcode() == Instruction::IntToPtr)
    return integerAddressOf(Op->getOperand(0), At, Depth + 1);
  if (auto *Phi = dyn_cast<PHINode>(P)) {
    if (Address A = loopPointerAddress(Phi, Depth); A.Base)
      return A;
    // Loops' pointers: ScalarEvolution has their trip counts.
    const SCEV *S = SE.getSCEV(Phi);
    const SCEV *Base = SE.getPointerBase(S);
    if (auto *U = dyn_cast<SCEVUnknown>(Base))
      return {U->getValue(),
              Interval::of(SE.getSignedRange(SE.getMinusSCEV(S, Base)))};
  }
  if (auto *Sel = dyn_cast<SelectInst>(P)) {
    Address T = addressOf(Sel->getTrueValue(), At, Depth + 1);
    Address F = addressOf(Sel->getFalseValue(), At, Depth + 1);
    if (T.Base == F.Base) {
      T.Offset = T.Offset.join(F.Offset);
      return T;
    }
  }
  return {P, Interval::exactly(0)};
}

/// A pointer a loop advances: where it enters the loop (bounded with the
/// guards before the loop, which LazyValueInfo sees and ScalarEvolution's
/// ranges do not) plus what the loop adds (ScalarEvolution: its trip count
/// times its step). No base where it is not one.
Address BoundsProof::loopPointerAddress(PHINode *Phi, unsigned Depth) {
  Loop *Lp = LI.getLoopFor(Phi->getParent());
  BasicBlock *Pre = Lp && Lp->getHeader() == Phi->getParent()
                        ? Lp->getLoopPredecessor()
                        : nullptr;
  if (!Pre)
    return {};
  Value *Entry = Phi->getIncomingValueForBlock(Pre);
  const SCEV *Advance = SE.getMinusSCEV(SE.getSCEV(Phi), SE.getSCEV(Entry));
  if (isa<SCEVCouldNotCompute>(Advance))
    return {};
  Address A = addressOf(Entry, Pre->getTerminator(), Depth + 1);
  A.Offset = A.Offset.plus(Interval::of(SE.getSignedRange(Advance)));
  return A;
}

/// Whether \p Base is memory that is not a buffer's: shared or private
/// memory, the stack, a module global.
bool notABuffer(const Value *Base) {
  if (isa<AllocaInst>(Base) || isa<GlobalVariable>(Base))
    return true;
  if (auto *PT = dyn_cast<PointerType>(Base->getType()))
    return PT->getAddressSpace() == 3 || PT->getAddressSpace() == 5;
  return false;
}

/// "at FILE:LINE in FUNCTION", from the debug location, or "".
std::string whereIs(const Instruction *I) {
  const DebugLoc &DL = I->getDebugLoc();
  if (!DL)
    return "";
  std::string S = " at " + escapeForMessage(DL->getFilename()) + ":" +
                  std::to_string(DL.getLine());
  if (const DISubprogram *SP = DL->getScope()->getSubprogram())
    S += " (in " + escapeForMessage(SP->getName()) + ")";
  return S;
}

std::string decimal(const APInt &V) { return llvm::toString(V, 10, true); }

std::string BoundsProof::judge(Instruction *I, Value *Ptr, Interval Size,
                               const char *What) {
  Address A = addressOf(Ptr, I);
  if (notABuffer(A.Base))
    return "";
  std::string Access = std::string("the ") + What + whereIs(I);
  auto It = isa<Argument>(A.Base) ? K.Buffers.find(cast<Argument>(A.Base))
                                  : K.Buffers.end();
  if (It == K.Buffers.end())
    return Access + " goes through an address that is in no buffer of the "
                    "launch (a pointer leaf left zero, a pointer loaded from "
                    "memory, or one the proof cannot follow): give a --spec "
                    "that binds it";
  const BoundBuffer &B = It->second;
  std::string Name = escapeForMessage(B.Spec->Name);
  Interval End = A.Offset.plus(Size);
  if (A.Offset.Bounded && End.Bounded && !A.Offset.Lo.isNegative() &&
      End.Hi.sle(APInt(128, B.Bytes)))
    return "";
  if (!A.Offset.finite() || !End.finite()) {
    std::string Why =
        Access + " into " + Name + " cannot be bounded at this launch";
    LoadedSource From = loadedSource(Ptr);
    if (From.Load)
      return Why + ": " + (From.LoopBound ? "a loop's bound" : "its index") +
             " is loaded from " + bufferOf(From.Load);
    return Why + " (give --set or a --spec that bounds its index)";
  }
  return Access + " may touch bytes " + decimal(A.Offset.Lo) + " to " +
         decimal(End.Hi) + " of " + Name + ", which has " +
         std::to_string(B.Bytes) +
         " bytes: the launch is not proven in bounds (size " + Name +
         " to what the launch touches, or bound the launch with --set or a "
         "--spec)";
}

std::string BoundsProof::bufferOf(LoadInst *L) {
  auto *A = dyn_cast<Argument>(addressOf(L->getPointerOperand(), L).Base);
  auto It = A ? K.Buffers.find(A) : K.Buffers.end();
  if (It == K.Buffers.end())
    return "memory that is not a buffer of the launch (a pointer loaded from "
           "memory, or shared memory written by a call): give a --spec";
  const BufferSpec &B = *It->second.Spec;
  std::string Name = escapeForMessage(B.Name);
  if (isFloatElement(B.Type) ||
      8 * elementSize(B.Type) != L->getType()->getIntegerBitWidth())
    return Name + ", as an integer field of elements gpu-check fills as " +
           spelling(B.Type) +
           " (an array of structs: one element type a buffer), which no "
           "--set bounds: the launch cannot be checked";
  return Name + " (its init: " + spelling(B.Init) + "): give --set " + Name +
         "=ones|range|range1 (every index 1, or counting from 0 or 1) or a "
         "--spec";
}

std::string BoundsProof::judgeCall(CallBase *CB) {
  if (auto *MI = dyn_cast<MemIntrinsic>(CB)) {
    Interval Len = rangeOf(MI->getLength(), CB);
    std::string Why = judge(CB, MI->getDest(), Len, "memory write");
    if (Why.empty())
      if (auto *MT = dyn_cast<MemTransferInst>(MI))
        Why = judge(CB, MT->getSource(), Len, "memory copy's read");
    return Why;
  }
  if (CB->doesNotAccessMemory() || CB->onlyAccessesInaccessibleMemory() ||
      isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd())
    return "";
  for (Value *Arg : CB->args())
    if (Arg->getType()->isPointerTy()) {
      Address A = addressOf(Arg, CB);
      if (isa<Argument>(A.Base) && K.Buffers.count(cast<Argument>(A.Base))) {
        Function *Callee = CB->getCalledFunction();
        return std::string("the call") + whereIs(CB) + " to " +
               (Callee ? escapeForMessage(Callee->getName()) : "a pointer") +
               " is given an address in " +
               escapeForMessage(K.Buffers[cast<Argument>(A.Base)].Spec->Name) +
               ", whose accesses the proof cannot see";
      }
    }
  return "";
}

std::string BoundsProof::firstUnproven() {
  for (Instruction &I : instructions(*K.F)) {
    std::string Why;
    auto Bytes = [&](Type *T) {
      return Interval::exactly(DL.getTypeStoreSize(T).getFixedValue());
    };
    if (auto *L = dyn_cast<LoadInst>(&I))
      Why = judge(L, L->getPointerOperand(), Bytes(L->getType()), "load");
    else if (auto *S = dyn_cast<StoreInst>(&I))
      Why = judge(S, S->getPointerOperand(),
                  Bytes(S->getValueOperand()->getType()), "store");
    else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Why = judge(RMW, RMW->getPointerOperand(),
                  Bytes(RMW->getValOperand()->getType()), "atomic update");
    else if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      Why = judge(X, X->getPointerOperand(),
                  Bytes(X->getNewValOperand()->getType()), "atomic update");
    else if (auto *CB = dyn_cast<CallBase>(&I))
      Why = judgeCall(CB);
    if (!Why.empty())
      return Why;
  }
  return "";
}

/// What the runner fills a buffer with, as the range of its integers: none
/// for random contents.
std::optional<ConstantRange> initRange(const BufferSpec &B, unsigned Bits) {
  auto Range = [&](uint64_t Lo, uint64_t HiExclusive) {
    return ConstantRange(APInt(Bits, Lo), APInt(Bits, HiExclusive));
  };
  switch (B.Init) {
  case BufferInit::Zero:
    return Range(0, 1);
  case BufferInit::Ones:
    return Range(1, 2);
  case BufferInit::Range:
  case BufferInit::Segments:
    return B.Count ? std::optional<ConstantRange>(Range(0, B.Count))
                   : std::nullopt;
  case BufferInit::Range1:
    return Range(1, B.Count + 1);
  case BufferInit::Random:
    break;
  }
  return std::nullopt;
}

void BoundsProof::markIndexLoads() {
  SmallPtrSet<const Argument *, 8> Written;
  for (Instruction &I : instructions(*K.F))
    if (I.mayWriteToMemory())
      for (Value *Op : I.operands())
        if (Op->getType()->isPointerTy())
          if (auto *A = dyn_cast<Argument>(addressOf(Op, &I).Base))
            Written.insert(A);
  setLoadRanges([&](LoadInst *L) -> std::optional<ConstantRange> {
    auto *A = dyn_cast<Argument>(addressOf(L->getPointerOperand(), L).Base);
    auto It = A ? K.Buffers.find(A) : K.Buffers.end();
    unsigned Bits = L->getType()->getIntegerBitWidth();
    if (It == K.Buffers.end() || Written.count(A) ||
        isFloatElement(It->second.Spec->Type) ||
        8 * elementSize(It->second.Spec->Type) != Bits)
      return std::nullopt;
    return initRange(*It->second.Spec, Bits);
  });
}

void BoundsProof::setLoadRanges(
    function_ref<std::optional<ConstantRange>(LoadInst *)> RangeOf) {
  MDBuilder MDB(K.M->getContext());
  for (Instruction &I : instructions(*K.F)) {
    auto *L = dyn_cast<LoadInst>(&I);
    if (!L || !L->getType()->isIntegerTy() ||
        L->getMetadata(LLVMContext::MD_range))
      continue;
    if (std::optional<ConstantRange> R = RangeOf(L))
      if (!R->isFullSet() && !R->isEmptySet())
        L->setMetadata(LLVMContext::MD_range,
                       MDB.createRange(R->getLower(), R->getUpper()));
  }
}

std::optional<SmallVector<StoreInst *, 4>>
BoundsProof::storesInto(LoadInst *L) {
  auto *G = dyn_cast<GlobalVariable>(addressOf(L->getPointerOperand(), L).Base);
  if (!G || G->getAddressSpace() != 3)
    return std::nullopt;
  SmallVector<StoreInst *, 4> Stores;
  for (Instruction &I : instructions(*K.F)) {
    if (!I.mayWriteToMemory())
      continue;
    auto *S = dyn_cast<StoreInst>(&I);
    Value *Ptr = S ? S->getPointerOperand() : nullptr;
    if (!S) { // a call or an atomic that may write G: not followed
      for (Value *Op : I.operands())
        if (Op->getType()->isPointerTy() && addressOf(Op, &I).Base == G)
          return std::nullopt;
      if (isa<CallBase>(I) && !isa<IntrinsicInst>(I))
        return std::nullopt; // a call writes what it likes
      continue;
    }
    if (addressOf(Ptr, S).Base != G)
      continue;
    if (S->getValueOperand()->getType() != L->getType())
      return std::nullopt;
    Stores.push_back(S);
  }
  return Stores;
}

void BoundsProof::markSharedLoads() {
  setLoadRanges([&](LoadInst *L) -> std::optional<ConstantRange> {
    std::optional<SmallVector<StoreInst *, 4>> Stores = storesInto(L);
    if (!Stores || Stores->empty())
      return std::nullopt;
    Interval Stored = rangeOf((*Stores)[0]->getValueOperand(), (*Stores)[0]);
    for (StoreInst *S : drop_begin(*Stores))
      Stored = Stored.join(rangeOf(S->getValueOperand(), S));
    unsigned Bits = L->getType()->getIntegerBitWidth();
    if (!Stored.fitsIn(Bits))
      return std::nullopt;
    APInt Lo = Stored.Lo.trunc(Bits), Hi = Stored.Hi.trunc(Bits) + 1;
    if (Lo == Hi) // every value of the width
      return std::nullopt;
    return ConstantRange(Lo, Hi);
  });
}

} // namespace

void inlineHelpersOf(Module &M, const Function &Kernel) {
  for (Function &G : M)
    if (&G != &Kernel && !G.isDeclaration()) {
      G.removeFnAttr(Attribute::NoInline);
      G.removeFnAttr(Attribute::OptimizeNone);
      G.addFnAttr(Attribute::AlwaysInline);
    }
}

Error proveLaunchInBounds(const Module &Original, StringRef Kernel,
                          const LaunchSpec &Spec, StringRef What) {
  LaunchedKernel K(Spec);
  if (Error E = K.prepare(Original, Kernel, What))
    return E;
  PassBuilder PB;
  AnalysisManagers AM(PB);
  {
    BoundsProof Marking(K, AM.FAM);
    Marking.markIndexLoads();
  }
  AM.FAM.clear(); // the ranges just set are new facts
  {
    BoundsProof Marking(K, AM.FAM);
    Marking.markSharedLoads(); // from the buffers' ranges just set
  }
  AM.FAM.clear();
  BoundsProof Proof(K, AM.FAM);
  std::string Why = Proof.firstUnproven();
  if (Why.empty())
    return Error::success();
  return makeToolError(ExitCode::BadInput, What + ": " + Why);
}

} // namespace irs
