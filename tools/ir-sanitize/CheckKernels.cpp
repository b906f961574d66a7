//===- CheckKernels.cpp - `check`: kernels the splat would rewrite --------===//
//
// Aggregate kernel parameters do not make Enzyme abort, so this section does
// not fail `check`; it says which kernels the default command would splat,
// and into how many leaves, so that activities can be planned per array.
//
//===----------------------------------------------------------------------===//
#include "CheckSections.h"

#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs::cli {

CheckSection collectKernelSection(Module &M, const CheckOptions &) {
  CheckSection S{"kernels", "kernels whose aggregate parameters would be splatted",
                 /*Blocking=*/false, {}};
  // Without --kernel names planning cannot fail.
  LaunchManifest Plan = cantFail(planSplat(M, {}));
  for (const KernelManifest &K : Plan.Kernels) {
    const Function &F = *M.getFunction(K.Name);
    std::string Text = formatv("{0}: {1} parameters -> {2}:", K.Name,
                               K.OriginalParams.size(), K.Params.size());
    json::Array Splatted;
    for (const ManifestOriginalParam &O : K.OriginalParams) {
      unsigned Leaves = 0;
      bool Kept = false;
      for (const ManifestParam &P : K.Params)
        if (P.OrigIndex == O.Index) {
          ++Leaves;
          Kept |= P.Path.empty();
        }
      if (Kept)
        continue;
      StringRef Name = F.getArg(O.Index)->getName();
      Text += formatv("{0} #{1}{2}{3} ({4}, {5} leaves)",
                      Splatted.empty() ? "" : ",", O.Index,
                      Name.empty() ? "" : " ", Name, O.Passing, Leaves);
      Splatted.push_back(json::Object{{"index", O.Index},
                                      {"name", Name},
                                      {"passing", O.Passing},
                                      {"leaves", Leaves}});
    }
    CheckFinding Finding;
    Finding.Text = std::move(Text);
    Finding.Fields = {{"kernel", K.Name},
                      {"params", K.OriginalParams.size()},
                      {"splatted_params", K.Params.size()},
                      {"splat", std::move(Splatted)}};
    S.Findings.push_back(std::move(Finding));
  }
  return S;
}

} // namespace irs::cli
