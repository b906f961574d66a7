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
#include <vector>

namespace irs {

/// A bundle as Enzyme sees it: its tag and its operands' types. Call sites
/// with the same shape get the same answer from an Enzyme, so each shape is
/// asked once.
struct BundleShape {
  std::string Tag;
  /// The operands' types as LLVM prints them, each once, in first-seen
  /// order: Enzyme handles operands one by one by type, so jl_roots of one
  /// root and of ten are one shape.
  std::vector<std::string> OperandTypes;
  /// A constant of each operand type, typed: "ptr addrspace(10) null".
  std::vector<std::string> Operands;
  /// "%T = type { ... }" lines for the named structs the types use.
  std::vector<std::string> TypeDefinitions;
  /// Why no module can carry this bundle outside its own (an operand type
  /// without constants); empty when one can.
  std::string Unprobeable;
  unsigned CallSites = 0; ///< How many in-scope calls carry it.
  /// `"gc-transition"(ptr)`: the tag as LLVM quotes it, then the types.
  std::string key() const;
};

/// The shape of \p B, a bundle of a call in \p M.
BundleShape bundleShapeOf(const llvm::OperandBundleUse &B,
                          const llvm::Module &M);

/// The distinct shapes of the bundles on in-scope calls, in first-seen
/// order, with their call-site counts.
std::vector<BundleShape> bundleShapesIn(llvm::Module &M, BundleScope Scope);

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
