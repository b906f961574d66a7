//===- LaunchBounds.h - Every access inside its buffer ----------*- C++ -*-===//
//
// Before gpu-check writes a plan, the launch is proven in bounds, whether
// it was inferred (--dims) or read (--spec): a spec is not trusted more
// than an inference. A copy of the kernel as given is splatted and gets the
// launch's values: every scalar leaf a constant (a leaf the spec does not
// list is zero, as the runner packs it), the block and grid sizes constants,
// the thread and block indices ranges; helpers are inlined (noinline ones
// too) and the result simplified. Then every memory access through a
// buffer's address is bounded, through the GEPs and integer arithmetic that
// compute it, with LazyValueInfo (the ranges the conditions guarding the
// access imply) intersected with ScalarEvolution (loops' trip counts); an
// integer loaded from a buffer the kernel does not write is an index in the
// range its init gives (ones, range, range1), else unbounded. An access is
// proven when every byte it may touch lies inside its buffer; accesses to
// shared or private memory and to module globals are not buffers' and are
// not judged. Anything else refuses the launch, in one line that names the
// access (what, where, which buffer) and what would bound it.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_LAUNCHBOUNDS_H
#define IR_SANITIZE_GPU_LAUNCHBOUNDS_H

#include "ir-sanitize/GPU/LaunchSpec.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace irs {

/// Marks every function \p M defines but \p Kernel always-inline, noinline
/// ones too, so that an analysis of the kernel after inlining sees its
/// helpers' accesses (the launch inference and the proof below both need
/// them: a call hides what the helper loads and stores).
void inlineHelpersOf(llvm::Module &M, const llvm::Function &Kernel);

/// Proves every access of kernel \p Kernel of \p Original (the module as
/// given) inside its buffer at \p Spec's launch. Errors: a BadInput
/// ToolError starting with \p What ("INPUT (inferred launch)") that names
/// the first access not proven. \p Original is not changed.
llvm::Error proveLaunchInBounds(const llvm::Module &Original,
                                llvm::StringRef Kernel, const LaunchSpec &Spec,
                                llvm::StringRef What);

} // namespace irs

#endif
