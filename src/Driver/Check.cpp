//===- Check.cpp - `check`: call sites with bundles Enzyme aborts on ------===//
#include "ir-sanitize/Driver/Check.h"
#include "ir-sanitize/Support/OutputSafety.h"

#include "ir-sanitize/Analysis/BundleSites.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ModuleWriter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

static CheckSection collectBundleSection(Module &M, const CheckOptions &Opts) {
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

void printCheckText(raw_ostream &OS, StringRef Name,
                    const std::vector<CheckSection> &Sections) {
  unsigned Total = 0;
  for (const CheckSection &S : Sections) {
    if (S.Findings.empty())
      continue;
    OS << Name << ": " << S.Findings.size() << " " << S.Title << ":\n";
    for (const CheckFinding &F : S.Findings)
      OS << "  " << F.Text << "\n";
    Total += S.Blocking ? S.Findings.size() : 0;
  }
  if (Total == 0)
    OS << Name << ": clean: nothing that makes Enzyme abort\n";
}

Expected<CheckJobResult> runCheck(const CheckRequest &Req, LLVMContext &Ctx,
                                  DiagnosticHandler &) {
  JobFiles Files;
  Files.ModuleInput = {"the input", Req.Input};
  Files.Outputs.push_back({"-o", Req.Output}); // findings, not a module
  if (Error E = checkDistinctFiles(Files))
    return E;
  Expected<LoadedModule> LM = readModule(Req.Input, Ctx);
  if (!LM)
    return LM.takeError();
  std::vector<CheckSection> Sections =
      collectCheckSections(*LM->M, Req.Options);
  CheckJobResult Job{LM->DisplayName, isClean(Sections), std::move(LM->M)};
  if (Error E = writeFileAtomically(Req.Output, [&](raw_ostream &OS) {
        if (Req.JSON)
          printCheckJSON(OS, Job.InputName, Sections);
        else
          printCheckText(OS, Job.InputName, Sections);
      }))
    return E;
  return Job;
}

} // namespace irs
