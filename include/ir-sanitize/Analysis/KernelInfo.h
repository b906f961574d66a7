//===- KernelInfo.h - Which functions are GPU kernel entries ----*- C++ -*-===//
//
// A kernel is a function a host launches: one with the ptx_kernel,
// amdgpu_kernel or spir_kernel calling convention, or one that an
// `!nvvm.annotations` entry marks `"kernel", i32 1` (how NVPTX modules from
// before the ptx_kernel convention, such as CUDAnative's, mark them).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_KERNELINFO_H
#define IR_SANITIZE_ANALYSIS_KERNELINFO_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <optional>

namespace irs {

/// The value of \p F's `!nvvm.annotations` pair \p Key ("maxntidx",
/// "minctasm", ...), if it has one.
std::optional<uint64_t> nvvmAnnotation(const llvm::Function &F,
                                       llvm::StringRef Key);

/// The `!nvvm.annotations` entries that name \p F (first operand), in order.
llvm::SmallVector<const llvm::MDNode *, 2>
nvvmAnnotationsOf(const llvm::Function &F);

/// Adds for \p To a copy of each `!nvvm.annotations` entry of \p From (a
/// kernel made from another is a kernel the same way).
void copyNVVMAnnotations(const llvm::Function &From, llvm::Function &To);

/// Adds the entry !{ptr @F, !"Key", i32 Value} to `!nvvm.annotations`.
void addNVVMAnnotation(llvm::Function &F, llvm::StringRef Key, uint32_t Value);

/// Removes the `!nvvm.annotations` entries that name \p F.
void dropNVVMAnnotations(llvm::Function &F);

/// Whether \p F is a kernel entry. Scans the module's annotations on every
/// call; use findKernels to classify a whole module.
bool isKernel(const llvm::Function &F);

/// Every kernel defined (with a body) in \p M, in module order.
llvm::SmallVector<llvm::Function *> findKernels(llvm::Module &M);

/// Whether \p M holds NVPTX code whatever its triple says: a ptx_kernel
/// function, an `llvm.nvvm.*` intrinsic or `!nvvm.annotations` (what
/// `@device_code_llvm` prints by default has no triple and no data layout).
bool looksLikeNVPTX(const llvm::Module &M);

} // namespace irs

#endif
