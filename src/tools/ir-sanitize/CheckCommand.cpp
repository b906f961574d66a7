//===- CheckCommand.cpp - `ir-sanitize check INPUT` -----------------------===//
//
// Lists, without changing anything, every construct that makes Enzyme abort.
// Exit 0 when there is none, 1 when something was found.
//
//===----------------------------------------------------------------------===//
#include "CheckSections.h"
#include "Commands.h"

#include "ir-sanitize/Analysis/BundleSites.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {

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

namespace {

void printText(raw_ostream &OS, StringRef Name,
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

/// Streams the JSON so that no document tree of all findings is built.
void printJSON(raw_ostream &OS, StringRef Name,
               std::vector<CheckSection> &Sections, bool Clean) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("input", Name);
    J.attribute("clean", Clean);
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

class CheckCommand : public Command {
public:
  void addOptions(CLI::App &App) override {
    App.add_option("input", Input, "LLVM IR (.ll or .bc, '-' for stdin)")
        ->type_name("INPUT")
        ->required();
    App.add_option("--format", Format, "text (default) or json")
        ->check(CLI::IsMember({"text", "json"}));
    App.add_option("--scope", Scope,
                   "ccalls: every call but LLVM intrinsics (default); all")
        ->check(CLI::IsMember({"ccalls", "all"}));
  }

  int run() override {
    // Never torn down: the process ends right after (see SanitizeCommand).
    LLVMContext &Ctx = *new LLVMContext;
    Expected<LoadedModule> LM = readModule(Input, Ctx);
    if (!LM)
      return reportError(LM.takeError(), ToolName);
    CheckOptions Opts;
    Opts.Scope = *parseScopeName(Scope);
    std::vector<CheckSection> Sections = collectCheckSections(*LM->M, Opts);
    bool Clean = llvm::none_of(Sections, [](const CheckSection &S) {
      return S.Blocking && !S.Findings.empty();
    });
    LM->M.release();
    // A closed or full stdout is an output error (4), not a finding.
    if (Error E = writeFileAtomically("-", [&](raw_ostream &OS) {
          if (Format == "json")
            printJSON(OS, LM->DisplayName, Sections, Clean);
          else
            printText(OS, LM->DisplayName, Sections);
        }))
      return reportError(std::move(E), ToolName);
    return static_cast<int>(Clean ? ExitCode::Ok : ExitCode::Findings);
  }

private:
  std::string Input;
  std::string Format = "text";
  std::string Scope = "ccalls";
};

} // namespace

std::unique_ptr<Command> createCheckCommand() {
  return std::make_unique<CheckCommand>();
}

} // namespace irs::cli
