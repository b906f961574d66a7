//===- WarpLanes.h - Emitting the lane and warp shuffles --------*- C++ -*-===//
//
// Shared by the passes that emit warp-level code (WarpShuffleRules, whose
// rules shuffle adjoints; AccumulationAggregation, which sums across the
// lanes of a warp) or read it (SharedTileForwarding): a lane's index, the
// thread index a value reads, and a shuffle of any 16-, 32- or 64-bit
// scalar through the 32-bit shfl.sync intrinsics.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_WARPLANES_H
#define IR_SANITIZE_TRANSFORMS_WARPLANES_H

#include "ir-sanitize/Analysis/SpecialRegisters.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace irs {

/// A call of intrinsic \p ID (overloaded on \p Types, if it is).
inline llvm::Value *callIntrinsic(llvm::IRBuilderBase &B,
                                  llvm::Intrinsic::ID ID,
                                  llvm::ArrayRef<llvm::Value *> Args,
                                  llvm::ArrayRef<llvm::Type *> Types = {},
                                  const llvm::Twine &Name = "") {
  llvm::Module &M = *B.GetInsertBlock()->getModule();
  return B.CreateCall(compat::intrinsicDeclaration(M, ID, Types), Args, Name);
}

/// The thread-index dimension (0 for x, 1, 2) \p V reads, if it reads one.
inline std::optional<unsigned> threadIndexDim(const llvm::Value *V) {
  const SpecialRegister *R = specialRegisterRead(V);
  if (!R || !R->Index || R->OfGrid)
    return std::nullopt;
  return R->Dim;
}

/// This thread's lane in its warp.
inline llvm::Value *readLane(llvm::IRBuilderBase &B) {
  return callIntrinsic(B, llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {});
}

/// The lowest lane of lane mask \p Mask (nonzero).
inline llvm::Value *firstLane(llvm::IRBuilderBase &B, llvm::Value *Mask) {
  return callIntrinsic(B, llvm::Intrinsic::cttz, {Mask, B.getTrue()},
                       {B.getInt32Ty()});
}

/// This warp's active lanes, as PTX's activemask.b32 gives them.
inline llvm::Value *activeLaneMask(llvm::IRBuilderBase &B,
                                   const llvm::Twine &Name = "") {
#if IRS_LLVM_HAS_ACTIVEMASK_INTRINSIC
  return callIntrinsic(B, llvm::Intrinsic::nvvm_activemask, {}, {}, Name);
#else
  auto *Ty = llvm::FunctionType::get(B.getInt32Ty(), /*isVarArg=*/false);
  llvm::CallInst *Call =
      B.CreateCall(llvm::InlineAsm::get(Ty, "activemask.b32 $0;", "=r",
                                        /*hasSideEffects=*/true),
                   {}, Name);
  Call->addFnAttr(llvm::Attribute::Convergent);
  return Call;
#endif
}

/// Whether \p T is a type shuffleValue moves.
inline bool isShuffleable(const llvm::Type *T) {
  return T->isHalfTy() || T->isFloatTy() || T->isDoubleTy() ||
         T->isIntegerTy(32) || T->isIntegerTy(64);
}

/// \p V shuffled by one shfl.sync mode (\p F32 and \p I32: its float and
/// i32 intrinsics) as CUDA.jl does: float and i32 in one shuffle, half as
/// one zero-extended word, double and i64 as two words, the high one first
/// (so that a helper of WarpShuffleRules, inlined, is the code it replaced).
inline llvm::Value *shuffleValue(llvm::IRBuilderBase &B,
                                 llvm::Intrinsic::ID F32,
                                 llvm::Intrinsic::ID I32, llvm::Value *Mask,
                                 llvm::Value *V, llvm::Value *Lane,
                                 llvm::Value *C) {
  auto Word = [&](llvm::Value *W) {
    return callIntrinsic(B, W->getType()->isFloatTy() ? F32 : I32,
                         {Mask, W, Lane, C});
  };
  llvm::Type *T = V->getType();
  llvm::Type *I32Ty = B.getInt32Ty();
  if (T->isFloatTy() || T->isIntegerTy(32))
    return Word(V);
  if (T->isHalfTy()) {
    llvm::Value *W = B.CreateZExt(B.CreateBitCast(V, B.getInt16Ty()), I32Ty);
    return B.CreateBitCast(B.CreateTrunc(Word(W), B.getInt16Ty()), T);
  }
  assert(isShuffleable(T) && "a type without a shuffle");
  llvm::Type *I64 = B.getInt64Ty();
  llvm::Value *Bits = B.CreateBitCast(V, I64);
  llvm::Value *Hi = Word(B.CreateTrunc(B.CreateLShr(Bits, 32), I32Ty));
  llvm::Value *High = B.CreateShl(B.CreateZExt(Hi, I64), 32);
  llvm::Value *Lo = Word(B.CreateTrunc(Bits, I32Ty));
  return B.CreateBitCast(B.CreateOr(High, B.CreateZExt(Lo, I64)), T);
}

} // namespace irs

#endif
