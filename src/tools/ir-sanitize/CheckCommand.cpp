//===- CheckCommand.cpp - `ir-sanitize check INPUT` -----------------------===//
//
// Lists, without changing anything, every construct that makes Enzyme abort.
// Exit 0 when there is none, 1 when something was found.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ir-sanitize/Driver/Check.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {

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
    LLVMContext &Ctx = processLifetimeContext();
    Expected<LoadedModule> LM = readModule(Input, Ctx);
    if (!LM)
      return reportError(LM.takeError(), ToolName);
    CheckOptions Opts;
    Opts.Scope = *parseScopeName(Scope);
    std::vector<CheckSection> Sections = collectCheckSections(*LM->M, Opts);
    bool Clean = isClean(Sections);
    keepUntilExit(std::move(LM->M));
    // A closed or full stdout is an output error (4), not a finding.
    if (Error E = writeFileAtomically("-", [&](raw_ostream &OS) {
          if (Format == "json")
            printCheckJSON(OS, LM->DisplayName, Sections);
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
