//===- Pipelines.cpp - The text of every pipeline the tool runs -----------===//
#include "ir-sanitize/Passes/Pipelines.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace llvm;

namespace irs {

namespace {

/// NAME, or NAME<PARAMS> when there are any.
std::string withParams(StringRef Name, StringRef Params) {
  return Params.empty() ? Name.str() : (Name + "<" + Params + ">").str();
}

} // namespace

std::string enzymeCleanupPipeline() {
  return "cgscc(inline),function(sroa,early-cse," IRS_INSTCOMBINE_PASS
         ",simplifycfg)";
}

std::string sanitizePipeline(const BundlePolicy &Policy, bool WarpRules,
                             bool Splat, ArrayRef<std::string> Kernels) {
  // Bundles first: Enzyme aborts on bundles other than jl_roots; then the
  // warp shuffles it has no rule for; then the splat gives Enzyme each leaf
  // its own activity.
  std::string Text =
      withParams(passname::BundleNormalizePass, Policy.toPassParameters());
  if (WarpRules)
    Text += std::string(",") + passname::WarpShuffleRulesPass;
  return Splat ? Text + "," + splatPipeline(Kernels) : Text;
}

std::string splatPipeline(ArrayRef<std::string> Kernels) {
  std::vector<std::string> Params;
  for (const std::string &K : Kernels)
    Params.push_back("kernel=" + escapePassParameter(K));
  return withParams(passname::KernelSplatPass, join(Params, ";"));
}

std::string derivativeWrapperPipeline(StringRef Fn, DiffMode Mode,
                                      const ActivityMap &Activities) {
  std::vector<std::string> Names;
  for (Activity A : Activities)
    Names.push_back(activityName(A).str());
  return std::string(passname::AddDerivativeWrapperPass) +
         "<fn=" + escapePassParameter(Fn) +
         ";mode=" + diffModeName(Mode).str() + ";activity=" + join(Names, ".") +
         ">";
}

bool setAccumulationMode(DerivativeAccessOptions &Opts, StringRef Mode) {
  if (!is_contained(AccumulationModes, Mode))
    return false;
  Opts.MergeAccumulations = Mode != "separate";
  Opts.AggregateAccumulations = Mode == "aggregated";
  return true;
}

std::string derivativePipeline(const DerivativePipelineOptions &Opts) {
  std::vector<std::string> Function, Module;
  // Merging after sinking: its test and branch would end the runs that
  // StoreSinkVersioning reorders.
  if (Opts.Accesses.SinkStores)
    Function.push_back(passname::StoreSinkVersioningPass);
  if (Opts.Accesses.MergeAccumulations)
    Function.push_back(
        withParams(passname::AccumulationMergingPass, "reassociate-fp"));
  // The branches StoreSinkVersioning joins put the primal's half and the
  // derivative's in one block, where what Enzyme computed twice (address
  // arithmetic, the 2-D broadcast's index division) becomes common.
  if (Opts.Accesses.SinkStores)
    Function.push_back("early-cse");
  // After them: it holds the accumulations they leave, and relies on the
  // disjointness the fast versions state. Then the divisions its loop
  // repeats by a kernel parameter (a 2-D index's row count) become
  // multiplications.
  if (Opts.GridStride) {
    if (!Function.empty())
      Module.push_back("function(" + join(Function, ",") + ")");
    std::string Params = "reassociate-fp";
    if (Opts.ThreadsPerMultiprocessor)
      Params += ";threads-per-multiprocessor=" +
                std::to_string(Opts.ThreadsPerMultiprocessor);
    Module.push_back(withParams(passname::GridStrideCoarseningPass, Params));
    Function = {passname::InvariantDivisionPass};
  }
  // Last: the grid-stride loop takes no convergent call, and the atomics it
  // leaves (its sums go out with them) are aggregated too.
  if (Opts.Accesses.AggregateAccumulations)
    Function.push_back(
        withParams(passname::AccumulationAggregationPass, "reassociate-fp"));
  if (!Function.empty())
    Module.push_back("function(" + join(Function, ",") + ")");
  return join(Module, ",");
}

} // namespace irs
