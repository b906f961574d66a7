//===- SanitizeCommand.cpp - `ir-sanitize INPUT [-o OUTPUT]` --------------===//
//
// The default command: the driver's runSanitize reads the module, sanitizes
// it and writes it with its manifest and report. The input is never
// overwritten unless -o names it. This file parses, calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Passes/PassRegistry.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

class SanitizeCommand : public Command {
public:
  void addOptions(CLI::App &App) override {
    App.add_option("input", Input, "LLVM IR (.ll or .bc, '-' for stdin)")
        ->type_name("INPUT");
    App.add_option("-o,--output", Output,
                   "output file ('-' = stdout, the default); text unless it "
                   "ends in .bc")
        ->type_name("OUTPUT");
    App.add_option("--emit", Emit, "output format, overriding the name")
        ->check(CLI::IsMember({"ll", "bc"}));
    addSanitizeOptions(App, Opts);
    addPrintPipelineFlag(App, PrintPipeline);
    App.add_flag("--print-passes", PrintPasses,
                 "print every pass the opt plugin accepts, with its "
                 "parameters, and exit");
  }

  int run() override {
    if (PrintPasses) {
      printRegisteredPasses(outs());
      return exitCode(ExitCode::Ok);
    }
    if (Input.empty()) {
      errs() << ToolName << ": error: no input file (see --help)\n";
      return exitCode(ExitCode::Usage);
    }
    SanitizeRequest Req = sanitizeRequest(Opts, Input, Output, Emit);
    if (PrintPipeline)
      return printPipelineText(
          printSanitizePipeline(Req, processLifetimeContext()));
    CLIDiagnosticHandler Diags(Opts.Quiet);
    // Like clang's -disable-free: the process ends right after writing, so
    // the context and module are never torn down (saves ~5% on big modules).
    Expected<SanitizeJobResult> Job =
        runSanitize(Req, processLifetimeContext(), Diags);
    if (!Job)
      return reportError(Job.takeError(), ToolName);
    keepUntilExit(std::move(Job->Module));
    // A bundle an earlier run stashed and this one could not restore.
    bool Lost = Job->Result.Bundles.numLost() != 0;
    return exitCode(Lost ? ExitCode::Findings : ExitCode::Ok);
  }

private:
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  SanitizeOptions Opts;
  bool PrintPipeline = false;
  bool PrintPasses = false;
};

} // namespace

std::unique_ptr<Command> createSanitizeCommand() {
  return std::make_unique<SanitizeCommand>();
}

} // namespace irs::cli
