//===- ReduceCommand.cpp - `ir-sanitize reduce INPUT -o MIN.ll` -----------===//
//
// From an Enzyme crash dump to a minimal reproducer (the driver's runReduce):
// sanitize, pick and confirm the failure, cut the module down with
// llvm-reduce, with ir-sanitize itself as the interestingness test (the
// hidden --interestingness-test mode below, the driver's
// failsLikeSignature), and write the result with a header saying how to
// reproduce it with plain opt. This file parses, calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/Reduce.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace llvm;

namespace irs::cli {
namespace {

/// The exit code \p E carries, printing nothing (the interestingness test
/// answers llvm-reduce with its exit code alone).
int silentExitCode(Error E) {
  ExitCode Code = ExitCode::BadInput;
  handleAllErrors(
      std::move(E), [&](const ToolError &T) { Code = T.code(); },
      [](const ErrorInfoBase &) {});
  return exitCode(Code);
}

class ReduceCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  int runInterestingnessTest() const;

  EnzymeOptions O;
  SanitizeOptions Opts;
  std::string Output; ///< MIN.ll; required.
  unsigned Jobs = std::max(1u, std::thread::hardware_concurrency());
  unsigned MaxSeconds = 0;
  bool AfterSanitize = false;
  bool BeforeSanitize = false;
  bool KeepTemps = false;
  std::string SignaturePath; ///< Set: run as llvm-reduce's test.
};

void ReduceCommand::addOptions(CLI::App &App) {
  addEnzymeOptions(App, O);
  App.add_option("-o,--output", Output,
                 "the reduced module (text IR, with a header saying how to "
                 "reproduce the failure)")
      ->type_name("MIN.ll");
  App.add_option("-j,--jobs", Jobs,
                 "candidates llvm-reduce tests at once (default: the cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u));
  App.add_option("--max-time", MaxSeconds,
                 "stop reducing after this long and keep the smallest module "
                 "found so far (0: no limit)")
      ->type_name("SECONDS");
  App.add_flag("--after-sanitize", AfterSanitize,
               "reduce the failure that remains after sanitising (the default "
               "when there is one)");
  App.add_flag("--before-sanitize", BeforeSanitize,
               "reduce the failure of the module as given (the default when "
               "sanitising fixes it)");
  App.add_flag("--keep-temps", KeepTemps,
               "keep the work directory (logs, llvm-reduce's candidates)");
  // What llvm-reduce runs on each candidate: exit 0 when Enzyme fails on it
  // with the signature in FILE.
  App.add_option("--interestingness-test", SignaturePath)->group("");
  addSanitizeOptions(App, Opts);
}

int ReduceCommand::run() {
  if (!SignaturePath.empty())
    return runInterestingnessTest();
  const char *Conflict = nullptr;
  if (AfterSanitize && BeforeSanitize)
    Conflict = "--after-sanitize and --before-sanitize exclude each other";
  else if (Output.empty())
    Conflict = "reduce needs -o MIN.ll";
  if (Conflict) {
    errs() << ToolName << ": error: " << Conflict << "\n";
    return exitCode(ExitCode::Usage);
  }
  ReduceRequest Req;
  Req.Sanitize = sanitizeRequest(Opts, O.Input, Output, /*Emit=*/"");
  Req.Enzyme = O.Enzyme;
  Req.PluginPath = O.PluginPath;
  if (AfterSanitize)
    Req.Side = ReduceSide::Sanitized;
  else if (BeforeSanitize)
    Req.Side = ReduceSide::Original;
  Req.Jobs = Jobs;
  Req.MaxSeconds = MaxSeconds;
  Req.KeepTemps = KeepTemps;
  Req.TestProgram = sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&createSubcommands));
  CLIDiagnosticHandler Diags(Opts.Quiet);
  LLVMContext Ctx;
  Expected<ReduceJobResult> Job = runReduce(Req, Ctx, Diags);
  if (!Job)
    return reportError(Job.takeError(), ToolName);
  if (!Job->Verdict)
    return exitCode(ExitCode::Ok);
  // Why nothing was written; the logs are kept.
  ExitCode Code = Job->Verdict->Code;
  errs() << ToolName << ": " << (Code == ExitCode::Findings ? "" : "error: ")
         << keepOnOneLine(Job->InputName + ": " + Job->Verdict->Message)
         << "\n";
  errs() << ToolName << ": note: logs kept in " << keepOnOneLine(Job->WorkDir)
         << "\n";
  return exitCode(Code);
}

int ReduceCommand::runInterestingnessTest() const {
  // Anything but 0 means "not interesting" to llvm-reduce; nothing prints.
  DifferentiateConfig Test = O.Enzyme;
  Test.PluginPath = O.PluginPath;
  Expected<bool> Fails = failsLikeSignature(O.Input, SignaturePath, Test);
  if (!Fails)
    return silentExitCode(Fails.takeError());
  return exitCode(*Fails ? ExitCode::Ok : ExitCode::Findings);
}

} // namespace

std::unique_ptr<Command> createReduceCommand() {
  return std::make_unique<ReduceCommand>();
}

} // namespace irs::cli
