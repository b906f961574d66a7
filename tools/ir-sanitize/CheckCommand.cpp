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
  CheckSection S{"bundles", "call sites with bundles Enzyme aborts on", true,
                 {}, {}};
  for (Function &F : M)
    for (CallBase *CB : bundledCalls(F, Opts.Scope))
      for (unsigned I = 0, E = CB->getNumOperandBundles(); I != E; ++I) {
        OperandBundleUse B = CB->getOperandBundleAt(I);
        if (enzymeHandlesBundle(B.getTagName()))
          continue;
        std::string Callee = calleeName(*CB), Loc = debugLocation(*CB);
        S.Lines.push_back(formatv("{0}: call to {1}: bundle \"{2}\" ({3} "
                                  "operands){4}{5}",
                                  F.getName(), Callee, B.getTagName(),
                                  B.Inputs.size(), Loc.empty() ? "" : " at ",
                                  Loc)
                              .str());
        json::Object Item{{"function", F.getName().str()},
                          {"callee", Callee},
                          {"tag", B.getTagName().str()},
                          {"operands", B.Inputs.size()}};
        if (!Loc.empty())
          Item["location"] = Loc;
        S.Items.push_back(std::move(Item));
      }
  return S;
}

std::vector<CheckSection> collectCheckSections(Module &M,
                                               const CheckOptions &Opts) {
  std::vector<CheckSection> Sections;
  Sections.push_back(collectBundleSection(M, Opts));
  // Kernel-splat section (kernels whose parameters would be splatted).
  return Sections;
}

namespace {

void printText(raw_ostream &OS, StringRef Name,
               const std::vector<CheckSection> &Sections) {
  unsigned Total = 0;
  for (const CheckSection &S : Sections) {
    if (S.Lines.empty())
      continue;
    OS << Name << ": " << S.Lines.size() << " " << S.Title << ":\n";
    for (const std::string &L : S.Lines)
      OS << "  " << L << "\n";
    Total += S.Blocking ? S.Lines.size() : 0;
  }
  if (Total == 0)
    OS << Name << ": clean: nothing that makes Enzyme abort\n";
}

void printJSON(raw_ostream &OS, StringRef Name,
               std::vector<CheckSection> &Sections, bool Clean) {
  json::Object Root{{"input", Name}, {"clean", Clean}};
  for (CheckSection &S : Sections)
    Root[S.Key] = std::move(S.Items);
  OS << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
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
    LLVMContext Ctx;
    Expected<LoadedModule> LM = readModule(Input, Ctx);
    if (!LM)
      return reportError(LM.takeError(), ToolName);
    CheckOptions Opts;
    Opts.Scope = *parseScopeName(Scope);
    std::vector<CheckSection> Sections = collectCheckSections(*LM->M, Opts);
    bool Clean = llvm::none_of(Sections, [](const CheckSection &S) {
      return S.Blocking && !S.Lines.empty();
    });
    if (Format == "json")
      printJSON(outs(), LM->DisplayName, Sections, Clean);
    else
      printText(outs(), LM->DisplayName, Sections);
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
