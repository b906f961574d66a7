//===- GPUCheck.cpp - Preparing a device derivative check -----------------===//
#include "ir-sanitize/Driver/GPUCheck.h"

#include "PathIn.h"
#include "ScopedWorkDir.h"

#include "ir-sanitize/Analysis/ArgumentAccess.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Enzyme/DerivativeWrapper.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/GPU/ArgumentPacking.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Support/AnalysisManagers.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/Messages.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/OutputSafety.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/NVPTXPrepare.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs {

namespace {

void progress(const GPUCheckOptions &Opts, const Twine &Line) {
  orIgnore(Opts.Diags).progress(Line);
}

/// \p File of the directory as messages name it: where it will be.
std::string shownPath(const GPUCheckOptions &Opts, StringRef File) {
  return pathIn(Opts.ShownDir.empty() ? Opts.EmitDir : Opts.ShownDir, File);
}

Function *kernelIn(Module &M, StringRef Name) {
  Function *F = M.getFunction(Name);
  return F && !F->isDeclaration() ? F : nullptr;
}

/// Compiles \p M to DIR/FILE; returns the PTX entry name of \p Entry.
/// A kernel of the module being compiled and its launch's parameters.
struct PlannedParams {
  std::string Kernel; ///< PTX-safe name.
  std::vector<ParamImage> *Params;
  /// Set to the entry of the kernel's grid-stride version when code
  /// generation added one.
  std::optional<std::string> *GridStride = nullptr;
};

/// Records in each relocation of \p Params how the optimised \p Kernel
/// accesses that memory, where the analysis can tell: the runner counts the
/// kernel's traffic from it.
void recordAccess(std::vector<ParamImage> &Params, const Function &Kernel) {
  std::vector<ArgumentAccess> Access = analyzeArgumentAccess(Kernel);
  for (size_t I = 0; I < Params.size() && I < Access.size(); ++I)
    for (AddressReloc &R : Params[I].Relocs)
      R.Access = Access[I].at(R.Offset);
}

/// Records the grid-stride version GridStrideCoarsening added for
/// \p Kernel: its parameters are \p Kernel's and the x block count.
void recordGridStride(const PlannedParams &K, const Function &Kernel) {
  const Function *Strided =
      Kernel.getParent()->getFunction(gridStrideName(Kernel.getName()));
  std::optional<unsigned> Index =
      Strided ? gridStrideParam(*Strided) : std::nullopt;
  if (K.GridStride && Index && *Index == K.Params->size())
    *K.GridStride = Strided->getName().str();
}

/// Compiles \p M to \p File in the emit directory, recording access in the
/// parameters of \p Kernels (Entry's among them by the returned PTX name).
Expected<std::string> compileTo(Module &M, StringRef Entry, StringRef File,
                                const GPUCheckOptions &Opts, PTXOptions PTXOpts,
                                std::vector<PlannedParams> Kernels) {
  if (!kernelIn(M, Entry))
    return makeToolError(ExitCode::BadInput,
                         "no kernel named '" + Entry + "' to compile");
  std::string PTXName = ptxSafeName(Entry);
  if (!is_contained(PTXOpts.Kernels, Entry))
    PTXOpts.Kernels.push_back(Entry.str());
  for (PlannedParams &K : Kernels)
    if (K.Kernel.empty())
      K.Kernel = PTXName;
  if (Error E = optimizeForPTX(M, PTXOpts))
    return E;
  // Code generation rewrites kernel parameters: what the PTX is made from
  // is the module as it stands now.
  for (const PlannedParams &K : Kernels)
    if (const Function *Kernel = M.getFunction(K.Kernel)) {
      recordGridStride(K, *Kernel);
      recordAccess(*K.Params, *Kernel);
    }
  Expected<std::string> PTX = compilePTX(M, PTXOpts);
  if (!PTX)
    return PTX.takeError();
  std::string Path = pathIn(Opts.EmitDir, File);
  if (Error E = writeFileAtomically(Path, [&](raw_ostream &OS) { OS << *PTX; }))
    return E;
  progress(Opts, "wrote " + shownPath(Opts, File) + " (" +
                     Twine(PTX->size() / 1024) + " KB, " + Opts.PTX.Arch + ")");
  return PTXName;
}

ActivityMap activitiesFor(const Function &Kernel, const KernelManifest &K,
                          const LaunchSpec &Spec) {
  ActivityMap A(Kernel.arg_size(), Activity::Const);
  for (const ManifestParam &P : K.Params)
    if (P.Index < A.size() && isDupLeaf(Spec, P))
      A[P.Index] = Activity::Dup;
  return A;
}

/// \p A with the output-only leaves `dupnoneed`: Enzyme may then leave the
/// primal results unwritten (a gradient-only launch).
ActivityMap withoutPrimalOutputs(ActivityMap A, const KernelManifest &K,
                                 const LaunchSpec &Spec) {
  for (const ManifestParam &P : K.Params)
    if (P.Index < A.size() && A[P.Index] == Activity::Dup &&
        isOutputOnlyLeaf(Spec, P))
      A[P.Index] = Activity::DupNoNeed;
  return A;
}

/// The splat rebuilds each aggregate from its leaves at entry; Enzyme's
/// activity analysis cannot see through that insertvalue/extractvalue (or
/// alloca) round trip and takes a const array's loads for active ones when
/// the aggregate also holds an active pointer. Folding it away first gives
/// Enzyme each leaf directly; nothing here changes floating-point results.
/// Then the arguments Enzyme differentiates that CUDAnative passed as i64
/// become pointers (IntegerPointerArguments), and the forward and reverse
/// drivers Enzyme differentiates through go in (AddDerivativeWrapper).
std::string enzymeInputPipeline(StringRef Kernel, const ActivityMap &A,
                                const ActivityMap &Reverse) {
  std::string Text =
      EnzymeCleanupPipeline.str() +
      ",ir-sanitize-integer-pointer-args<kernel=" + escapePassParameter(Kernel);
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I] == Activity::Dup)
      Text += ";arg=" + std::to_string(I);
  return Text + ">," + derivativeWrapperPipeline(Kernel, DiffMode::Forward, A) +
         "," + derivativeWrapperPipeline(Kernel, DiffMode::Reverse, Reverse);
}

/// The reverse driver's activities: \p A, or with DropPrimalOutputs the
/// output-only leaves dupnoneed.
ActivityMap reverseActivities(const ActivityMap &A, const KernelManifest &K,
                              const LaunchSpec &Spec,
                              const GPUCheckOptions &Opts) {
  return Opts.DropPrimalOutputs ? withoutPrimalOutputs(A, K, Spec) : A;
}

std::vector<DriverArg> driverArgsOf(const DerivativeWrapper &G) {
  std::vector<DriverArg> Args;
  for (const WrapperParam &P : G.Params)
    Args.push_back({P.PrimalIndex, P.IsShadow});
  return Args;
}

/// Runs Enzyme on \p M (with drivers) in a child opt; returns its output.
Expected<std::unique_ptr<Module>> runEnzymeOn(Module &M,
                                              const GPUCheckOptions &Opts) {
  EnzymeInvocation Inv;
  Inv.InputPath = pathIn(Opts.EmitDir, "derivatives.input.ll");
  Inv.OutputPath = pathIn(Opts.EmitDir, "derivatives.enzyme.ll");
  Inv.LogPath = pathIn(Opts.EmitDir, "enzyme.log");
  Inv.PluginPath = Opts.EnzymePlugin;
  Inv.TimeoutSeconds = Opts.EnzymeTimeoutSeconds;
  Inv.TextOutput = true;
  if (Error E =
          writeModule(M, Inv.InputPath, IRFormat::Text, DebugInfoForm::Records))
    return E;
  Expected<EnzymeResult> R = runEnzyme(Inv);
  if (!R)
    return R.takeError();
  if (!R->ok()) {
    attributeToFunction(*R, M);
    return makeToolError(ExitCode::Findings, "Enzyme " + R->summary() +
                                                 " (log: " + Inv.LogPath + ")");
  }
  progress(Opts, "Enzyme differentiated " + M.getName() + " -> " +
                     shownPath(Opts, "derivatives.enzyme.ll"));
  Expected<LoadedModule> Out = readModule(Inv.OutputPath, M.getContext());
  if (!Out)
    return Out.takeError();
  return std::move(Out->M);
}

struct DerivativeKernels {
  std::string Forward, Reverse; ///< PTX entry names.
  std::vector<ParamImage> FwdParams, RevParams;
  std::optional<std::string> FwdGridStride, RevGridStride;
};

Expected<DerivativeKernels> buildDerivatives(Module &M, StringRef Kernel,
                                             const KernelManifest &K,
                                             const LaunchSpec &Spec,
                                             ArrayRef<ParamImage> Splat,
                                             const GPUCheckOptions &Opts) {
  Function *F = kernelIn(M, Kernel);
  if (!F)
    return makeToolError(ExitCode::BadInput,
                         "no kernel named '" + Kernel + "'");
  ActivityMap A = activitiesFor(*F, K, Spec);
  std::vector<DerivativeWrapper> Wrappers; // forward, reverse
  Error Failure = Error::success();
  PassSinks Sinks;
  Sinks.DerivativeWrappers = {&Wrappers, &Failure};
  if (Error E = runPipeline(
          M,
          enzymeInputPipeline(Kernel, A, reverseActivities(A, K, Spec, Opts)),
          Sinks)) {
    consumeError(std::move(Failure));
    return E;
  }
  if (Failure)
    return Failure;
  const DerivativeWrapper &Fwd = Wrappers.at(0), &Rev = Wrappers.at(1);
  DerivativeKernels D{Fwd.Wrapper->getName().str(),
                      Rev.Wrapper->getName().str(),
                      driverArgs(Splat, driverArgsOf(Fwd)),
                      driverArgs(Splat, driverArgsOf(Rev)),
                      std::nullopt,
                      std::nullopt};
  auto Diff = runEnzymeOn(M, Opts);
  if (!Diff)
    return Diff.takeError();
  Function *FwdFn = kernelIn(**Diff, D.Forward);
  Function *RevFn = kernelIn(**Diff, D.Reverse);
  if (!FwdFn || !RevFn)
    return makeToolError(ExitCode::Findings,
                         "Enzyme's output lacks the derivative drivers");
  PTXOptions PTXOpts = Opts.PTX;
  std::string Entry = D.Forward;
  PTXOpts.Kernels = {D.Forward, D.Reverse};
  D.Forward = ptxSafeName(D.Forward);
  D.Reverse = ptxSafeName(D.Reverse);
  PTXOpts.SinkStores = Opts.SinkDerivativeStores;
  PTXOpts.MergeAccumulations = Opts.MergeAccumulations;
  PTXOpts.GridStride = Opts.GridStride;
  auto PTX = compileTo(**Diff, Entry, "derivatives.ptx", Opts, PTXOpts,
                       {{D.Forward, &D.FwdParams, &D.FwdGridStride},
                        {D.Reverse, &D.RevParams, &D.RevGridStride}});
  if (!PTX)
    return PTX.takeError();
  return D;
}

} // namespace

Expected<RunPlan> prepareGPUCheck(Module &Original, Module &Splatted,
                                  const KernelManifest &Manifest,
                                  const LaunchSpec &Spec,
                                  const GPUCheckOptions &Opts) {
  RunPlan Plan;
  Plan.Kernel = Manifest.Name;
  Plan.Spec = Spec;
  Plan.Settings = checkSettings(Spec);
  if (Spec.DerivativeChecks && !Opts.SkipDerivatives.empty()) {
    Plan.Spec.DerivativeChecks = false;
    Plan.DerivativesSkipped = Opts.SkipDerivatives;
  }
  std::vector<ParamImage> Orig = packOriginalArgs(Manifest, Spec);
  std::vector<ParamImage> Splat = sliceSplatArgs(Manifest, Orig);

  // Enzyme needs the splatted module before codegen optimises it.
  std::unique_ptr<Module> ForDerivatives;
  if (Plan.Spec.DerivativeChecks)
    ForDerivatives = CloneModule(Splatted);

  std::vector<ParamImage> OrigParams = Orig, SplatParams = Splat;
  auto OrigName = compileTo(Original, Manifest.Name, "original.ptx", Opts,
                            Opts.PTX, {{"", &OrigParams}});
  if (!OrigName)
    return OrigName.takeError();
  Plan.Kernels.push_back({KernelRole::Original, "original.ptx", *OrigName,
                          OrigParams, std::nullopt});
  auto SplatName = compileTo(Splatted, Manifest.Name, "splat.ptx", Opts,
                             Opts.PTX, {{"", &SplatParams}});
  if (!SplatName)
    return SplatName.takeError();
  Plan.Kernels.push_back(
      {KernelRole::Splat, "splat.ptx", *SplatName, SplatParams, std::nullopt});

  if (ForDerivatives) {
    auto D = buildDerivatives(*ForDerivatives, Manifest.Name, Manifest, Spec,
                              Splat, Opts);
    if (!D)
      return D.takeError();
    Plan.Kernels.push_back({KernelRole::Forward, "derivatives.ptx", D->Forward,
                            std::move(D->FwdParams), D->FwdGridStride});
    Plan.Kernels.push_back({KernelRole::Reverse, "derivatives.ptx", D->Reverse,
                            std::move(D->RevParams), D->RevGridStride,
                            Opts.DropPrimalOutputs});
  }
  if (Error E = writeRunPlan(Plan, Opts.EmitDir))
    return E;
  progress(Opts, "wrote " + shownPath(Opts, "plan.json"));
  return Plan;
}

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

/// The kernel \p Config names, or the module's only one.
Expected<Function *> selectKernel(Module &M, const GPUCheckConfig &Config) {
  SmallVector<Function *> Kernels = findKernels(M);
  const std::vector<std::string> &Wanted = Config.Sanitize.Kernels;
  std::string Names;
  for (Function *F : Kernels)
    Names += (Names.empty() ? "" : ", ") + escapeForMessage(F->getName());
  std::string Input = escapeForMessage(Config.InputName);
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

Error cannotCreate(const Twine &Dir, const Twine &Why) {
  return makeToolError(ExitCode::OutputError, Dir + ": cannot create: " + Why);
}

bool isEmptyDir(StringRef Dir) {
  std::error_code EC;
  sys::fs::directory_iterator It(Dir, EC), End;
  return !EC && It == End;
}

/// A new directory beside \p Final: `.NAME.irs-PID-XXXXXX`.
Expected<std::string> createBeside(StringRef Final, StringRef Tag) {
  SmallString<256> Model(sys::path::parent_path(Final));
  if (Model.empty())
    Model = ".";
  if (std::error_code EC = sys::fs::create_directories(Model))
    return cannotCreate(escapeForMessage(Final), EC.message());
  // createUniqueDirectory puts a relative model under the temporary
  // directory, not beside Final.
  if (std::error_code EC = sys::fs::make_absolute(Model))
    return cannotCreate(escapeForMessage(Final), EC.message());
  sys::path::append(Model, "." + sys::path::filename(Final) + "." + Tag +
                               std::to_string(sys::Process::getProcessId()));
  SmallString<256> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Dir))
    return cannotCreate(escapeForMessage(Final), EC.message());
  return std::string(Dir);
}

/// Where a requested plan directory is built: checks that \p Final may be
/// replaced (missing, empty, or \p Force) and creates a directory beside it.
Expected<std::string> createStagingDir(StringRef Final, bool Force) {
  sys::fs::file_status Status;
  if (!sys::fs::status(Final, Status)) {
    if (!sys::fs::is_directory(Status))
      return cannotCreate(escapeForMessage(Final), "not a directory");
    if (!Force && !isEmptyDir(Final))
      return usage("--emit-dir " + escapeForMessage(Final) +
                   ": not empty (give --force to replace it as a whole, or "
                   "another directory)");
  }
  return createBeside(Final, "irs-");
}

/// Renames the complete \p Staging to \p Final: onto a missing or empty
/// directory directly, else by moving the old one aside first (restored if
/// the new one cannot take its place) and removing it afterwards.
Error commitPlanDir(StringRef Staging, StringRef Final) {
  if (!sys::fs::rename(Staging, Final))
    return Error::success();
  Expected<std::string> Old = createBeside(Final, "irs-old-");
  if (!Old)
    return Old.takeError();
  if (std::error_code EC = sys::fs::rename(Final, *Old)) {
    sys::fs::remove(*Old);
    return cannotCreate(escapeForMessage(Final), EC.message());
  }
  if (std::error_code EC = sys::fs::rename(Staging, Final)) {
    sys::fs::rename(*Old, Final);
    return cannotCreate(escapeForMessage(Final), EC.message());
  }
  sys::fs::remove_directories(*Old);
  return Error::success();
}

/// A new temporary directory (no --emit-dir).
Expected<std::string> createTempPlanDir() {
  SmallString<256> Model, Dir;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  sys::path::append(Model, "ir-sanitize-gpu-check-%%%%%%");
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Dir))
    return makeToolError(ExitCode::OutputError,
                         "cannot create " + Model + ": " + EC.message());
  return std::string(Dir);
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

/// Sets Opts.EmitDir to where \p Write is to write the directory and
/// returns where it is once written: \p Requested (a new temporary directory
/// when empty). A requested directory is built beside its place and renamed
/// there once complete: a failed run leaves the old directory (or none),
/// never old and new files mixed.
Expected<std::string> buildPlanDir(StringRef Requested, bool Force,
                                   GPUCheckOptions &Opts,
                                   function_ref<Error()> Write) {
  std::string Final = Requested.str();
  while (Final.size() > 1 && sys::path::is_separator(Final.back()))
    Final.pop_back();
  Expected<std::string> Dir =
      Final.empty() ? createTempPlanDir() : createStagingDir(Final, Force);
  if (!Dir)
    return Dir.takeError();
  if (Final.empty())
    Final = *Dir;
  std::optional<ScopedWorkDir> Staging; // Removed on failure and signals.
  if (Final != *Dir)
    Staging.emplace(*Dir, /*Keep=*/false, orIgnore(Opts.Diags));
  Opts.EmitDir = *Dir;
  Opts.ShownDir = Final;
  Error E = Write();
  if (!E && Staging)
    E = commitPlanDir(*Dir, Final);
  if (E) {
    if (Staging && isFindings(E)) // Enzyme failed: keep what its message names.
      Staging->release();
    return E;
  }
  if (Staging)
    Staging->release(); // Renamed to Final.
  Opts.EmitDir = Final;
  return Final;
}

} // namespace

Expected<GPUCheckInput> sanitizeForGPUCheck(Module &M,
                                            const GPUCheckConfig &Config) {
  Expected<Function *> Kernel = selectKernel(M, Config);
  if (!Kernel)
    return Kernel.takeError();
  std::string Name = (*Kernel)->getName().str();
  GPUCheckInput In;
  In.Original = CloneModule(M);
  // One pipeline: the bundles, then the splat of the checked kernel only.
  SanitizeConfig Checked = Config.Sanitize;
  Checked.Kernels = {Name};
  In.Pipeline =
      sanitizePipeline(Checked.Policy, Checked.Splat, Checked.Kernels);
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

Expected<std::string> buildGPUCheck(GPUCheckInput &In, Module &Sanitized,
                                    const LaunchSpec &Spec,
                                    GPUCheckBuild &Build) {
  GPUCheckOptions &G = Build.Options;
  if (Error E = checkArch(G.PTX))
    return E;
  if (Error E = validateSpec(Spec, In.Kernel, Build.SpecPath))
    return E;
  if (Spec.DerivativeChecks) {
    PluginSearch Search;
    Search.Explicit = Build.PluginPath;
    // Without Enzyme the primal check still runs; the derivative checks are
    // reported SKIPPED with the reason.
    Expected<LocatedPlugin> Plugin = locateEnzymePlugin(Search);
    if (Plugin)
      G.EnzymePlugin = Plugin->Path;
    else
      G.SkipDerivatives = toString(Plugin.takeError());
  }
  Expected<std::string> Dir =
      buildPlanDir(Build.EmitDir, Build.Force, G, [&]() -> Error {
        LaunchManifest LM;
        LM.Triple = Triple(Sanitized.getTargetTriple()).str();
        LM.DataLayout = Sanitized.getDataLayoutStr();
        LM.Kernels.push_back(In.Kernel);
        if (Error E = LM.writeFile(pathIn(G.EmitDir, "manifest.json")))
          return E;
        return prepareGPUCheck(*In.Original, Sanitized, In.Kernel, Spec, G)
            .takeError();
      });
  if (!Dir)
    return Dir.takeError();
  if (!Build.ManifestPath.empty())
    if (Error E = In.Splat.writeFile(Build.ManifestPath))
      return E;
  return *Dir;
}

namespace {

/// "-mcpu=sm_90 -mattr=+ptx78": the target machine optimizeForPTX uses.
std::string targetArgs(const PTXOptions &Opts) {
  unsigned PTX = Opts.PTXVersion ? Opts.PTXVersion
                                 : minimumPTXVersion(Opts.Arch).value_or(0);
  return "-mcpu=" + Opts.Arch + " -mattr=+ptx" + std::to_string(PTX);
}

/// The PTX stage of \p Opts: opt, then llc as compilePTX generates code.
std::string ptxCommand(const PTXOptions &Opts) {
  std::string Target = targetArgs(Opts);
  return "opt " + Target + " " + "-passes='" + ptxPipeline(Opts) + "'" +
         " | llc " + Target + " -asm-verbose=false";
}

/// opt's arguments for Enzyme (EnzymeRunner), less its input and output.
std::string enzymeCommand(StringRef Plugin) {
  EnzymeInvocation Inv;
  Inv.InputPath = "derivatives.input.ll";
  Inv.OutputPath = "derivatives.enzyme.ll";
  Inv.PluginPath = Plugin.str();
  Inv.TextOutput = true;
  std::string Command = "opt";
  std::vector<std::string> Args = enzymeOptArgs(Inv);
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-o")
      ++I;
    else if (Args[I] != Inv.InputPath)
      Command += " " + Args[I];
  }
  return Command;
}

} // namespace

std::string GPUCheckStage::str() const {
  std::string Line = Output + ": " + Input + " | " + Command;
  return Note.empty() ? Line : Line + "  # " + Note;
}

Expected<std::vector<GPUCheckStage>>
gpuCheckStages(const GPUCheckInput &In, Module &Sanitized,
               const LaunchSpec &Spec, const GPUCheckBuild &Build) {
  const GPUCheckOptions &G = Build.Options;
  if (Error E = checkArch(G.PTX))
    return E;
  const std::string &Kernel = In.Kernel.Name;
  std::vector<GPUCheckStage> Stages;
  Stages.push_back({"sanitize", "INPUT", "opt -passes='" + In.Pipeline + "'",
                    "in memory; -S writes it"});
  PTXOptions PTX = G.PTX;
  PTX.Kernels = {Kernel};
  Stages.push_back({"original.ptx", "INPUT", ptxCommand(PTX), ""});
  Stages.push_back({"splat.ptx", "sanitize", ptxCommand(PTX), ""});
  if (!Spec.DerivativeChecks)
    return Stages;
  Function *F = kernelIn(Sanitized, Kernel);
  if (!F)
    return makeToolError(ExitCode::BadInput,
                         "no kernel named '" + Kernel + "'");
  ActivityMap A = activitiesFor(*F, In.Kernel, Spec);
  ActivityMap Reverse = reverseActivities(A, In.Kernel, Spec, G);
  std::string Fwd = wrapperName(Kernel, DiffMode::Forward),
              Rev = wrapperName(Kernel, DiffMode::Reverse);
  Stages.push_back(
      {"derivatives.input.ll", "sanitize",
       "opt -passes='" + enzymeInputPipeline(Kernel, A, Reverse) + "'", ""});
  PluginSearch Search;
  Search.Explicit = Build.PluginPath;
  Expected<LocatedPlugin> Plugin = locateEnzymePlugin(Search);
  std::string PluginPath =
      Plugin ? Plugin->Path
             : "LLVMEnzyme-" + std::to_string(LLVM_VERSION_MAJOR) + ".so";
  if (!Plugin)
    consumeError(Plugin.takeError());
  Stages.push_back({"derivatives.enzyme.ll", "derivatives.input.ll",
                    enzymeCommand(PluginPath), ""});
  PTX.Kernels = {Fwd, Rev};
  PTX.SinkStores = G.SinkDerivativeStores;
  PTX.MergeAccumulations = G.MergeAccumulations;
  PTX.GridStride = G.GridStride;
  Stages.push_back(
      {"derivatives.ptx", "derivatives.enzyme.ll", ptxCommand(PTX), ""});
  return Stages;
}

std::optional<int> runGPUChecks(StringRef Runner, StringRef Dir,
                                unsigned Repeats, StringRef ReportPath) {
  std::optional<StringRef> Quiet[] = {StringRef(""), StringRef(""),
                                      StringRef("")};
  if (sys::ExecuteAndWait(Runner, {Runner, "--probe"}, std::nullopt, Quiet) !=
      0)
    return std::nullopt;
  std::string RepeatsText = std::to_string(Repeats);
  SmallVector<StringRef, 6> Args = {Runner, Dir, "--repeats", RepeatsText};
  if (!ReportPath.empty())
    Args.append({"--report", ReportPath});
  return sys::ExecuteAndWait(Runner, Args);
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
  Files.Inputs = {{"--spec", R.SpecPath},
                  {"--enzyme-plugin", R.Build.PluginPath}};
  const std::string &Dir = R.Build.EmitDir;
  if (!Dir.empty()) {
    for (const char *Name :
         {"manifest.json", "original.ptx", "splat.ptx", "derivatives.ptx",
          "derivatives.input.ll", "derivatives.enzyme.ll", "enzyme.log",
          "plan.json"})
      Files.Outputs.push_back({"--emit-dir", pathIn(Dir, Name)});
    Files.OutputDirs.push_back({"--emit-dir", Dir});
  }
  Files.Outputs.push_back({"--manifest", R.Build.ManifestPath});
  Files.Outputs.push_back({"--report", R.ReportPath});
  return Files;
}

} // namespace

Expected<GPUCheckResult> runGPUCheck(const GPUCheckRequest &R,
                                     DiagnosticHandler &Diags) {
  if (!R.PrintStages)
    if (Error E = checkDistinctFiles(gpuCheckFiles(R)))
      return E;
  Expected<LaunchSpec> Spec = LaunchSpec::readFile(R.SpecPath);
  if (!Spec)
    return Spec.takeError();
  LLVMContext Ctx;
  Expected<LoadedModule> In = readModule(R.InputPath, Ctx);
  if (!In)
    return In.takeError();
  GPUCheckConfig Config;
  Config.Sanitize = R.Sanitize;
  Config.InputName = R.InputPath;
  Expected<GPUCheckInput> Checked = sanitizeForGPUCheck(*In->M, Config);
  if (!Checked)
    return Checked.takeError();
  GPUCheckResult Result;
  GPUCheckBuild Build = R.Build;
  Build.SpecPath = R.SpecPath;
  if (R.PrintStages) {
    auto Stages = gpuCheckStages(*Checked, *In->M, *Spec, Build);
    if (!Stages)
      return Stages.takeError();
    Result.Stages = std::move(*Stages);
    return Result;
  }
  Diags.note(In->DisplayName + ": " + Checked->Sanitized.summary());
  for (const std::string &Note : Checked->Notes)
    Diags.note(Note);
  Build.Options.Diags = &Diags;
  Expected<std::string> Dir = buildGPUCheck(*Checked, *In->M, *Spec, Build);
  if (!Dir)
    return Dir.takeError();
  if (!Build.Options.SkipDerivatives.empty())
    Diags.warning("SKIPPED forward and reverse checks (" +
                  Build.Options.SkipDerivatives +
                  "); checking the primal only");
  Result.Dir = *Dir;
  runOnDevice(R, Result);
  return Result;
}

} // namespace irs
