//===- EnzymeCommand.cpp - `ir-sanitize enzyme INPUT [-o OUTPUT]` ---------===//
//
// Sanitize, add a derivative wrapper if asked, run Enzyme in a child process,
// put stashed bundles back, write the differentiated module: the driver's
// runDifferentiate. With --triage, Enzyme runs on the module as given and on
// the sanitized one side by side, and the verdict says whether sanitizing is
// what makes Enzyme succeed. This file parses, calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/Differentiate.h"
#include "ir-sanitize/Support/AtomicOutput.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

void reportFailure(StringRef InputName, StringRef What, const EnzymeResult &R,
                   StringRef WorkDir) {
  errs() << ToolName << ": error: "
         << keepOnOneLine((InputName + ": Enzyme " + What + " ").str() +
                          R.summary())
         << "\n";
  if (!R.Diagnosis.Phase.empty())
    errs() << ToolName << ": note: phase: "
           << keepOnOneLine(R.Diagnosis.Phase +
                            (R.Diagnosis.Frame.empty()
                                 ? ""
                                 : ", in " + R.Diagnosis.Frame))
           << "\n";
  errs() << ToolName << ": note: Enzyme's log: " << keepOnOneLine(R.LogPath)
         << "\n";
  errs() << ToolName << ": note: module given to Enzyme kept in "
         << keepOnOneLine(WorkDir) << "\n";
}

class EnzymeCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  EnzymeOptions O;
  std::string Output = "-";
  std::string Emit;
  bool Triage = false;
  bool Json = false;
  bool WrapperOnly = false;
  bool KeepTemps = false;
  bool PrintPipeline = false;
  SanitizeOptions Opts;
};

void EnzymeCommand::addOptions(CLI::App &App) {
  addEnzymeOptions(App, O);
  App.add_option("-o,--output", Output,
                 "differentiated module ('-' = stdout, the default)")
      ->type_name("OUTPUT");
  App.add_option("--emit", Emit, "output format, overriding the name")
      ->check(CLI::IsMember({"ll", "bc"}));
  App.add_flag("--emit-driver-only", WrapperOnly,
               "write the sanitised module with its driver; do not run Enzyme");
  App.add_option("--enzyme-log", O.Enzyme.LogPath,
                 "keep Enzyme's log here (default: in the work directory)")
      ->type_name("FILE");
  App.add_flag("--triage", Triage,
               "run Enzyme on the input as given and sanitised; print a "
               "verdict (exit 0 when the sanitised module differentiates)");
  App.add_flag("--json", Json,
               "with --triage: print the verdict as JSON instead of a table");
  App.add_flag("--keep-temps", KeepTemps,
               "keep the work directory even when Enzyme succeeds");
  addPrintPipelineFlag(App, PrintPipeline,
                       ", one line per stage as `OUTPUT: INPUT | opt ...` "
                       "(opt with -load-pass-plugin=IRSanitize.so), without "
                       "writing anything or running Enzyme");
  addSanitizeOptions(App, Opts);
}

int EnzymeCommand::run() {
  const char *Conflict = nullptr;
  if (Triage && WrapperOnly)
    Conflict = "--triage and --emit-driver-only exclude each other";
  else if (Json && !Triage)
    Conflict = "--json needs --triage";
  if (Conflict) {
    errs() << ToolName << ": error: " << Conflict << "\n";
    return exitCode(ExitCode::Usage);
  }
  EnzymeRequest Req;
  Req.Sanitize = sanitizeRequest(Opts, O.Input, Output, Emit);
  Req.Enzyme = O.Enzyme;
  Req.PluginPath = O.PluginPath;
  Req.WrapperOnly = WrapperOnly;
  Req.Triage = Triage;
  Req.ProbeCacheDir = probeCacheDir();
  Req.KeepTemps = KeepTemps;
  CLIDiagnosticHandler Diags(Opts.Quiet);
  LLVMContext Ctx;
  if (PrintPipeline)
    return printStages(enzymeStages(Req, Ctx, Diags));
  Expected<EnzymeJobResult> Job = runDifferentiate(Req, Ctx, Diags);
  if (!Job)
    return reportError(Job.takeError(), ToolName);
  if (Job->Triage)
    if (Error E = writeFileAtomically("-", [&](raw_ostream &OS) {
          if (Json)
            OS << formatv("{0:2}", triageToJSON(*Job->Triage)) << "\n";
          else
            printTriage(OS, *Job->Triage);
        }))
      return reportError(std::move(E), ToolName);
  if (Job->Failure)
    reportFailure(Job->InputName,
                  "failed on the sanitised module:", *Job->Failure,
                  Job->WorkDir);
  return exitCode(Job->Code);
}

} // namespace

std::unique_ptr<Command> createEnzymeCommand() {
  return std::make_unique<EnzymeCommand>();
}

} // namespace irs::cli
