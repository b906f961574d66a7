//===- Differentiate.cpp - The Enzyme pipeline ----------------------------===//
#include "ir-sanitize/Driver/Differentiate.h"

#include "SanitizeSteps.h"
#include "ir-sanitize/Support/PathIn.h"
#include "ir-sanitize/Support/ScopedWorkDir.h"

#include "ir-sanitize/Analysis/ActivitySpec.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Driver/PipelineStage.h"
#include "ir-sanitize/Driver/Restore.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs {
namespace {

Error usage(const Twine &Msg) { return makeToolError(ExitCode::Usage, Msg); }

/// "f, g, h and 12 more": the functions with a body, for error messages.
std::string definedFunctionNames(const Module &M) {
  std::vector<std::string> Names;
  size_t Total = 0;
  for (const Function &F : M)
    if (!F.isDeclaration() && Total++ < 12)
      Names.push_back(escapeForMessage(F.getName()));
  std::string S = join(Names, ", ");
  if (Total > Names.size())
    S += " and " + std::to_string(Total - Names.size()) + " more";
  return S.empty() ? "none" : S;
}

/// The pipeline adding the NAME.fwd / NAME.rev wrapper that Fn/Mode/Activity
/// ask for (derivativeWrapperPipeline).
Expected<std::string> wrapperText(Module &M, const DifferentiateConfig &C,
                                  const KernelManifest *Manifest,
                                  DiagnosticHandler *Lenient) {
  std::optional<DiffMode> Mode = parseDiffMode(C.Mode);
  if (!Mode)
    return usage("--fn needs --mode=forward or --mode=reverse");
  Function *Fn = M.getFunction(C.Fn);
  if (!Fn || Fn->isDeclaration())
    return usage("--fn " + escapeForMessage(C.Fn) +
                 ": no function with a body of that name; "
                 "the module defines " +
                 definedFunctionNames(M));
  Expected<ActivitySpec> Spec = ActivitySpec::parse(C.Activity);
  if (!Spec)
    return Spec.takeError();
  Expected<ActivityMap> Map =
      resolveActivities(*Fn, *Mode, *Spec, Manifest, isKernel(*Fn));
  if (!Map && Lenient) {
    Lenient->note("original module: " + toString(Map.takeError()) +
                  "; using default activities");
    Map = resolveActivities(*Fn, *Mode, ActivitySpec(), nullptr, isKernel(*Fn));
  }
  if (!Map)
    return Map.takeError();
  return derivativeWrapperPipeline(C.Fn, *Mode, *Map);
}

} // namespace

static Expected<std::string>
derivativeWrapperText(Module &M, const DifferentiateConfig &C,
                      StringRef InputName, const KernelManifest *Manifest,
                      DiagnosticHandler *Lenient = nullptr) {
  if (!C.Fn.empty())
    return wrapperText(M, C, Manifest, Lenient);
  if (!C.Mode.empty() || !C.Activity.empty())
    return usage("--mode and --activity need --fn NAME");
  if (!hasEnzymeCalls(M))
    return usage(InputName + " calls neither __enzyme_fwddiff nor "
                             "__enzyme_autodiff; name the function to "
                             "differentiate with --fn NAME --mode=forward|"
                             "reverse");
  return "";
}

static Error addDerivativeWrapper(Module &M, const DifferentiateConfig &C,
                                  StringRef InputName,
                                  const KernelManifest *Manifest,
                                  DiagnosticHandler *Lenient = nullptr) {
  Expected<std::string> Text =
      derivativeWrapperText(M, C, InputName, Manifest, Lenient);
  if (!Text)
    return Text.takeError();
  return Text->empty() ? Error::success() : runPipeline(M, *Text);
}

/// Text, because bitcode cannot carry Enzyme's markers: LLVM writes a
/// `metadata` argument of a varargs call as a reference to some other value.
/// Enzyme replaces every marked call it differentiates, so its output comes
/// back as bitcode (several times faster to read), unless Enzyme might leave
/// a marked call behind: a plugin that does not differentiate them all.
Expected<EnzymeInvocation> prepareEnzymeRun(Module &M, StringRef WorkDir,
                                            StringRef Stem, StringRef LogPath,
                                            const DifferentiateConfig &C) {
  EnzymeInvocation Inv;
  Inv.InputPath = pathIn(WorkDir, Stem.str() + ".ll");
  Inv.OutputPath = pathIn(WorkDir, Stem.str() + ".enzyme.bc");
  Inv.LogPath = LogPath.empty() ? pathIn(WorkDir, Stem.str() + ".enzyme.log")
                                : LogPath.str();
  Inv.PluginPath = C.PluginPath;
  Inv.TimeoutSeconds = C.TimeoutSeconds;
  Inv.ExtraArgs = C.ExtraOptArgs;
  Inv.ModuleRules = registersEnzymeRules(M);
  if (Error E =
          writeModule(M, Inv.InputPath, IRFormat::Text, DebugInfoForm::Records))
    return E;
  if (!bitcodeCanHold(M)) {
    Inv.OutputPath = pathIn(WorkDir, Stem.str() + ".enzyme.ll");
    Inv.TextOutput = true;
  }
  return Inv;
}

static Expected<EnzymeResult>
differentiateModule(Module &M, StringRef WorkDir,
                    const DifferentiateConfig &C) {
  Expected<EnzymeInvocation> Inv =
      prepareEnzymeRun(M, WorkDir, "sanitized", C.LogPath, C);
  if (!Inv)
    return Inv.takeError();
  Expected<EnzymeResult> R = runEnzyme(*Inv);
  if (R && !R->ok())
    attributeToFunction(*R, M);
  return R;
}

static std::vector<std::string> describeChanges(const SanitizeResult &Result) {
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
      L += " (" + Site.Location.str() + ")";
    Lines.push_back(L);
  }
  return Lines;
}

static Expected<TriageReport> triageModules(Module &Original, Module &Sanitized,
                                            const SanitizeResult &Result,
                                            StringRef InputName,
                                            StringRef WorkDir,
                                            const DifferentiateConfig &C) {
  Expected<EnzymeInvocation> OrigInv =
      prepareEnzymeRun(Original, WorkDir, "original", "", C);
  if (!OrigInv)
    return OrigInv.takeError();
  Expected<EnzymeInvocation> SanInv =
      prepareEnzymeRun(Sanitized, WorkDir, "sanitized", C.LogPath, C);
  if (!SanInv)
    return SanInv.takeError();
  Expected<TriageReport> Report = runTriage(*OrigInv, *SanInv);
  if (!Report)
    return Report.takeError();
  Report->InputName = InputName.str();
  attributeToFunction(Report->Original, Original);
  attributeToFunction(Report->Sanitized, Sanitized);
  Report->Changes = describeChanges(Result);
  return Report;
}

/// Names the Enzyme that ran in \p R, and what it says of \p Original's
/// bundles (asked in \p WorkDir; cached under \p CacheDir).
static Error nameEnzyme(TriageReport &R, Module &Original, BundleScope Scope,
                        const DifferentiateConfig &C, StringRef CacheDir,
                        StringRef WorkDir) {
  ProbeOptions Opts;
  Opts.PluginPath = C.PluginPath;
  Opts.CacheDir = CacheDir.str();
  Opts.WorkDir = WorkDir.str();
  std::vector<BundleShape> Shapes = bundleShapesIn(Original, Scope);
  Expected<ProbeReport> Asked = probeBundles(Shapes, Opts);
  if (!Asked)
    return Asked.takeError();
  // A cached "accepts" that a run here aborted on is stale or forged: it is
  // dropped, asked again, and the report says so.
  for (const EnzymeResult *Run : {&R.Original, &R.Sanitized})
    for (std::string &Tag : cachedAcceptsContradictedBy(*Asked, *Run))
      Opts.DistrustedTags.insert(std::move(Tag));
  if (!Opts.DistrustedTags.empty()) {
    R.ContradictedCache.assign(Opts.DistrustedTags.begin(),
                               Opts.DistrustedTags.end());
    Asked = probeBundles(Shapes, Opts);
    if (!Asked)
      return Asked.takeError();
  }
  R.Plugin = Asked->Plugin;
  R.AcceptedTags = Asked->tagsWith(ProbeVerdict::Accepted);
  R.RejectedTags = Asked->tagsWith(ProbeVerdict::Rejected);
  return Error::success();
}

static Expected<RestoreStats> writeDifferentiated(const EnzymeResult &R,
                                                  const SanitizeResult &Result,
                                                  const SanitizeOutputs &Out) {
  LLVMContext Ctx;
  Expected<LoadedModule> Diff = readModule(R.OutputPath, Ctx);
  if (!Diff)
    return Diff.takeError();
  RestoreStats Stats = restoreModule(*Diff->M);
  if (Error E = writeSanitizeOutputs(*Diff->M, Result, Out))
    return E;
  return Stats;
}

static Expected<SanitizeResult>
sanitizeWithWrapper(LoadedModule &LM, const SanitizeRequest &Req,
                    const DifferentiateConfig &D, DiagnosticHandler &Diags) {
  Expected<SanitizeResult> Result = sanitizeModule(*LM.M, Req.Config);
  if (!Result)
    return Result.takeError();
  if (Error E = writeSanitizeReport(Req.ReportPath, *Result, LM.DisplayName))
    return E;
  reportSanitized(Diags, *Result, LM.DisplayName);
  if (Error E = addDerivativeWrapper(*LM.M, D, LM.DisplayName,
                                     Result->Manifest.findKernel(D.Fn)))
    return E;
  return Result;
}

Expected<EnzymeSides> prepareEnzymeSides(LoadedModule &LM,
                                         const SanitizeRequest &Req,
                                         const DifferentiateConfig &D,
                                         DiagnosticHandler &Diags) {
  EnzymeSides Sides;
  // The original keeps its bundles.
  Sides.Original = CloneModule(*LM.M);
  Expected<SanitizeResult> Sanitized = sanitizeWithWrapper(LM, Req, D, Diags);
  if (!Sanitized)
    return Sanitized.takeError();
  Sides.Result = std::move(*Sanitized);
  if (Error E = addDerivativeWrapper(*Sides.Original, D, LM.DisplayName,
                                     nullptr, &Diags))
    return E;
  Expected<std::string> WorkDir = createWorkDir("enzyme");
  if (!WorkDir)
    return WorkDir.takeError();
  Sides.WorkDir = std::move(*WorkDir);
  return Sides;
}

namespace {

/// One `enzyme` job: the steps of runDifferentiate, sharing the request,
/// the input (sanitized in place) and the result being filled in.
class EnzymeJob {
public:
  EnzymeJob(const EnzymeRequest &Req, const DifferentiateConfig &D,
            LoadedModule &LM, DiagnosticHandler &Diags)
      : Req(Req), D(D), LM(LM), Diags(Diags) {
    Job.InputName = LM.DisplayName;
  }
  Expected<EnzymeJobResult> once();
  Expected<EnzymeJobResult> triage();

private:
  SanitizeOutputs outputs(const SanitizeResult &Result) const {
    // --report was written before Enzyme ran.
    return sanitizeOutputs(Req.Sanitize, Result, LM, /*WithReport=*/false);
  }
  Expected<RestoreStats> writeOutputs(const EnzymeResult &R,
                                      const SanitizeResult &Result);
  void reportSuccess(const EnzymeResult &R, const RestoreStats &Stats);
  const EnzymeRequest &Req;
  const DifferentiateConfig &D; ///< PluginPath: located.
  LoadedModule &LM;
  DiagnosticHandler &Diags;
  EnzymeJobResult Job;
};

/// Writes Enzyme's output with the manifest (the work directory is kept
/// when that fails).
Expected<RestoreStats> EnzymeJob::writeOutputs(const EnzymeResult &R,
                                               const SanitizeResult &Result) {
  SanitizeOutputs Out = outputs(Result);
  reportDebugInfoForm(Diags, *LM.M, LM.DbgForm);
  Expected<RestoreStats> Stats = writeDifferentiated(R, Result, Out);
  if (!Stats)
    return Stats.takeError();
  reportMissingManifest(Diags, Result, Out);
  return Stats;
}

void EnzymeJob::reportSuccess(const EnzymeResult &R,
                              const RestoreStats &Stats) {
  std::string Line =
      formatv("{0}: Enzyme succeeded in {1:f2} s ({2}); restored {3} stashed "
              "bundles",
              Job.InputName, R.Outcome.Seconds,
              join(differentiatedFunctions(*LM.M), ", "), Stats.Bundles);
  if (Stats.OrphanMarkers)
    Line += formatv("; {0} calls Enzyme copied into derivatives lost their "
                    "stash record and stay without those bundles",
                    Stats.OrphanMarkers)
                .str();
  Diags.progress(Line);
}

Expected<EnzymeJobResult> EnzymeJob::once() {
  Expected<SanitizeResult> Result =
      sanitizeWithWrapper(LM, Req.Sanitize, D, Diags);
  if (!Result)
    return Result.takeError();
  if (Req.WrapperOnly) {
    // The writer refuses bitcode here: it cannot hold the enzyme_* markers.
    SanitizeOutputs Out = outputs(*Result);
    reportDebugInfoForm(Diags, *LM.M, LM.DbgForm);
    if (Error E = writeSanitizeOutputs(*LM.M, *Result, Out))
      return E;
    reportMissingManifest(Diags, *Result, Out);
    return std::move(Job);
  }
  Expected<std::string> WorkDir = createWorkDir("enzyme");
  if (!WorkDir)
    return WorkDir.takeError();
  Job.WorkDir = std::move(*WorkDir);
  ScopedWorkDir Dir(Job.WorkDir, Req.KeepTemps, Diags);
  Expected<EnzymeResult> R = differentiateModule(*LM.M, Job.WorkDir, D);
  if (!R)
    return R.takeError();
  if (!R->ok()) {
    Dir.release(); // The failure's report names it.
    Job.Failure = std::move(*R);
    Job.Code = ExitCode::Findings;
    return std::move(Job);
  }
  Expected<RestoreStats> Stats = writeOutputs(*R, *Result);
  if (!Stats)
    return Stats.takeError();
  reportSuccess(*R, *Stats);
  if (Stats->Lost) {
    Diags.warning(Job.InputName + ": " + Twine(Stats->Lost) +
                  " stashed bundles could not be restored after Enzyme "
                  "(their operand record was lost)");
    Job.Code = ExitCode::Findings;
  }
  return std::move(Job);
}

Expected<EnzymeJobResult> EnzymeJob::triage() {
  Expected<EnzymeSides> Sides = prepareEnzymeSides(LM, Req.Sanitize, D, Diags);
  if (!Sides)
    return Sides.takeError();
  Job.WorkDir = Sides->WorkDir;
  ScopedWorkDir Dir(Job.WorkDir, Req.KeepTemps, Diags);
  Expected<TriageReport> Report = triageModules(
      *Sides->Original, *LM.M, Sides->Result, LM.DisplayName, Job.WorkDir, D);
  if (!Report)
    return Report.takeError();
  if (Error E = nameEnzyme(*Report, *Sides->Original,
                           Req.Sanitize.Config.Policy.Scope, D,
                           Req.ProbeCacheDir, Job.WorkDir))
    return E;
  bool Ok = Report->sanitizedOk();
  if (Ok && Req.Sanitize.Output != "-")
    if (Expected<RestoreStats> Stats =
            writeOutputs(Report->Sanitized, Sides->Result);
        !Stats)
      return Stats.takeError();
  // The logs of a failing run are what the user came for (the report
  // names them).
  if (!Report->Original.ok() || !Ok)
    Dir.release();
  Job.Code = Ok ? ExitCode::Ok : ExitCode::Findings;
  Job.Triage = std::move(*Report);
  return std::move(Job);
}

} // namespace

namespace {

/// The plugin the job would use: located as runDifferentiate does.
Expected<std::string> jobPlugin(const EnzymeRequest &Req) {
  PluginSearch Search;
  Search.Explicit = Req.PluginPath;
  Expected<LocatedPlugin> Found = locateEnzymePlugin(Search);
  if (!Found)
    return Found.takeError();
  return Found->Path;
}

/// Req.Enzyme with the plugin located (unless WrapperOnly, which runs no
/// Enzyme): the job's configuration, for running it or printing its stages.
Expected<DifferentiateConfig> jobConfig(const EnzymeRequest &Req) {
  DifferentiateConfig D = Req.Enzyme;
  if (!Req.WrapperOnly) {
    Expected<std::string> Plugin = jobPlugin(Req);
    if (!Plugin)
      return Plugin.takeError();
    D.PluginPath = *Plugin;
  }
  return D;
}

/// Enzyme on \p From's module (which registers rules, \p ModuleRules), into
/// \p Name.
PipelineStage enzymeStage(StringRef Name, StringRef From,
                          const DifferentiateConfig &D, bool ModuleRules) {
  EnzymeInvocation Inv;
  Inv.PluginPath = D.PluginPath;
  Inv.ModuleRules = ModuleRules;
  Inv.TextOutput = true;
  Inv.ExtraArgs = D.ExtraOptArgs;
  return {Name.str(), From.str(), enzymeCommandLine(Inv), ""};
}

/// With --triage: the module as given, with its wrapper, through Enzyme.
Error addOriginalStages(std::vector<PipelineStage> &Stages, Module &Original,
                        const DifferentiateConfig &D, StringRef InputName,
                        DiagnosticHandler &Diags) {
  Expected<std::string> Wrapper =
      derivativeWrapperText(Original, D, InputName, nullptr, &Diags);
  if (!Wrapper)
    return Wrapper.takeError();
  if (!Wrapper->empty()) {
    Expected<PipelineStage> S = optStage("original", "INPUT", *Wrapper);
    if (!S)
      return S.takeError();
    Stages.push_back(std::move(*S));
  }
  Stages.push_back(enzymeStage("original.enzyme",
                               Wrapper->empty() ? "INPUT" : "original", D,
                               registersEnzymeRules(Original)));
  Stages.back().Note = "the triage's verdict compares it with enzyme";
  return Error::success();
}

} // namespace

Expected<std::vector<PipelineStage>> enzymeStages(const EnzymeRequest &Req,
                                                  LLVMContext &Ctx,
                                                  DiagnosticHandler &Diags) {
  Expected<LoadedModule> LM = readModule(Req.Sanitize.Input, Ctx);
  if (!LM)
    return LM.takeError();
  Expected<DifferentiateConfig> Config = jobConfig(Req);
  if (!Config)
    return Config.takeError();
  const DifferentiateConfig &D = *Config;
  std::unique_ptr<Module> Original = CloneModule(*LM->M);
  // Run, not printed: the wrapper's activities depend on the splat.
  const SanitizeConfig &C = Req.Sanitize.Config;
  Expected<SanitizeResult> Result = sanitizeModule(*LM->M, C);
  if (!Result)
    return Result.takeError();
  Expected<std::string> Wrapper = derivativeWrapperText(
      *LM->M, D, LM->DisplayName, Result->Manifest.findKernel(D.Fn));
  if (!Wrapper)
    return Wrapper.takeError();
  std::string Text = sanitizePipelineFor(*Original, C); // as it was read
  if (!Wrapper->empty())
    Text += "," + *Wrapper;
  std::vector<PipelineStage> Stages;
  if (Req.Triage)
    if (Error E =
            addOriginalStages(Stages, *Original, D, LM->DisplayName, Diags))
      return E;
  Expected<PipelineStage> Sanitize =
      optStage(Req.WrapperOnly ? "OUTPUT" : "sanitize", "INPUT", Text);
  if (!Sanitize)
    return Sanitize.takeError();
  Stages.push_back(std::move(*Sanitize));
  if (Req.WrapperOnly)
    return Stages;
  Stages.push_back(
      enzymeStage("enzyme", "sanitize", D, registersEnzymeRules(*LM->M)));
  Expected<PipelineStage> Restore =
      optStage("OUTPUT", "enzyme", passname::BundleRestorePass);
  if (!Restore)
    return Restore.takeError();
  Stages.push_back(std::move(*Restore));
  return Stages;
}

Expected<EnzymeJobResult> runDifferentiate(const EnzymeRequest &Req,
                                           LLVMContext &Ctx,
                                           DiagnosticHandler &Diags) {
  JobFiles Files = sanitizeJobFiles(Req.Sanitize);
  Files.Inputs.push_back({"--enzyme-plugin", Req.PluginPath});
  Files.Outputs.push_back({"--enzyme-log", Req.Enzyme.LogPath});
  if (Error E = checkDistinctFiles(Files))
    return E;
  Expected<LoadedModule> LM = readModule(Req.Sanitize.Input, Ctx);
  if (!LM)
    return LM.takeError();
  // Without a plugin only WrapperOnly can do its job; say so before
  // spending time on the module.
  Expected<DifferentiateConfig> D = jobConfig(Req);
  if (!D)
    return D.takeError();
  EnzymeJob Job(Req, *D, *LM, Diags);
  return Req.Triage ? Job.triage() : Job.once();
}

} // namespace irs
