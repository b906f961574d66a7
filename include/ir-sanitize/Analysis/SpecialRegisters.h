//===- SpecialRegisters.h - What a launch fixes in a kernel -----*- C++ -*-===//
//
// The NVVM reads of the thread and block indices and of the block and grid
// sizes, in one table: the launch proof gives the indices their ranges and
// makes the sizes constants (GPU/LaunchBounds); the warp passes ask which
// thread-index dimension a value reads and which values a whole block
// shares (Transforms/WarpLanes.h).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_SPECIALREGISTERS_H
#define IR_SANITIZE_ANALYSIS_SPECIALREGISTERS_H

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace irs {

struct SpecialRegister {
  llvm::Intrinsic::ID ID;
  bool Index;  ///< An index (a range), else a size (a constant).
  bool OfGrid; ///< Of the grid (blocks), else of a block (threads).
  unsigned Dim;

  /// The same in every thread of a block: a block index or a size.
  bool blockConstant() const { return OfGrid || !Index; }
};

inline constexpr SpecialRegister SpecialRegisters[] = {
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, false, false, 0},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y, false, false, 1},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z, false, false, 2},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, false, true, 0},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y, false, true, 1},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z, false, true, 2},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, true, false, 0},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y, true, false, 1},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z, true, false, 2},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, true, true, 0},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y, true, true, 1},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z, true, true, 2}};

/// The row of SpecialRegisters \p V reads, or nullptr.
inline const SpecialRegister *specialRegisterRead(const llvm::Value *V) {
  const auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(V);
  if (!II)
    return nullptr;
  for (const SpecialRegister &R : SpecialRegisters)
    if (II->getIntrinsicID() == R.ID)
      return &R;
  return nullptr;
}

} // namespace irs

#endif
