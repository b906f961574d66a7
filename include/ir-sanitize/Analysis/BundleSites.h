//===- BundleSites.h - Which call sites carry which bundles -----*- C++ -*-===//
//
// The one scan of a module for operand bundles, shared by the normalisation
// pass (what to rewrite) and `check` (what to report), so that both agree on
// which calls are in scope and how a call site is described.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_BUNDLESITES_H
#define IR_SANITIZE_ANALYSIS_BUNDLESITES_H

#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/BundleReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <string>

namespace irs {

/// Whether Enzyme differentiates through a call carrying this bundle. Enzyme
/// only knows jl_roots; any other tag aborts it in getInvertedBundles.
bool enzymeHandlesBundle(llvm::StringRef Tag);

/// The callee's name, or "<indirect>" for a call through a pointer.
std::string calleeName(const llvm::CallBase &CB);

/// Where \p I is in the source, from its debug location (empty without).
SourceLocation sourceLocation(const llvm::Instruction &I);

/// "file:line:col" from the call's debug location, or "" when it has none.
inline std::string debugLocation(const llvm::Instruction &I) {
  return sourceLocation(I).str();
}

/// The calls in \p F, in order, that are in scope and carry a bundle.
llvm::SmallVector<llvm::CallBase *, 8> bundledCalls(llvm::Function &F,
                                                    BundleScope Scope);

} // namespace irs

#endif
