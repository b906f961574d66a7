//===- CheckCommand.cpp - `ir-sanitize check INPUT` -----------------------===//
//
// Lists, without changing anything, every construct that makes Enzyme abort:
// the Enzyme named by --enzyme-plugin or $ENZYME_PLUGIN, asked, or every
// Enzyme known. Exit 0 when there is none, 1 when something was found. The
// driver's runCheck reads and prints; this file parses, calls and returns the
// code.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"

#include "ir-sanitize/Driver/Check.h"

#include "llvm/Support/Process.h"

using namespace llvm;

namespace irs::cli {
namespace {

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
    App.add_option("--enzyme-plugin", Plugin,
                   "report what this Enzyme (LLVMEnzyme-<major>.so) rejects, "
                   "found by asking it (default: $ENZYME_PLUGIN; without "
                   "either, what every Enzyme is known to reject)")
        ->type_name("PATH");
  }

  int run() override {
    CheckRequest Req;
    Req.Input = Input;
    Req.JSON = Format == "json";
    Req.Options.Scope = *parseScopeName(Scope);
    Req.EnzymePlugin = Plugin;
    if (Req.EnzymePlugin.empty())
      Req.EnzymePlugin = sys::Process::GetEnv("ENZYME_PLUGIN").value_or("");
    Req.ProbeCacheDir = probeCacheDir();
    CLIDiagnosticHandler Diags;
    // Never torn down: the process ends right after (see SanitizeCommand).
    Expected<CheckJobResult> Job =
        runCheck(Req, processLifetimeContext(), Diags);
    if (!Job)
      return reportError(Job.takeError(), ToolName);
    if (Job->Enzyme) {
      Diags.note(describeProbe(*Job->Enzyme));
      if (!Job->Enzyme->CacheProblem.empty())
        Diags.warning("probe cache: " + Job->Enzyme->CacheProblem);
    }
    keepUntilExit(std::move(Job->Module));
    return exitCode(Job->Clean ? ExitCode::Ok : ExitCode::Findings);
  }

private:
  std::string Input;
  std::string Format = "text";
  std::string Scope = "ccalls";
  std::string Plugin;
};

} // namespace

std::unique_ptr<Command> createCheckCommand() {
  return std::make_unique<CheckCommand>();
}

} // namespace irs::cli
