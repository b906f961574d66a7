#include "../TestSupport.h"

#include "../../../src/Transforms/LaneSharing.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <random>
#include <set>

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// A 2-D broadcast's reverse accumulation (mmba_broadcast after Enzyme):
/// d_x[row * stride + col], row and col kept or extruded by the flags.
const char *Broadcast2D = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(1) %dx, i64 %n, i64 %stride.in, i8 %keep1, i8 %keep2, float %g) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = zext i32 %ctaid to i64
  %b = zext i32 %ntid to i64
  %t = zext i32 %tid to i64
  %base = mul nuw nsw i64 %b, %c
  %i = add nuw nsw i64 %base, %t
  %q = sdiv i64 %i, %n
  %qn = mul i64 %q, %n
  %r = sub i64 %i, %qn
  %k1 = icmp eq i8 %keep1, 0
  %col = select i1 %k1, i64 3, i64 %r
  %k2 = icmp eq i8 %keep2, 0
  %row = select i1 %k2, i64 5, i64 %q
  %stride = call i64 @llvm.smax.i64(i64 %stride.in, i64 0)
  %rowoff = mul i64 %row, %stride
  %rowp = getelementptr float, ptr addrspace(1) %dx, i64 %rowoff
  %p = getelementptr float, ptr addrspace(1) %rowp, i64 %col
  %old = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic, align 4
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @llvm.smax.i64(i64, i64)
)";

/// \p V folded with the function's arguments bound to \p Args.
Constant *evaluate(Value *V, const DenseMap<Value *, Constant *> &Args,
                   const DataLayout &DL) {
  if (auto *C = dyn_cast<Constant>(V))
    return C;
  if (auto It = Args.find(V); It != Args.end())
    return It->second;
  auto *I = cast<Instruction>(V);
  SmallVector<Constant *, 4> Ops;
  for (Value *Op : I->operands())
    if (!isa<Function>(Op))
      Ops.push_back(evaluate(Op, Args, DL));
  if (auto *Call = dyn_cast<CallInst>(I))
    return ConstantFoldCall(Call, Call->getCalledFunction(), Ops);
  return ConstantFoldInstOperands(I, Ops, DL);
}

struct Params {
  int64_t N, Stride;
  bool Keep1, Keep2;
};

/// The offsets of 32 consecutive linear indices from \p First, as the
/// kernel computes them: all different?
bool lanesDistinct(const Params &P, int64_t First) {
  std::set<int64_t> Seen;
  int64_t Stride = std::max<int64_t>(P.Stride, 0);
  for (int64_t I = First; I < First + 32; ++I) {
    int64_t Col = P.Keep1 ? I % P.N : 3, Row = P.Keep2 ? I / P.N : 5;
    Seen.insert(Row * Stride + Col);
  }
  return Seen.size() == 32;
}

} // namespace

TEST_CASE("the extents test holds only where a warp's 2-D broadcast "
          "offsets all differ, and holds where they must",
          "[LaneSharing]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, Broadcast2D);
  Function &F = *M->getFunction("k");
  AtomicRMWInst *A = nullptr;
  for (Instruction &I : instructions(F))
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      A = RMW;
  REQUIRE(A);
  LaneSharing L;
  std::optional<DistinctTest> Test =
      L.distinctByExtents(A->getPointerOperand());
  REQUIRE(Test);
  REQUIRE(*Test); // a test, not "always"
  IRBuilder<> B(A);
  Value *Cond = (*Test)(B);

  std::mt19937_64 Rng(7);
  unsigned Held = 0;
  for (unsigned Trial = 0; Trial < 4000; ++Trial) {
    Params P{int64_t(Rng() % 80) + 1, int64_t(Rng() % 100) - 10,
             bool(Rng() & 1), bool(Rng() & 1)};
    DenseMap<Value *, Constant *> Args = {
        {F.getArg(1), ConstantInt::get(B.getInt64Ty(), P.N)},
        {F.getArg(2), ConstantInt::get(B.getInt64Ty(), P.Stride)},
        {F.getArg(3), ConstantInt::get(B.getInt8Ty(), P.Keep1)},
        {F.getArg(4), ConstantInt::get(B.getInt8Ty(), P.Keep2)}};
    Constant *Value = evaluate(Cond, Args, M->getDataLayout());
    REQUIRE(Value);
    bool Says = Value->isOneValue();
    INFO("n " << P.N << " stride " << P.Stride << " keep " << P.Keep1 << ","
              << P.Keep2);
    if (Says) {
      ++Held;
      for (int64_t First : {0, 1, 31, 32, 100, 1000})
        CHECK(lanesDistinct(P, First));
    }
    bool Must = P.Keep1 && (P.Keep2 ? P.Stride >= P.N : P.N >= 32);
    CHECK(Says == Must);
  }
  CHECK(Held > 500);
}

TEST_CASE("addresses the extents test does not describe get none",
          "[LaneSharing]") {
  LLVMContext Ctx;
  // The row only (a column's bias: every lane of a row on one element) and
  // a product of two lane-varying values.
  std::unique_ptr<Module> M = parseModule(Ctx, R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
define void @k(ptr addrspace(1) %dv, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %q = sdiv i64 %i, %n
  %p = getelementptr float, ptr addrspace(1) %dv, i64 %q
  %sq = mul i64 %i, %i
  %p2 = getelementptr float, ptr addrspace(1) %dv, i64 %sq
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
)");
  Function &F = *M->getFunction("k");
  LaneSharing L;
  for (const char *Name : {"p", "p2"}) {
    Value *Addr = nullptr;
    for (Instruction &I : instructions(F))
      if (I.getName() == Name)
        Addr = &I;
    REQUIRE(Addr);
    CHECK_FALSE(L.distinctByExtents(Addr));
  }
}
