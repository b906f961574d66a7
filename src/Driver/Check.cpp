//===- Check.cpp - `check`: call sites with bundles Enzyme aborts on ------===//
#include "ir-sanitize/Driver/Check.h"

#include "ir-sanitize/Analysis/BundleSites.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

CheckSection collectBundleSection(Module &M, const CheckOptions &Opts) {
  CheckSection S{
      "bundles", "call sites with bundles Enzyme aborts on", true, {}};
  for (Function &F : M)
    for (CallBase *CB : bundledCalls(F, Opts.Scope))
      for (unsigned I = 0, E = CB->getNumOperandBundles(); I != E; ++I) {
        OperandBundleUse B = CB->getOperandBundleAt(I);
        if (enzymeHandlesBundle(B.getTagName()))
          continue;
        std::string Callee = calleeName(*CB), Loc = debugLocation(*CB);
        CheckFinding Finding;
        Finding.Text = formatv("{0}: call to {1}: bundle \"{2}\" ({3} "
                               "operands){4}{5}",
                               F.getName(), Callee, B.getTagName(),
                               B.Inputs.size(), Loc.empty() ? "" : " at ", Loc)
                           .str();
        Finding.Fields = {{"function", F.getName().str()},
                          {"callee", Callee},
                          {"tag", B.getTagName().str()},
                          {"operands", B.Inputs.size()}};
        if (!Loc.empty())
          Finding.Fields.emplace_back("location", Loc);
        S.Findings.push_back(std::move(Finding));
      }
  return S;
}

std::vector<CheckSection> collectCheckSections(Module &M,
                                               const CheckOptions &Opts) {
  std::vector<CheckSection> Sections;
  Sections.push_back(collectBundleSection(M, Opts));
  Sections.push_back(collectKernelSection(M, Opts));
  return Sections;
}

bool isClean(const std::vector<CheckSection> &Sections) {
  return llvm::none_of(Sections, [](const CheckSection &S) {
    return S.Blocking && !S.Findings.empty();
  });
}

void printCheckJSON(raw_ostream &OS, StringRef Name,
                    std::vector<CheckSection> &Sections) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("input", Name);
    J.attribute("clean", isClean(Sections));
    for (CheckSection &S : Sections)
      J.attributeArray(S.Key, [&] {
        for (CheckFinding &F : S.Findings)
          J.object([&] {
            for (auto &[Key, Value] : F.Fields)
              J.attribute(Key, std::move(Value));
          });
      });
  });
  OS << "\n";
}

} // namespace irs
