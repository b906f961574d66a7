//===- EnzymeSlice.h - What Enzyme's entry calls can reach ------*- C++ -*-===//
//
// `opt -passes=ir-sanitize-enzyme-slice`: the first, cheapest cut of a
// reduction. Enzyme only looks at what the functions calling __enzyme_*
// reach (callees, globals, their initialisers), so everything else in a
// dump of thousands of functions goes in one step, before llvm-reduce
// spends minutes bisecting it away.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ENZYMESLICE_H
#define IR_SANITIZE_TRANSFORMS_ENZYMESLICE_H

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <cstddef>

namespace irs {

struct SliceStats {
  size_t Kept = 0;    ///< Global values reachable from the entry calls.
  size_t Removed = 0; ///< Functions, variables and aliases erased.
};

/// Erases from \p M every function, global variable and alias that no
/// function calling an `__enzyme_*` entry point reaches through its
/// instructions, initialisers or aliasees. A module without such calls is
/// left alone.
SliceStats sliceToEnzymeCalls(llvm::Module &M);

/// sliceToEnzymeCalls as a pass: adds its SliceStats to the run's
/// (Transforms/PassResults.h).
class EnzymeSlicePass : public llvm::PassInfoMixin<EnzymeSlicePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace irs

#endif
