//===- CheckSections.h - What `ir-sanitize check` reports -------*- C++ -*-===//
//
// `check` changes nothing; it prints one section per kind of construct that
// needs ir-sanitize. Each section is collected by one function; add a kind
// by writing its collector in its own file and listing it in
// collectCheckSections (CheckCommand.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_CHECKSECTIONS_H
#define IR_SANITIZE_TOOLS_CHECKSECTIONS_H

#include "ir-sanitize/Support/BundlePolicy.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace irs::cli {

struct CheckOptions {
  BundleScope Scope = BundleScope::CCalls;
};

/// One finding: a text line and the same facts as JSON fields. Kept flat
/// (no json::Object per finding) so that checking a module with tens of
/// thousands of findings stays cheap.
struct CheckFinding {
  std::string Text;
  std::vector<std::pair<std::string, llvm::json::Value>> Fields;
};

struct CheckSection {
  std::string Key;      ///< JSON key, e.g. "bundles".
  std::string Title;    ///< Heading in the text output.
  bool Blocking = true; ///< Whether its findings make Enzyme abort (exit 1).
  std::vector<CheckFinding> Findings;
};

/// Call sites with a bundle Enzyme cannot handle (anything but jl_roots).
CheckSection collectBundleSection(llvm::Module &M, const CheckOptions &Opts);

/// Kernels whose aggregate parameters the splat would rewrite, with leaf
/// counts (CheckKernels.cpp). Informational: does not fail `check`.
CheckSection collectKernelSection(llvm::Module &M, const CheckOptions &Opts);

/// Every section, in output order.
std::vector<CheckSection> collectCheckSections(llvm::Module &M,
                                               const CheckOptions &Opts);

} // namespace irs::cli

#endif
