//===- WarpShuffleRules.h - Shuffles Enzyme can differentiate ---*- C++ -*-===//
//
// Every CUDA.jl reduction folds a warp with shfl_down_sync: the
// `llvm.nvvm.shfl.sync.*` intrinsics, for which Enzyme has no rule
// (Enzyme.jl #3452: "cannot handle (augmented) unknown intrinsic
// llvm.nvvm.shfl.sync.down.f32"). This pass makes them differentiable with
// the means Enzyme offers for functions it does not know: each shuffle
// becomes a call to a small helper that does the shuffle, whose forward and
// reverse rules the module registers for Enzyme
// (`__enzyme_register_derivative_NAME`, `__enzyme_register_gradient_NAME`,
// read by Enzyme's preserve-nvvm step, which the Enzyme runner adds when a
// module has them).
//
// The rules (WarpIntrinsics.def lists each intrinsic): a shuffle is linear
// in its value, lane i reading lane src(i) (src as the PTX ISA defines it
// for shfl.sync: down, up, bfly, idx, with the segment mask and the clamp
// in c; a lane whose source is outside them reads itself). Forward: the
// tangent is shuffled the same way. Reverse: each lane's adjoint goes back
// to src(i), summed where several lanes read one: where b is the same in
// every lane one shuffle of the transposed mode does it (down <-> up, bfly
// itself), else (idx, or a b that differs between lanes, tested at run
// time) every lane gathers from the 31 others. A lane outside the member
// mask sends nothing. Votes, ballots, the active mask, matches and integer
// reductions carry no derivative and are marked inactive (`enzyme_inactive`
// on the call).
//
// CUDA.jl shuffles a Float64 as two i32 words (bitcast, lshr and trunc,
// two shfl.sync.*.i32 with the same operands, zext, shl and or, bitcast
// back; Enzyme.jl #1454 quotes it) and a Float16 as one zero-extended word:
// such a group is recognised as one shuffle of the float and gets the
// float's rule, not one on integer bits. An i32 shuffle of other integers
// is inactive; one of a float's bits in any other shape is left alone, so
// that Enzyme says it cannot differentiate it rather than drop a
// derivative.
//
// Enzyme's forward mode takes a rule for a function with inactive integer
// arguments only where its type analysis types each as an integer, which
// it does not for a constant outside 1..4096 (the full mask, -1). So the
// constant operands (mask, b, c) are part of the helper (one per distinct
// set, named after them) and only variable ones are passed; Enzyme passes
// each of those to a rule twice (value and shadow).
//
// The helpers are noinline: optimisation before Enzyme must not inline
// them, or the rule is lost.
//
// opt: -passes=ir-sanitize-warp-rules
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_WARPSHUFFLERULES_H
#define IR_SANITIZE_TRANSFORMS_WARPSHUFFLERULES_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace irs {

/// What the pass does with a warp intrinsic.
enum class WarpAction {
  Rule,     ///< a shuffle of floats: a helper with registered rules
  Inactive, ///< marked inactive (integers, masks, votes)
  Left,     ///< a float's bits shuffled in a shape not recognised: left
};

/// One warp intrinsic a module calls, for `check`.
struct WarpIntrinsicUse {
  std::string Intrinsic; ///< e.g. "llvm.nvvm.shfl.sync.down.f32"
  unsigned Calls = 0;
  WarpAction Action = WarpAction::Rule;
};

/// The warp intrinsics \p M calls (WarpIntrinsics.def), by name, with what
/// the pass would do; empty where it calls none.
std::vector<WarpIntrinsicUse> findWarpIntrinsics(const llvm::Module &M);

/// Whether \p M calls a warp intrinsic outside the pass's helpers (what
/// findWarpIntrinsics finds, without classifying it): the pass has work.
bool callsWarpIntrinsics(const llvm::Module &M);

/// After Enzyme, before code generation: the registrations erased and the
/// helpers and rules internal and inlinable again (preserve-nvvm makes
/// them external). Returns whether anything changed.
bool finalizeWarpRules(llvm::Module &M);

/// Counts (STATISTICs, -stats): shuffles given rules, multi-word groups
/// among them, calls marked inactive, shuffles left.
class WarpShuffleRulesPass : public llvm::PassInfoMixin<WarpShuffleRulesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace irs

#endif
