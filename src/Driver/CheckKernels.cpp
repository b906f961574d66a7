//===- CheckKernels.cpp - `check`: kernels the splat would rewrite --------===//
//
// Aggregate kernel parameters do not make Enzyme abort, so this section does
// not fail `check`; it says which kernels the default command would splat,
// and into how many leaves, so that activities can be planned per array.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Driver/Check.h"

#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

CheckSection collectKernelSection(Module &M, const CheckOptions &) {
  CheckSection S{"kernels",
                 "kernels whose aggregate parameters would be splatted",
                 /*Blocking=*/false,
                 {}};
  // Without --kernel names planning cannot fail.
  for (const KernelSplatSummary &K : cantFail(summarizeSplat(M, {}))) {
    const Function &F = *K.Kernel;
    size_t After = 0;
    for (auto &[Passing, Leaves] : K.Params)
      After += Leaves < 0 ? 1 : Leaves;
    std::string Text = formatv("{0}: {1} parameters -> {2}:", F.getName(),
                               K.Params.size(), After);
    // Parallel arrays, one entry per splatted parameter: a json::Object per
    // parameter would cost kilobytes each on a module of thousands.
    json::Array Index, Name, Passing, Leaves;
    for (unsigned I = 0; I != K.Params.size(); ++I) {
      if (K.Params[I].second < 0)
        continue;
      StringRef ArgName = F.getArg(I)->getName();
      Text += formatv("{0} #{1}{2}{3} ({4}, {5} leaves)",
                      Index.empty() ? "" : ",", I, ArgName.empty() ? "" : " ",
                      ArgName, K.Params[I].first, K.Params[I].second);
      Index.push_back(I);
      Name.push_back(ArgName);
      Passing.push_back(K.Params[I].first);
      Leaves.push_back(K.Params[I].second);
    }
    CheckFinding Finding;
    Finding.Text = std::move(Text);
    Finding.Fields = {{"kernel", F.getName().str()},
                      {"params", K.Params.size()},
                      {"splatted_params", After},
                      {"splat_index", std::move(Index)},
                      {"splat_name", std::move(Name)},
                      {"splat_passing", std::move(Passing)},
                      {"splat_leaves", std::move(Leaves)}};
    S.Findings.push_back(std::move(Finding));
  }
  return S;
}

} // namespace irs
