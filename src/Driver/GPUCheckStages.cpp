//===- GPUCheckStages.cpp - The stages of a device derivative check -------===//
//
// What gpu-check does after the sanitize pipeline, as one list of stages
// (original.ptx, splat.ptx, the Enzyme input, Enzyme, derivatives.ptx): each
// with the command that replays it and the code that runs it here, so that
// --print-pipeline-passes prints exactly what prepareGPUCheck runs.
//
//===----------------------------------------------------------------------===//
#include "GPUCheckStages.h"

#include "ir-sanitize/Support/PathIn.h"
#include "ir-sanitize/Support/ScopedWorkDir.h"

#include "ir-sanitize/Analysis/ArgumentAccess.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Analysis/KernelLayout.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/GPU/ArgumentPacking.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Support/AtomicDirectory.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/OutputSafety.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/NVPTXPrepare.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/SmallSet.h"
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

Function *kernelIn(Module &M, StringRef Name) {
  Function *F = M.getFunction(Name);
  return F && !F->isDeclaration() ? F : nullptr;
}

namespace {

void progress(const GPUCheckOptions &Opts, const Twine &Line) {
  orIgnore(Opts.Diags).progress(Line);
}

/// \p File of the directory as messages name it: where it will be.
std::string shownPath(const GPUCheckOptions &Opts, StringRef File) {
  return pathIn(Opts.ShownDir.empty() ? Opts.EmitDir : Opts.ShownDir, File);
}

/// A kernel of the module being compiled, its launch's parameters, and what
/// code generation made of them.
struct CompiledKernel {
  std::string Kernel; ///< PTX-safe name; empty: the entry compileTo is given.
  std::vector<ParamImage> Params;
  /// The entry of the kernel's grid-stride version, where code generation
  /// added one.
  std::string GridStride; ///< Empty: none.
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
void recordGridStride(CompiledKernel &K, const Function &Kernel) {
  const Function *Strided =
      Kernel.getParent()->getFunction(gridStrideName(Kernel.getName()));
  std::optional<unsigned> Index =
      Strided ? gridStrideParam(*Strided) : std::nullopt;
  if (Index && *Index == K.Params.size())
    K.GridStride = Strided->getName().str();
}

/// Compiles \p M to \p File in the emit directory; returns \p Kernels with
/// the access recorded in their parameters (and, for derivatives, their
/// grid-stride versions).
Expected<std::vector<CompiledKernel>>
compileTo(Module &M, StringRef Entry, StringRef File,
          const GPUCheckOptions &Opts, PTXOptions PTXOpts,
          std::vector<CompiledKernel> Kernels) {
  if (!kernelIn(M, Entry))
    return makeToolError(ExitCode::BadInput,
                         "no kernel named '" + Entry + "' to compile");
  std::string PTXName = ptxSafeName(Entry);
  if (!is_contained(PTXOpts.Kernels, Entry))
    PTXOpts.Kernels.push_back(Entry.str());
  for (CompiledKernel &K : Kernels)
    if (K.Kernel.empty())
      K.Kernel = PTXName;
  if (Error E = optimizeForPTX(M, PTXOpts))
    return E;
  // Code generation rewrites kernel parameters: what the PTX is made from
  // is the module as it stands now.
  for (CompiledKernel &K : Kernels)
    if (const Function *Kernel = M.getFunction(K.Kernel)) {
      if (PTXOpts.Derivatives)
        recordGridStride(K, *Kernel);
      recordAccess(K.Params, *Kernel);
    }
  Expected<std::string> PTX = compilePTX(M, PTXOpts);
  if (!PTX)
    return PTX.takeError();
  std::string Path = pathIn(Opts.EmitDir, File);
  if (Error E = writeFileAtomically(Path, [&](raw_ostream &OS) { OS << *PTX; }))
    return E;
  progress(Opts, "wrote " + shownPath(Opts, File) + " (" +
                     Twine(PTX->size() / 1024) + " KB, " + Opts.PTX.Arch + ")");
  return Kernels;
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

/// The capacity leaf (bytes) of the device array whose address leaf is
/// \p Ptr, where the leaves under its descriptor are laid out as a row of
/// DeviceArrays.def that has one (every field present, the capacity an i64).
std::optional<unsigned> capacityLeaf(const ManifestParam &Ptr,
                                     const KernelManifest &K) {
  if (Ptr.Path.empty())
    return std::nullopt; // a raw pointer: no descriptor
  ArrayRef<unsigned> Desc = ArrayRef<unsigned>(Ptr.Path).drop_back();
  SmallVector<const ManifestParam *, 8> Under;
  SmallVector<unsigned, 8> Fields;
  for (const ManifestParam &P : K.Params)
    if (P.OrigIndex == Ptr.OrigIndex && P.Path.size() > Desc.size() &&
        ArrayRef<unsigned>(P.Path).take_front(Desc.size()) == Desc) {
      Under.push_back(&P);
      Fields.push_back(P.Path[Desc.size()]);
    }
  const DeviceArrayForm *Row =
      arrayFormByFields(Fields, Ptr.Path.back(), /*Wrapped=*/false);
  if (!Row || Row->MaxSize < 0)
    return std::nullopt;
  for (const ManifestParam *P : Under)
    if (P->Path.size() == Desc.size() + 1 &&
        static_cast<int>(P->Path.back()) == Row->MaxSize && !P->Pointer &&
        P->Size == 8)
      return P->Index;
  return std::nullopt;
}

/// ir-sanitize-noalias-version's extent=P:E for each device array of \p K
/// with a capacity: the reverse driver's Enzyme call then differentiates a
/// noalias copy where the arrays are apart (Enzyme reloads what it would
/// cache in device malloc). Empty where a pointer has none.
std::string noAliasVersionPipeline(StringRef Reverse, const KernelManifest &K) {
  std::string Text;
  for (const ManifestParam &P : K.Params)
    if (P.Pointer)
      if (std::optional<unsigned> E = capacityLeaf(P, K))
        Text += ";extent=" + std::to_string(P.Index) + ":" + std::to_string(*E);
  if (Text.empty())
    return "";
  return std::string(",") + passname::NoAliasVersioningPass +
         "<fn=" + escapePassParameter(Reverse) + Text + ">";
}

/// The splat rebuilds each aggregate from its leaves at entry; Enzyme's
/// activity analysis cannot see through that insertvalue/extractvalue (or
/// alloca) round trip and takes a const array's loads for active ones when
/// the aggregate also holds an active pointer. Folding it away first gives
/// Enzyme each leaf directly; nothing here changes floating-point results.
/// Then the arguments that CUDAnative passed as i64 and the launch binds to
/// a buffer become pointers, whatever their activity (IntegerPointerArguments:
/// Enzyme cannot type the inttoptr of a const i64 address either), and the
/// forward and reverse drivers Enzyme differentiates through go in
/// (AddDerivativeWrapper).
std::string enzymeInputPipeline(const KernelManifest &K,
                                ArrayRef<unsigned> Addresses,
                                const ActivityMap &A,
                                const ActivityMap &Reverse) {
  StringRef Kernel = K.Name;
  std::string Text =
      enzymeCleanupPipeline() +
      ",ir-sanitize-integer-pointer-args<kernel=" + escapePassParameter(Kernel);
  for (unsigned I : Addresses)
    Text += ";arg=" + std::to_string(I);
  return Text + ">," + derivativeWrapperPipeline(Kernel, DiffMode::Forward, A) +
         "," + derivativeWrapperPipeline(Kernel, DiffMode::Reverse, Reverse) +
         noAliasVersionPipeline(wrapperName(Kernel, DiffMode::Reverse), K) +
         ",function(" + passname::SharedTileForwardingPass + ")";
}

/// The splatted parameters of \p K the launch binds to a buffer, in order.
std::vector<unsigned> addressParams(const KernelManifest &K,
                                    const LaunchSpec &Spec) {
  std::vector<unsigned> Indices;
  for (const ManifestParam &P : K.Params)
    if (boundBuffer(Spec, P) && !is_contained(Indices, P.Index))
      Indices.push_back(P.Index);
  llvm::sort(Indices);
  return Indices;
}

/// The reverse driver's activities: \p A, or with DropPrimalOutputs the
/// output-only leaves dupnoneed.
ActivityMap reverseActivities(const ActivityMap &A, const KernelManifest &K,
                              const LaunchSpec &Spec,
                              const GPUCheckOptions &Opts) {
  return Opts.DropPrimalOutputs ? withoutPrimalOutputs(A, K, Spec) : A;
}

std::vector<WrapperArg> wrapperArgsOf(const DerivativeWrapper &G) {
  std::vector<WrapperArg> Args;
  for (const WrapperParam &P : G.Params)
    Args.push_back({P.PrimalIndex, P.IsShadow});
  return Args;
}

/// Runs Enzyme on \p M (with drivers) in a child opt; returns its output.
Expected<std::unique_ptr<Module>> runEnzymeOn(Module &M,
                                              const EnzymeInvocation &Inv,
                                              const GPUCheckOptions &Opts) {
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
                     shownPath(Opts, plan::file::EnzymeOutput));
  Expected<LoadedModule> Out = readModule(Inv.OutputPath, M.getContext());
  if (!Out)
    return Out.takeError();
  return std::move(Out->M);
}

/// What the derivative stages run (derivatives.input.ll's pipeline, Enzyme,
/// derivatives.ptx's options): one description, which
/// derivativeCheckStages turns into stages.
struct DerivativeStages {
  std::string Forward, Reverse; ///< The drivers the pipeline adds.
  std::string EnzymeInput;      ///< enzymeInputPipeline.
  EnzymeInvocation Enzyme;      ///< Paths in Opts.EmitDir.
  PTXOptions PTX;
};

Expected<DerivativeStages> derivativeStages(Module &M, const KernelManifest &K,
                                            const LaunchSpec &Spec,
                                            const GPUCheckOptions &Opts) {
  Function *F = kernelIn(M, K.Name);
  if (!F)
    return makeToolError(ExitCode::BadInput,
                         "no kernel named '" + K.Name + "'");
  ActivityMap A = activitiesFor(*F, K, Spec);
  DerivativeStages S;
  S.Forward = wrapperName(K.Name, DiffMode::Forward);
  S.Reverse = wrapperName(K.Name, DiffMode::Reverse);
  S.EnzymeInput = enzymeInputPipeline(K, addressParams(K, Spec), A,
                                      reverseActivities(A, K, Spec, Opts));
  S.Enzyme.InputPath = pathIn(Opts.EmitDir, plan::file::EnzymeInput);
  S.Enzyme.OutputPath = pathIn(Opts.EmitDir, plan::file::EnzymeOutput);
  S.Enzyme.LogPath = pathIn(Opts.EmitDir, plan::file::EnzymeLog);
  S.Enzyme.PluginPath = Opts.EnzymePlugin;
  S.Enzyme.TimeoutSeconds = Opts.EnzymeTimeoutSeconds;
  S.Enzyme.TextOutput = true;
  S.Enzyme.ModuleRules = registersEnzymeRules(M);
  S.PTX = Opts.PTX;
  S.PTX.Kernels = {S.Forward, S.Reverse};
  S.PTX.Derivatives = Opts.Derivatives;
  return S;
}

/// "-mcpu=sm_90 -mattr=+ptx78": the target machine optimizeForPTX uses.
std::string targetArgs(const PTXOptions &Opts) {
  unsigned PTX = Opts.PTXVersion ? Opts.PTXVersion
                                 : minimumPTXVersion(Opts.Arch).value_or(0);
  return "-mcpu=" + Opts.Arch + " -mattr=+ptx" + std::to_string(PTX);
}

/// The PTX stage of \p Opts on a module with \p M's data layout: opt, then
/// llc as compilePTX generates code.
Expected<std::string> ptxCommand(const Module &M, const PTXOptions &Opts) {
  Expected<std::string> Pipeline = ptxPipelineFor(M, Opts);
  if (!Pipeline)
    return Pipeline.takeError();
  std::string Target = targetArgs(Opts);
  return "opt " + Target + " " + "-passes='" + *Pipeline + "'" + " | llc " +
         Target + " -asm-verbose=false";
}

/// What the stages of one check hand on: the modules they work on, the
/// launch's parameters and the plan they fill in.
struct CheckState {
  Module &Original, &Splatted;
  /// The splatted module before code generation optimises it: Enzyme's.
  std::unique_ptr<Module> ForDerivatives, Differentiated;
  std::vector<ParamImage> Orig, Splat;
  std::vector<CompiledKernel> Wrappers; ///< Forward, reverse.
  RunPlan Plan;
};

/// One stage of a check after the sanitize pipeline: what it writes, from
/// what, how opt (and llc) replay it, and how it runs here.
struct CheckStage {
  PipelineStage Shown;
  std::function<Error(CheckState &)> Run;
};

/// Adds \p K, compiled into \p File, to the plan as \p Role.
void addCompiled(CheckState &S, KernelRole Role, StringRef File,
                 CompiledKernel K, bool DropPrimalOutputs = false) {
  S.Plan.Kernels.push_back({Role, File.str(), K.Kernel, std::move(K.Params),
                            K.GridStride, DropPrimalOutputs});
}

/// original.ptx and splat.ptx: the kernel as given and splatted.
Expected<std::vector<CheckStage>> primalStages(const KernelManifest &K,
                                               const GPUCheckOptions &Opts,
                                               const Module &Layout) {
  PTXOptions PTX = Opts.PTX;
  PTX.Kernels = {K.Name};
  // The input, its splat and its derivatives share the input's data layout.
  Expected<std::string> Command = ptxCommand(Layout, PTX);
  if (!Command)
    return Command.takeError();
  auto Compile = [&K,
                  &Opts](KernelRole Role, StringRef File,
                         bool Splatted) -> std::function<Error(CheckState &)> {
    return
        [&K, &Opts, Role, File = File.str(), Splatted](CheckState &S) -> Error {
          Module &M = Splatted ? S.Splatted : S.Original;
          auto Compiled = compileTo(M, K.Name, File, Opts, Opts.PTX,
                                    {{"", Splatted ? S.Splat : S.Orig, {}}});
          if (!Compiled)
            return Compiled.takeError();
          addCompiled(S, Role, File, std::move(Compiled->front()));
          return Error::success();
        };
  };
  std::vector<CheckStage> Stages;
  Stages.push_back(
      {{plan::file::OriginalPTX, "INPUT", *Command, ""},
       Compile(KernelRole::Original, plan::file::OriginalPTX, false)});
  Stages.push_back({{plan::file::SplatPTX, "sanitize", *Command, ""},
                    Compile(KernelRole::Splat, plan::file::SplatPTX, true)});
  return Stages;
}

/// derivatives.input.ll, derivatives.enzyme.ll, derivatives.ptx: the
/// drivers, Enzyme and the derivative kernels (\p D, shared by value).
Expected<std::vector<CheckStage>>
derivativeCheckStages(std::shared_ptr<const DerivativeStages> D,
                      const GPUCheckOptions &Opts, const Module &Layout) {
  Expected<PipelineStage> Input =
      optStage(plan::file::EnzymeInput, "sanitize", D->EnzymeInput);
  if (!Input)
    return Input.takeError();
  Expected<std::string> PTX = ptxCommand(Layout, D->PTX);
  if (!PTX)
    return PTX.takeError();
  std::vector<CheckStage> Stages;
  Stages.push_back(
      {std::move(*Input), [D](CheckState &S) -> Error {
         PassResults Results;
         if (Error E = runPipeline(*S.ForDerivatives, D->EnzymeInput, &Results))
           return E;
         // forward, reverse
         auto &W = Results.get<std::vector<DerivativeWrapper>>();
         S.Wrappers = {{ptxSafeName(D->Forward),
                        wrapperArgs(S.Splat, wrapperArgsOf(W.at(0))),
                        {}},
                       {ptxSafeName(D->Reverse),
                        wrapperArgs(S.Splat, wrapperArgsOf(W.at(1))),
                        {}}};
         return Error::success();
       }});
  Stages.push_back(
      {{plan::file::EnzymeOutput, plan::file::EnzymeInput,
        enzymeCommandLine(D->Enzyme), ""},
       [D, &Opts](CheckState &S) -> Error {
         auto Diff = runEnzymeOn(*S.ForDerivatives, D->Enzyme, Opts);
         if (!Diff)
           return Diff.takeError();
         if (!kernelIn(**Diff, D->Forward) || !kernelIn(**Diff, D->Reverse))
           return makeToolError(ExitCode::Findings, "Enzyme's output lacks the "
                                                    "derivative wrappers");
         S.Differentiated = std::move(*Diff);
         return Error::success();
       }});
  Stages.push_back(
      {{plan::file::DerivativesPTX, plan::file::EnzymeOutput, *PTX, ""},
       [D, &Opts](CheckState &S) -> Error {
         auto Compiled = compileTo(*S.Differentiated, D->Forward,
                                   plan::file::DerivativesPTX, Opts, D->PTX,
                                   std::move(S.Wrappers));
         if (!Compiled)
           return Compiled.takeError();
         addCompiled(S, KernelRole::Forward, plan::file::DerivativesPTX,
                     std::move((*Compiled)[0]));
         addCompiled(S, KernelRole::Reverse, plan::file::DerivativesPTX,
                     std::move((*Compiled)[1]), Opts.DropPrimalOutputs);
         return Error::success();
       }});
  return Stages;
}

/// Every stage of the check of kernel \p K after the sanitize pipeline, in
/// order: the one list --print-pipeline-passes prints and prepareGPUCheck
/// runs. \p Splatted gives the data layout and the kernel's parameters.
Expected<std::vector<CheckStage>>
checkStages(Module &Splatted, const KernelManifest &K, const LaunchSpec &Spec,
            bool Derivatives, const GPUCheckOptions &Opts) {
  Expected<std::vector<CheckStage>> Stages = primalStages(K, Opts, Splatted);
  if (!Stages || !Derivatives)
    return Stages;
  Expected<DerivativeStages> D = derivativeStages(Splatted, K, Spec, Opts);
  if (!D)
    return D.takeError();
  auto More = derivativeCheckStages(
      std::make_shared<const DerivativeStages>(std::move(*D)), Opts, Splatted);
  if (!More)
    return More.takeError();
  for (CheckStage &C : *More)
    Stages->push_back(std::move(C));
  return Stages;
}

} // namespace

Expected<std::vector<PipelineStage>>
shownCheckStages(Module &Splatted, const KernelManifest &K,
                 const LaunchSpec &Spec, bool Derivatives,
                 const GPUCheckOptions &Opts) {
  Expected<std::vector<CheckStage>> Stages =
      checkStages(Splatted, K, Spec, Derivatives, Opts);
  if (!Stages)
    return Stages.takeError();
  std::vector<PipelineStage> Shown;
  for (CheckStage &Stage : *Stages)
    Shown.push_back(std::move(Stage.Shown));
  return Shown;
}

Expected<RunPlan> prepareGPUCheck(Module &Original, Module &Splatted,
                                  const KernelManifest &Manifest,
                                  const LaunchSpec &Spec,
                                  const GPUCheckOptions &Opts,
                                  StringRef DerivativesSkipped) {
  CheckState S{Original, Splatted, nullptr, nullptr, {}, {}, {}, {}};
  RunPlan &Plan = S.Plan;
  Plan.Kernel = Manifest.Name;
  Plan.Launch = Spec; // the spec's launch part
  Plan.Settings = checkSettings(Spec);
  if (Spec.DerivativeChecks && !DerivativesSkipped.empty()) {
    Plan.Launch.DerivativeChecks = false;
    Plan.Launch.ZeroDerivativeExpected = false;
    Plan.DerivativesSkipped = DerivativesSkipped.str();
  }
  S.Orig = packOriginalArgs(Manifest, Spec);
  S.Splat = sliceSplatArgs(Manifest, S.Orig);
  // Enzyme needs the splatted module before codegen optimises it.
  if (Plan.Launch.DerivativeChecks)
    S.ForDerivatives = CloneModule(Splatted);
  Expected<std::vector<CheckStage>> Stages =
      checkStages(Splatted, Manifest, Spec, Plan.Launch.DerivativeChecks, Opts);
  if (!Stages)
    return Stages.takeError();
  for (CheckStage &Stage : *Stages)
    if (Error E = Stage.Run(S))
      return E;
  if (Error E = writeFileAtomically(
          pathIn(Opts.EmitDir, plan::file::Plan),
          [&](raw_ostream &OS) { OS << printRunPlan(Plan); }))
    return E;
  progress(Opts, "wrote " + shownPath(Opts, plan::file::Plan));
  return std::move(Plan);
}

} // namespace irs
