//===- EnzymeCommand.cpp - `ir-sanitize enzyme INPUT [-o OUTPUT]` ---------===//
//
// Sanitise, add a derivative driver if asked, run Enzyme in a child process,
// put stashed bundles back, write the differentiated module. With --triage,
// run Enzyme on the module as given and on the sanitised one side by side and
// say whether sanitising is what makes Enzyme succeed.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Enzyme/ActivitySpec.h"
#include "ir-sanitize/Enzyme/DriverGenerator.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Enzyme/Triage.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"
#include "ir-sanitize/Transforms/BundleRestore.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

int exitCode(ExitCode C) { return static_cast<int>(C); }

/// Reads Enzyme's output, re-attaches stashed bundles, writes -o.
Error writeDifferentiated(const EnzymeResult &R, const EnzymeOptions &O,
                          DebugInfoForm DbgForm, RestoreStats &Stats) {
  LLVMContext Ctx;
  Expected<LoadedModule> Out = readModule(R.OutputPath, Ctx);
  if (!Out)
    return Out.takeError();
  Stats = restoreBundles(*Out->M);
  IRFormat Format = outputFormatFor(O.Output, parseIRFormat(O.Emit));
  return writeModule(*Out->M, O.Output, Format, DbgForm);
}

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

/// One line per splatted kernel and per call site the sanitiser touched (at
/// most a screenful).
std::vector<std::string> describeChanges(const SanitizeResult &Result) {
  std::vector<std::string> Lines;
  for (const KernelManifest &K : Result.Manifest.Kernels)
    Lines.push_back("splatted kernel " + K.Name + ": " +
                    std::to_string(K.OriginalParams.size()) +
                    " parameters into " + std::to_string(K.Params.size()));
  const BundleReport &Report = Result.Bundles;
  if (Report.numBundles() == 0)
    return Lines;
  Lines.push_back(Report.summary());
  const size_t MaxSites = 8;
  size_t Shown = 0;
  for (const CallSiteRecord &Site : Report.callSites()) {
    if (Shown++ == MaxSites) {
      Lines.push_back("... and " +
                      std::to_string(Report.callSites().size() - MaxSites) +
                      " more call sites (see --report)");
      break;
    }
    std::string L = Site.Function + ": call " + Site.Callee + ":";
    for (const BundleRecord &B : Site.Bundles)
      L += " " + B.Tag + "=" + actionName(B.Action).str();
    if (!Site.Location.empty())
      L += " (" + Site.Location + ")";
    Lines.push_back(L);
  }
  return Lines;
}

class EnzymeCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  int runOnce(LoadedModule &LM, const LocatedPlugin &Plugin);
  int writeDriverOnly(LoadedModule &LM, const SanitizeResult &Result);
  void printSuccess(const LoadedModule &LM, const EnzymeResult &R,
                    const RestoreStats &Stats) const;
  int runTriageMode(LoadedModule &LM, const LocatedPlugin &Plugin);
  void finish(StringRef WorkDir, bool Keep) const;

  EnzymeOptions O;
  SanitizeOptions Opts;
};

void EnzymeCommand::addOptions(CLI::App &App) {
  addEnzymeRunOptions(App, O);
  App.add_option("-o,--output", O.Output,
                 "differentiated module ('-' = stdout, the default)")
      ->type_name("OUTPUT");
  App.add_option("--emit", O.Emit, "output format, overriding the name")
      ->check(CLI::IsMember({"ll", "bc"}));
  App.add_flag("--emit-driver-only", O.EmitDriverOnly,
               "write the sanitised module with its driver; do not run Enzyme");
  App.add_option("--enzyme-log", O.LogPath,
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
  LocatedPlugin Plugin;
  if (!O.EmitDriverOnly) {
    Expected<LocatedPlugin> Found = findPlugin(O);
    if (!Found)
      return reportError(Found.takeError(), ToolName);
    Plugin = *Found;
  }
  if (O.Triage)
    return runTriageMode(*LM, Plugin);
  return runOnce(*LM, Plugin);
}

int EnzymeCommand::writeDriverOnly(LoadedModule &LM,
                                   const SanitizeResult &Result) {
  // writeModule refuses bitcode here: it cannot hold the enzyme_* markers.
  IRFormat Format = outputFormatFor(O.Output, parseIRFormat(O.Emit));
  if (Error E = writeModule(*LM.M, O.Output, Format, LM.DbgForm))
    return reportError(std::move(E), ToolName);
  if (Error E = writeManifest(Opts, Result, O.Output))
    return reportError(std::move(E), ToolName);
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

int EnzymeCommand::runOnce(LoadedModule &LM, const LocatedPlugin &Plugin) {
  SanitizeResult Result;
  if (Error E = runSanitizePipeline(*LM.M, Opts, LM.DisplayName, Result))
    return reportError(std::move(E), ToolName);
  if (Error E = prepareDrivers(*LM.M, O, LM.DisplayName,
                               Result.Manifest.findKernel(O.Fn)))
    return reportError(std::move(E), ToolName);
  if (O.EmitDriverOnly)
    return writeDriverOnly(LM, Result);

  Expected<std::string> WorkDir = makeWorkDir();
  if (!WorkDir)
    return reportError(WorkDir.takeError(), ToolName);
  Expected<EnzymeInvocation> Inv =
      prepareRun(*LM.M, *WorkDir, "sanitised", O.LogPath, Plugin, O);
  if (!Inv)
    return reportError(Inv.takeError(), ToolName);
  Expected<EnzymeResult> R = runEnzyme(*Inv);
  if (!R)
    return reportError(R.takeError(), ToolName);
  if (!R->ok()) {
    attributeToFunction(*R, *LM.M);
    reportFailure(LM.DisplayName, "failed on the sanitised module:", *R,
                  *WorkDir);
    return exitCode(ExitCode::Findings);
  }
  RestoreStats Stats;
  Error E = writeDifferentiated(*R, O, LM.DbgForm, Stats);
  if (!E)
    E = writeManifest(Opts, Result, O.Output);
  if (E) {
    finish(*WorkDir, /*Keep=*/true);
    return reportError(std::move(E), ToolName);
  }
  printSuccess(LM, *R, Stats);
  finish(*WorkDir, /*Keep=*/false);
  if (!Stats.Lost)
    return exitCode(ExitCode::Ok);
  errs() << ToolName << ": warning: " << LM.DisplayName << ": " << Stats.Lost
         << " stashed bundles could not be restored after Enzyme (their "
            "operand record was lost)\n";
  return exitCode(ExitCode::Findings);
}

int EnzymeCommand::runTriageMode(LoadedModule &LM,
                                 const LocatedPlugin &Plugin) {
  SanitizeResult Result;
  Expected<std::unique_ptr<Module>> Prepared =
      prepareOriginalAndSanitised(LM, O, Opts, Result);
  if (!Prepared)
    return reportError(Prepared.takeError(), ToolName);
  std::unique_ptr<Module> Original = std::move(*Prepared);

  Expected<std::string> WorkDir = makeWorkDir();
  if (!WorkDir)
    return reportError(WorkDir.takeError(), ToolName);
  Expected<EnzymeInvocation> OrigInv =
      prepareRun(*Original, *WorkDir, "original", "", Plugin, O);
  if (!OrigInv)
    return reportError(OrigInv.takeError(), ToolName);
  Expected<EnzymeInvocation> SanInv =
      prepareRun(*LM.M, *WorkDir, "sanitised", O.LogPath, Plugin, O);
  if (!SanInv)
    return reportError(SanInv.takeError(), ToolName);

  Expected<TriageReport> Report = runTriage(*OrigInv, *SanInv);
  if (!Report)
    return reportError(Report.takeError(), ToolName);
  Report->InputName = LM.DisplayName;
  attributeToFunction(Report->Original, *Original);
  attributeToFunction(Report->Sanitised, *LM.M);
  Report->Changes = describeChanges(Result);
  if (O.Json)
    outs() << formatv("{0:2}", triageToJSON(*Report)) << "\n";
  else
    printTriage(outs(), *Report);
  outs().flush();

  bool Ok = Report->sanitisedOk();
  if (Ok && O.Output != "-") {
    RestoreStats Stats;
    Error E = writeDifferentiated(Report->Sanitised, O, LM.DbgForm, Stats);
    if (!E)
      E = writeManifest(Opts, Result, O.Output);
    if (E)
      return reportError(std::move(E), ToolName);
  }
  // The logs of a failing run are what the user came for.
  finish(*WorkDir, /*Keep=*/!Report->Original.ok() || !Ok);
  return exitCode(Ok ? ExitCode::Ok : ExitCode::Findings);
}

} // namespace

std::unique_ptr<Command> createEnzymeCommand() {
  return std::make_unique<EnzymeCommand>();
}

} // namespace irs::cli
