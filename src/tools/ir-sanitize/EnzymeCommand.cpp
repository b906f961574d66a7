//===- EnzymeCommand.cpp - `ir-sanitize enzyme INPUT [-o OUTPUT]` ---------===//
//
// Sanitise, add a derivative driver if asked, run Enzyme in a child process,
// put stashed bundles back, write the differentiated module (the driver's
// Sanitize and Differentiate steps). With --triage, run Enzyme on the module
// as given and on the sanitised one side by side and say whether sanitising
// is what makes Enzyme succeed. This file parses, calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/Differentiate.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs::cli {
namespace {

struct EnzymeOptions {
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  std::string PluginPath;
  bool Triage = false;
  bool Json = false;
  bool EmitDriverOnly = false;
  bool KeepTemps = false;
};

int exitCode(ExitCode C) { return static_cast<int>(C); }

void reportFailure(StringRef InputName, StringRef What, const EnzymeResult &R,
                   StringRef WorkDir) {
  errs() << ToolName << ": error: " << InputName << ": Enzyme " << What << " "
         << R.summary() << "\n";
  if (!R.Diagnosis.Phase.empty())
    errs() << ToolName << ": note: phase: " << R.Diagnosis.Phase
           << (R.Diagnosis.Frame.empty() ? "" : ", in " + R.Diagnosis.Frame)
           << "\n";
  errs() << ToolName << ": note: Enzyme's log: " << R.LogPath << "\n";
  errs() << ToolName << ": note: module given to Enzyme kept in " << WorkDir
         << "\n";
}

class EnzymeCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  Expected<SanitizeResult> sanitize(LoadedModule &LM) const;
  int runOnce(LoadedModule &LM);
  int writeDriverOnly(LoadedModule &LM, const SanitizeResult &Result);
  int writeOutputs(const LoadedModule &LM, const EnzymeResult &R,
                   const SanitizeResult &Result, StringRef WorkDir);
  void printSuccess(const LoadedModule &LM, const EnzymeResult &R,
                    const RestoreStats &Stats) const;
  int runTriageMode(LoadedModule &LM);
  void finish(StringRef WorkDir, bool Keep) const;

  EnzymeOptions O;
  DifferentiateConfig D;
  SanitizeOptions Opts;
};

void EnzymeCommand::addOptions(CLI::App &App) {
  addEnzymeRunOptions(App, O.Input, O.PluginPath, D);
  App.add_option("-o,--output", O.Output,
                 "differentiated module ('-' = stdout, the default)")
      ->type_name("OUTPUT");
  App.add_option("--emit", O.Emit, "output format, overriding the name")
      ->check(CLI::IsMember({"ll", "bc"}));
  App.add_flag("--emit-driver-only", O.EmitDriverOnly,
               "write the sanitised module with its driver; do not run Enzyme");
  App.add_option("--enzyme-log", D.LogPath,
                 "keep Enzyme's log here (default: in the work directory)")
      ->type_name("FILE");
  App.add_flag("--triage", O.Triage,
               "run Enzyme on the input as given and sanitised; print a "
               "verdict (exit 0 when the sanitised module differentiates)");
  App.add_flag("--json", O.Json,
               "with --triage: print the verdict as JSON instead of a table");
  App.add_flag("--keep-temps", O.KeepTemps,
               "keep the work directory even when Enzyme succeeds");
  addSanitizeOptions(App, Opts);
}

void EnzymeCommand::finish(StringRef WorkDir, bool Keep) const {
  if (Keep || O.KeepTemps)
    return;
  sys::fs::remove_directories(WorkDir);
}

int EnzymeCommand::run() {
  const char *Conflict = nullptr;
  if (O.Triage && O.EmitDriverOnly)
    Conflict = "--triage and --emit-driver-only exclude each other";
  else if (O.Json && !O.Triage)
    Conflict = "--json needs --triage";
  if (Conflict) {
    errs() << ToolName << ": error: " << Conflict << "\n";
    return exitCode(ExitCode::Usage);
  }
  LLVMContext Ctx;
  Expected<LoadedModule> LM = readModule(O.Input, Ctx);
  if (!LM)
    return reportError(LM.takeError(), ToolName);
  // Without a plugin only --emit-driver-only can do its job; say so before
  // spending time on the module.
  if (!O.EmitDriverOnly) {
    PluginSearch Search;
    Search.Explicit = O.PluginPath;
    Expected<LocatedPlugin> Found = locateEnzymePlugin(Search);
    if (!Found)
      return reportError(Found.takeError(), ToolName);
    D.PluginPath = Found->Path;
  }
  if (O.Triage)
    return runTriageMode(*LM);
  return runOnce(*LM);
}

/// Sanitises \p LM (printing the summary, writing --report) and adds the
/// derivative driver.
Expected<SanitizeResult> EnzymeCommand::sanitize(LoadedModule &LM) const {
  return sanitizeWithDriver(LM, Opts, D);
}

int EnzymeCommand::writeDriverOnly(LoadedModule &LM,
                                   const SanitizeResult &Result) {
  // The writer refuses bitcode here: it cannot hold the enzyme_* markers.
  SanitizeOutputs Out = sanitizeOutputs(Opts, Result, LM, O.Output, O.Emit,
                                        /*WithReport=*/false);
  printWarning(debugInfoFormWarning(*LM.M, LM.DbgForm));
  if (Error E = writeSanitizeOutputs(*LM.M, Result, Out))
    return reportError(std::move(E), ToolName);
  printAfterWrite(Opts, Result, Out);
  return exitCode(ExitCode::Ok);
}

void EnzymeCommand::printSuccess(const LoadedModule &LM, const EnzymeResult &R,
                                 const RestoreStats &Stats) const {
  if (Opts.Quiet)
    return;
  errs() << ToolName << ": " << LM.DisplayName << ": Enzyme succeeded in "
         << formatv("{0:f2}", R.Outcome.Seconds) << " s ("
         << join(differentiatedFunctions(*LM.M), ", ") << "); restored "
         << Stats.Bundles << " stashed bundles";
  if (Stats.OrphanMarkers)
    errs() << "; " << Stats.OrphanMarkers
           << " calls Enzyme copied into derivatives lost their stash record "
              "and stay without those bundles";
  errs() << "\n";
}

/// Writes the differentiated module and the manifest; prints the outcome.
int EnzymeCommand::writeOutputs(const LoadedModule &LM, const EnzymeResult &R,
                                const SanitizeResult &Result,
                                StringRef WorkDir) {
  SanitizeOutputs Out = sanitizeOutputs(Opts, Result, LM, O.Output, O.Emit,
                                        /*WithReport=*/false);
  printWarning(debugInfoFormWarning(*LM.M, LM.DbgForm));
  Expected<RestoreStats> Stats = writeDifferentiated(R, Result, Out);
  if (!Stats) {
    finish(WorkDir, /*Keep=*/true);
    return reportError(Stats.takeError(), ToolName);
  }
  printAfterWrite(Opts, Result, Out);
  if (O.Triage)
    return exitCode(ExitCode::Ok);
  printSuccess(LM, R, *Stats);
  finish(WorkDir, /*Keep=*/false);
  if (!Stats->Lost)
    return exitCode(ExitCode::Ok);
  errs() << ToolName << ": warning: " << LM.DisplayName << ": " << Stats->Lost
         << " stashed bundles could not be restored after Enzyme (their "
            "operand record was lost)\n";
  return exitCode(ExitCode::Findings);
}

int EnzymeCommand::runOnce(LoadedModule &LM) {
  Expected<SanitizeResult> Result = sanitize(LM);
  if (!Result)
    return reportError(Result.takeError(), ToolName);
  if (O.EmitDriverOnly)
    return writeDriverOnly(LM, *Result);
  Expected<std::string> WorkDir = createEnzymeWorkDir();
  if (!WorkDir)
    return reportError(WorkDir.takeError(), ToolName);
  Expected<EnzymeResult> R = differentiateModule(*LM.M, *WorkDir, D);
  if (!R)
    return reportError(R.takeError(), ToolName);
  if (!R->ok()) {
    reportFailure(LM.DisplayName, "failed on the sanitised module:", *R,
                  *WorkDir);
    return exitCode(ExitCode::Findings);
  }
  return writeOutputs(LM, *R, *Result, *WorkDir);
}

int EnzymeCommand::runTriageMode(LoadedModule &LM) {
  Expected<EnzymeSides> Sides = prepareEnzymeSides(LM, Opts, D);
  if (!Sides)
    return reportError(Sides.takeError(), ToolName);
  const SanitizeResult &Result = Sides->Result;
  StringRef WorkDir = Sides->WorkDir;
  Expected<TriageReport> Report = triageModules(*Sides->Original, *LM.M, Result,
                                                LM.DisplayName, WorkDir, D);
  if (!Report)
    return reportError(Report.takeError(), ToolName);
  if (Error E = writeFileAtomically("-", [&](raw_ostream &OS) {
        if (O.Json)
          OS << formatv("{0:2}", triageToJSON(*Report)) << "\n";
        else
          printTriage(OS, *Report);
      }))
    return reportError(std::move(E), ToolName);

  bool Ok = Report->sanitisedOk();
  if (Ok && O.Output != "-")
    if (int Code = writeOutputs(LM, Report->Sanitised, Result, WorkDir))
      return Code;
  // The logs of a failing run are what the user came for.
  finish(WorkDir, /*Keep=*/!Report->Original.ok() || !Ok);
  return exitCode(Ok ? ExitCode::Ok : ExitCode::Findings);
}

} // namespace

std::unique_ptr<Command> createEnzymeCommand() {
  return std::make_unique<EnzymeCommand>();
}

} // namespace irs::cli
