//===- GPUCheck.cpp - Preparing a device derivative check -----------------===//
#include "ir-sanitize/Driver/GPUCheck.h"
#include "GPUCheckStages.h"

#include "ir-sanitize/Support/PathIn.h"
#include "ir-sanitize/Support/ScopedWorkDir.h"

#include "ir-sanitize/Analysis/ArgumentAccess.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/GPU/ArgumentPacking.h"
#include "ir-sanitize/GPU/LaunchBounds.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Support/AtomicDirectory.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/OutputSafety.h"
#include "ir-sanitize/Support/StagedDirectory.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/NVPTXPrepare.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <functional>
#include <memory>

using namespace llvm;

namespace irs {

namespace {

Error usage(const Twine &Msg) { return makeToolError(ExitCode::Usage, Msg); }

/// --gpu-arch names an architecture the PTX table knows, or --ptx-version
/// says which PTX to write.
Error checkArch(const PTXOptions &PTX) {
  if (!PTX.PTXVersion && !minimumPTXVersion(PTX.Arch))
    return usage("--gpu-arch " + PTX.Arch +
                 ": unknown architecture (expected sm_NN, e.g. sm_90, or give "
                 "--ptx-version)");
  return Error::success();
}

/// The kernel \p R names, or the module's only one.
Expected<Function *> selectKernel(Module &M, const GPUCheckRequest &R) {
  SmallVector<Function *> Kernels = findKernels(M);
  const std::vector<std::string> &Wanted = R.Sanitize.Kernels;
  std::string Names;
  for (Function *F : Kernels)
    Names += (Names.empty() ? "" : ", ") + escapeForMessage(F->getName());
  std::string Input = escapeForMessage(R.InputPath);
  if (Wanted.size() > 1)
    return usage("gpu-check checks one kernel; give --kernel once");
  if (Wanted.empty()) {
    if (Kernels.size() == 1)
      return Kernels.front();
    return usage(Input + " defines " + Twine(Kernels.size()) + " kernels" +
                 (Names.empty() ? "" : " (" + Names + ")") +
                 "; name one with --kernel");
  }
  for (Function *F : Kernels)
    if (F->getName() == Wanted.front())
      return F;
  return usage("--kernel " + escapeForMessage(Wanted.front()) +
               ": no such kernel in " + Input +
               " (kernels: " + (Names.empty() ? "none" : Names) + ")");
}

/// Whether \p E (passed through) is Enzyme's failure, whose message names
/// its log in the directory.
bool isFindings(Error &E) {
  bool Findings = false;
  E = handleErrors(std::move(E), [&](std::unique_ptr<ToolError> TE) -> Error {
    Findings = TE->code() == ExitCode::Findings;
    return Error(std::move(TE));
  });
  return Findings;
}

/// The module as given and the checked kernel after sanitising.
struct GPUCheckInput {
  std::unique_ptr<Module> Original; ///< A copy of the module as given.
  /// The bundle normalisation (no splat: Manifest is empty).
  SanitizeResult Sanitized;
  LaunchManifest Splat;           ///< The splat of the checked kernel only.
  std::vector<std::string> Notes; ///< Why the splat left something whole.
  KernelManifest Kernel; ///< The checked kernel, splatted or as it stands.
  std::string Pipeline;  ///< The sanitize pipeline that ran (text).
};

/// The Enzyme a check runs, located once: its plugin, or why there is none.
struct CheckEnzyme {
  std::string Plugin;
  std::string Skipped; ///< Nonempty: the derivative checks cannot run.
};

} // namespace

/// gpu-check runs NVPTX kernels: a module without a triple whose code is
/// NVPTX (a bare `@device_code_llvm` dump) is taken as nvptx64-nvidia-cuda,
/// with a note; one for another target is refused before anything else.
static Error takeAsNVPTX(Module &M, StringRef Input, DiagnosticHandler &Diags) {
  Triple TT = compat::moduleTriple(M);
  if (TT.isNVPTX())
    return Error::success();
  std::string Name = escapeForMessage(Input);
  if (!TT.str().empty() || !looksLikeNVPTX(M))
    return makeToolError(
        ExitCode::BadInput,
        Name + ": not an NVPTX kernel (target '" + escapeForMessage(TT.str()) +
            "'" + (TT.str().empty() ? ", and no NVPTX code in it" : "") +
            "): gpu-check runs kernels for nvptx64-nvidia-cuda");
  compat::setModuleTriple(M, Triple("nvptx64-nvidia-cuda"));
  if (M.getDataLayoutStr().empty())
    M.setDataLayout("e-i64:64-i128:128-v16:16-v32:32-n16:32:64");
  Diags.note(Name + ": no target triple; taken as nvptx64-nvidia-cuda (its "
                    "code is NVPTX)");
  return Error::success();
}

/// \p Spec fits the checked kernel and its launch is proven in bounds
/// (GPU/LaunchBounds.h): what every plan and --print-launch needs.
static Error checkLaunch(const GPUCheckInput &In, const LaunchSpec &Spec,
                         StringRef SpecName) {
  if (Error E = validateSpec(Spec, In.Kernel, SpecName))
    return E;
  return proveLaunchInBounds(*In.Original, In.Kernel.Name, Spec, SpecName);
}

static Expected<GPUCheckInput> sanitizeForGPUCheck(Module &M,
                                                   const GPUCheckRequest &R) {
  Expected<Function *> Kernel = selectKernel(M, R);
  if (!Kernel)
    return Kernel.takeError();
  std::string Name = (*Kernel)->getName().str();
  GPUCheckInput In;
  In.Original = CloneModule(M);
  // One pipeline: the bundles, then the splat of the checked kernel only.
  SanitizeConfig Checked = R.Sanitize;
  Checked.Kernels = {Name};
  In.Pipeline = sanitizePipelineFor(M, Checked);
  Expected<SanitizeResult> Sanitized = sanitizeModule(M, Checked);
  if (!Sanitized)
    return Sanitized.takeError();
  In.Splat = std::move(Sanitized->Manifest);
  In.Notes = std::move(Sanitized->Notes);
  In.Sanitized = std::move(*Sanitized);
  In.Sanitized.Splat = false; // the summary speaks of the bundles only
  In.Sanitized.Manifest = {};
  In.Sanitized.Notes.clear();
  if (const KernelManifest *K = In.Splat.findKernel(Name))
    In.Kernel = *K;
  else // --no-splat, or nothing to splat
    In.Kernel = describeUnsplattedKernel(*M.getFunction(Name));
  return In;
}

/// The one plugin lookup of a check: when \p Spec asks for derivatives,
/// the Enzyme plugin \p Explicit names or the search finds, or why there is
/// none (the primal check still runs; the derivative checks are reported
/// SKIPPED with the reason).
static CheckEnzyme locatePluginFor(const LaunchSpec &Spec, StringRef Explicit) {
  CheckEnzyme E;
  if (!Spec.DerivativeChecks)
    return E;
  PluginSearch Search;
  Search.Explicit = Explicit.str();
  Expected<LocatedPlugin> Plugin = locateEnzymePlugin(Search);
  if (Plugin)
    E.Plugin = Plugin->Path;
  else
    E.Skipped = toString(Plugin.takeError());
  return E;
}

/// What buildGPUCheck made: the directory, and why the derivative checks
/// are skipped (no Enzyme plugin) if they are.
struct BuiltCheck {
  std::string Dir;
  std::string SkippedDerivatives;
};

/// Checks \p Spec (named \p SpecName in messages) against the kernel,
/// locates Enzyme (when the spec asks for derivatives) and writes the
/// directory: manifest.json, then everything prepareGPUCheck writes. \p In
/// and \p Sanitized are consumed.
static Expected<BuiltCheck> buildGPUCheck(GPUCheckInput &In, Module &Sanitized,
                                          const LaunchSpec &Spec,
                                          StringRef SpecName,
                                          const GPUCheckRequest &R,
                                          DiagnosticHandler &Diags) {
  GPUCheckOptions G = R.Options;
  G.Diags = &Diags;
  if (Error E = checkArch(G.PTX))
    return E;
  if (Error E = checkLaunch(In, Spec, SpecName))
    return E;
  CheckEnzyme Enzyme = locatePluginFor(Spec, R.PluginPath);
  G.EnzymePlugin = Enzyme.Plugin;
  StagedDirectoryRequest Staged;
  Staged.Requested = R.EmitDir;
  Staged.TempPrefix = "ir-sanitize-gpu-check";
  Staged.Force = R.Force;
  Staged.Flag = "--emit-dir";
  Staged.Diags = G.Diags;
  Staged.KeepOnFailure = isFindings; // Enzyme failed: keep what it names.
  Expected<std::string> Dir = buildStagedDirectory(
      Staged, [&](StringRef Into, StringRef Shown) -> Error {
        GPUCheckOptions InDir = G;
        InDir.EmitDir = Into.str();
        InDir.ShownDir = Shown.str();
        LaunchManifest LM;
        LM.Triple = Triple(Sanitized.getTargetTriple()).str();
        LM.DataLayout = Sanitized.getDataLayoutStr();
        LM.Kernels.push_back(In.Kernel);
        if (Error E = LM.writeFile(pathIn(Into, plan::file::Manifest)))
          return E;
        if (Error E = writeFileAtomically(
                pathIn(Into, plan::file::Spec),
                [&](raw_ostream &OS) { Spec.printFile(OS); }))
          return E;
        return prepareGPUCheck(*In.Original, Sanitized, In.Kernel, Spec, InDir,
                               Enzyme.Skipped)
            .takeError();
      });
  if (!Dir)
    return Dir.takeError();
  if (!R.ManifestPath.empty())
    if (Error E = In.Splat.writeFile(R.ManifestPath))
      return E;
  return BuiltCheck{*Dir, Enzyme.Skipped};
}

/// What --print-pipeline-passes shows: the sanitize pipeline (it ran when
/// the input was read: the kernel's manifest decides the rest), then the
/// check's stages as prepareGPUCheck runs them.
static Expected<std::vector<PipelineStage>>
gpuCheckStages(const GPUCheckInput &In, Module &Sanitized,
               const LaunchSpec &Spec, const GPUCheckRequest &R) {
  GPUCheckOptions G = R.Options;
  if (Error E = checkArch(G.PTX))
    return E;
  Expected<PipelineStage> Sanitize =
      optStage("sanitize", "INPUT", In.Pipeline, "in memory; -S writes it");
  if (!Sanitize)
    return Sanitize.takeError();
  // The stages name the plugin file they would load where none is found.
  CheckEnzyme Enzyme = locatePluginFor(Spec, R.PluginPath);
  G.EnzymePlugin = Enzyme.Skipped.empty()
                       ? Enzyme.Plugin
                       : enzymePluginFileName(hostLLVMMajor());
  auto Stages =
      shownCheckStages(Sanitized, In.Kernel, Spec, Spec.DerivativeChecks, G);
  if (!Stages)
    return Stages.takeError();
  Stages->insert(Stages->begin(), std::move(*Sanitize));
  return Stages;
}

static std::optional<int> runGPUChecks(StringRef Runner, StringRef Dir,
                                       unsigned Repeats, StringRef ReportPath) {
  // Children of ours, so that they and what they start end with this job.
  Expected<ChildOutcome> Probe =
      runChild(Runner, {"--probe"}, "/dev/null", /*TimeoutSeconds=*/0);
  if (!Probe || !Probe->succeeded()) {
    consumeError(Probe.takeError());
    return std::nullopt;
  }
  std::vector<std::string> Args = {Dir.str(), "--repeats",
                                   std::to_string(Repeats)};
  if (!ReportPath.empty())
    Args.insert(Args.end(), {"--report", ReportPath.str()});
  Expected<ChildOutcome> Run = runChild(Runner, Args, "", 0);
  if (!Run) {
    consumeError(Run.takeError());
    return std::nullopt;
  }
  // A runner killed by a signal: the status a shell would show.
  return Run->How == ChildOutcome::Kind::Exited ? Run->ExitCode
                                                : 128 + Run->Signal;
}

namespace {

/// Why the checks did not run, or their exit code.
void runOnDevice(const GPUCheckRequest &R, GPUCheckResult &Result) {
  if (!R.NoRun && !R.RunnerPath.empty())
    if ((Result.RunnerExit =
             runGPUChecks(R.RunnerPath, Result.Dir, R.Repeats, R.ReportPath)))
      return;
  Result.NotRun = R.NoRun                ? "--no-run given"
                  : R.RunnerPath.empty() ? "ir-sanitize-gpurun was not built "
                                           "here"
                                         : "no usable CUDA device here";
}

} // namespace

namespace {

/// The files of \p R: the directory's (the header lists them) are outputs
/// that --manifest and --report must not name.
JobFiles gpuCheckFiles(const GPUCheckRequest &R) {
  JobFiles Files;
  Files.ModuleInput = {"the input", R.InputPath};
  Files.Inputs = {{"--spec", R.SpecPath}, {"--enzyme-plugin", R.PluginPath}};
  const std::string &Dir = R.EmitDir;
  if (!Dir.empty()) {
    for (const char *Name : plan::file::All)
      Files.Outputs.push_back({"--emit-dir", pathIn(Dir, Name), Dir});
    Files.OutputDirs.push_back({"--emit-dir", Dir});
  }
  Files.Outputs.push_back({"--manifest", R.ManifestPath});
  Files.Outputs.push_back({"--write-spec", R.WriteSpecPath});
  Files.Outputs.push_back({"--report", R.ReportPath});
  return Files;
}

} // namespace

/// The launch for the checked kernel of \p In as given, inferred on an
/// optimised copy: inlined and its aggregates scalarised, the accesses are
/// visible. (Not the PTX pipeline: that may rename the kernel.)
static Expected<InferredLaunch> inferGPULaunch(const GPUCheckInput &In,
                                               const GPUCheckRequest &R) {
  std::unique_ptr<Module> Copy = CloneModule(*In.Original);
  // An array handed whole to a noinline helper is typed by the helper's
  // loads and stores: inlined, they are the kernel's.
  if (Function *K = kernelIn(*Copy, In.Kernel.Name))
    inlineHelpersOf(*Copy, *K);
  if (Error E = runPipeline(*Copy, "default<O2>"))
    return E;
  Function *Kernel = kernelIn(*Copy, In.Kernel.Name);
  if (!Kernel)
    return makeToolError(ExitCode::BadInput,
                         escapeForMessage(R.InputPath) + ": kernel " +
                             escapeForMessage(In.Kernel.Name) +
                             " did not survive optimisation");
  return inferLaunch(*Kernel, R.Launch, R.InputPath);
}

/// The spec \p R gives, or the one inferred for \p In (kept in \p Result).
static Expected<LaunchSpec> launchSpecFor(const GPUCheckRequest &R,
                                          const GPUCheckInput &In,
                                          std::optional<LaunchSpec> Given,
                                          GPUCheckResult &Result,
                                          DiagnosticHandler &Diags) {
  if (Given)
    return std::move(*Given);
  Expected<InferredLaunch> Launch = inferGPULaunch(In, R);
  if (!Launch)
    return Launch.takeError();
  if (!R.PrintStages) // --print-launch shows them: they qualify its table
    for (const std::string &Note : Launch->Notes)
      Diags.note(escapeForMessage(R.InputPath) + ": " + Note);
  LaunchSpec Spec = Launch->Spec;
  Result.Launch = std::move(*Launch);
  return Spec;
}

Expected<GPUCheckResult> runGPUCheck(const GPUCheckRequest &R,
                                     DiagnosticHandler &Diags) {
  if (!R.PrintStages && !R.PrintLaunch)
    if (Error E = checkDistinctFiles(gpuCheckFiles(R)))
      return E;
  std::optional<LaunchSpec> Given;
  if (!R.SpecPath.empty()) {
    Expected<LaunchSpec> Read = LaunchSpec::readFile(R.SpecPath);
    if (!Read)
      return Read.takeError();
    Given = std::move(*Read);
  }
  LLVMContext Ctx;
  Expected<LoadedModule> In = readModule(R.InputPath, Ctx);
  if (!In)
    return In.takeError();
  if (Error E = takeAsNVPTX(*In->M, R.InputPath, Diags))
    return E;
  Expected<GPUCheckInput> Checked = sanitizeForGPUCheck(*In->M, R);
  if (!Checked)
    return Checked.takeError();
  GPUCheckResult Result;
  Expected<LaunchSpec> Spec =
      launchSpecFor(R, *Checked, std::move(Given), Result, Diags);
  if (!Spec)
    return Spec.takeError();
  std::string SpecName =
      R.SpecPath.empty() ? R.InputPath + " (inferred launch)" : R.SpecPath;
  if (R.PrintLaunch) {
    if (Error E = checkLaunch(*Checked, *Spec, SpecName))
      Result.LaunchRefusal = asToolError(std::move(E), ExitCode::BadInput);
    return Result;
  }
  if (R.PrintStages) {
    if (Error E = checkLaunch(*Checked, *Spec, SpecName))
      return E;
    auto Stages = gpuCheckStages(*Checked, *In->M, *Spec, R);
    if (!Stages)
      return Stages.takeError();
    Result.Stages = std::move(*Stages);
    return Result;
  }
  if (!R.WriteSpecPath.empty())
    if (Error E = writeFileAtomically(
            R.WriteSpecPath, [&](raw_ostream &OS) { Spec->printFile(OS); }))
      return E;
  Diags.note(In->DisplayName + ": " + Checked->Sanitized.summary());
  for (const std::string &Note : Checked->Notes)
    Diags.note(Note);
  Expected<BuiltCheck> Built =
      buildGPUCheck(*Checked, *In->M, *Spec, SpecName, R, Diags);
  if (!Built)
    return Built.takeError();
  if (!Built->SkippedDerivatives.empty())
    Diags.warning("SKIPPED forward and reverse checks (" +
                  Built->SkippedDerivatives + "); checking the primal only");
  Result.Dir = Built->Dir;
  runOnDevice(R, Result);
  return Result;
}

} // namespace irs
