//===- RestoreCommand.cpp - `ir-sanitize restore INPUT [-o OUTPUT]` -------===//
//
// Re-attaches every bundle a previous run stashed (the driver's runRestore).
// Exit 1 (output still written) when a recorded bundle could not be
// re-attached because its operand marker was lost by a tool in between.
// This file parses, calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ir-sanitize/Driver/Restore.h"

using namespace llvm;

namespace irs::cli {
namespace {

class RestoreCommand : public Command {
public:
  void addOptions(CLI::App &App) override {
    App.add_option("input", Input, "LLVM IR (.ll or .bc, '-' for stdin)")
        ->type_name("INPUT")
        ->required();
    App.add_option("-o,--output", Output, "output file ('-' = stdout)")
        ->type_name("OUTPUT");
    App.add_option("--emit", Emit, "output format, overriding the name")
        ->check(CLI::IsMember({"ll", "bc"}));
    App.add_flag("-q,--quiet", Quiet, "no summary line on stderr");
    addPrintPipelineFlag(App, PrintPipeline);
  }

  int run() override {
    RestoreRequest Req{Input, Output, Emit};
    if (PrintPipeline)
      return printPipelineText(
          printRestorePipeline(Req, processLifetimeContext()));
    CLIDiagnosticHandler Diags(Quiet);
    // Never torn down: the process ends right after (see SanitizeCommand).
    Expected<RestoreJobResult> Job =
        runRestore(Req, processLifetimeContext(), Diags);
    if (!Job)
      return reportError(Job.takeError(), ToolName);
    keepUntilExit(std::move(Job->Module));
    return exitCode(Job->Stats.Lost ? ExitCode::Findings : ExitCode::Ok);
  }

private:
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  bool Quiet = false;
  bool PrintPipeline = false;
};

} // namespace

std::unique_ptr<Command> createRestoreCommand() {
  return std::make_unique<RestoreCommand>();
}

} // namespace irs::cli
