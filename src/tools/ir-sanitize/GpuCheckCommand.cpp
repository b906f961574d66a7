//===- GpuCheckCommand.cpp - `ir-sanitize gpu-check INPUT --spec SPEC` ----===//
//
// Sanitise and splat one kernel, differentiate it with Enzyme, compile the
// original, splatted and derivative kernels to PTX, write them with a run
// plan into --emit-dir, and when this machine has a GPU run the checks with
// ir-sanitize-gpurun. Without a GPU it stops after the directory and says
// how to run the rest where there is one.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/GPU/GpuCheck.h"
#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs::cli {
namespace {

constexpr const char *RunnerName = "ir-sanitize-gpurun";

struct GpuCheckOptions {
  std::string Input;
  std::string SpecPath;
  std::string PluginPath;
  std::string EmitDir;
  std::string Arch = "sm_90";
  unsigned PTXVersion = 0;
  unsigned Repeats = 50;
  unsigned EnzymeTimeout = 300;
  bool NoRun = false;
  std::string DerivativeOrder = "versioned";
  bool DropPrimalOutputs = false;
};

Error usage(const Twine &Msg) { return makeToolError(ExitCode::Usage, Msg); }

class GpuCheckCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  GpuCheckOptions O;
  SanitizeOptions Opts;

  Expected<Function *> selectKernel(Module &M) const;
  Expected<KernelManifest> splat(Module &M, Function &Kernel) const;
  Expected<std::string> emitDir() const;
  Error prepare(std::string &Dir);
  int runOnDevice(StringRef Dir) const;
};

void GpuCheckCommand::addOptions(CLI::App &App) {
  App.add_option("INPUT", O.Input, "module with the kernel (.ll or .bc)")
      ->required();
  App.add_option("--spec", O.SpecPath, "launch spec (JSON; see README)")
      ->required()
      ->type_name("SPEC.json");
  App.add_option("--enzyme-plugin", O.PluginPath,
                 "LLVMEnzyme-<major>.so (default: searched for)")
      ->type_name("FILE");
  App.add_option("--emit-dir", O.EmitDir,
                 "where PTX and the run plan go (default: a new temporary "
                 "directory)")
      ->type_name("DIR");
  App.add_option("--gpu-arch", O.Arch, "NVIDIA architecture (default sm_90)")
      ->type_name("sm_NN");
  App.add_option("--ptx-version", O.PTXVersion,
                 "PTX ISA version times ten, e.g. 80 (default: the lowest "
                 "the architecture supports)")
      ->type_name("N");
  App.add_option("--repeats", O.Repeats, "timed launches per kernel")
      ->check(CLI::PositiveNumber);
  App.add_option("--enzyme-timeout", O.EnzymeTimeout,
                 "seconds Enzyme may take (0: no limit)");
  App.add_option("--derivative-order", O.DerivativeOrder,
                 "versioned (default): loads and atomics before stores where "
                 "this thread's addresses are disjoint, checked at run time; "
                 "generated: Enzyme's order")
      ->check(CLI::IsMember({"versioned", "generated"}))
      ->type_name("ORDER");
  App.add_flag("--drop-primal-outputs", O.DropPrimalOutputs,
               "the reverse kernel need not write output-only buffers "
               "(enzyme_dupnoneed): a gradient-only launch");
  App.add_flag("--no-run", O.NoRun,
               "only write the directory, even when a GPU is present");
  addSanitizeOptions(App, Opts);
  // Here --report is the check results (JSON, written by the runner) and
  // --kernel picks the one kernel to check.
  App.get_option("--report")->description(
      "write the check results and timings as JSON to FILE (needs a GPU)");
  App.get_option("--kernel")->description(
      "the kernel to check (default: the module's only kernel)");
  App.get_option("--repeats")->description(
      "timing samples per kernel, each of 20 launches (default 50)");
}

Expected<Function *> GpuCheckCommand::selectKernel(Module &M) const {
  SmallVector<Function *> Kernels = findKernels(M);
  std::string Names;
  for (Function *F : Kernels)
    Names += (Names.empty() ? "" : ", ") + F->getName().str();
  if (Opts.Kernels.size() > 1)
    return usage("gpu-check checks one kernel; give --kernel once");
  if (Opts.Kernels.empty()) {
    if (Kernels.size() == 1)
      return Kernels.front();
    return usage(Twine(O.Input) + " defines " + Twine(Kernels.size()) +
                 " kernels" + (Names.empty() ? "" : " (" + Names + ")") +
                 "; name one with --kernel");
  }
  for (Function *F : Kernels)
    if (F->getName() == Opts.Kernels.front())
      return F;
  return usage("--kernel " + Opts.Kernels.front() + ": no such kernel in " +
               O.Input + " (kernels: " + (Names.empty() ? "none" : Names) +
               ")");
}

Expected<KernelManifest> GpuCheckCommand::splat(Module &M,
                                                Function &Kernel) const {
  std::string Name = Kernel.getName().str();
  if (Opts.NoSplat)
    return unsplattedManifest(Kernel);
  SplatOptions SO;
  SO.Kernels = {Name};
  SO.Note = [&](const std::string &N) {
    if (!Opts.Quiet)
      errs() << ToolName << ": " << N << "\n";
  };
  Expected<LaunchManifest> LM = splatKernels(M, SO);
  if (!LM)
    return LM.takeError();
  if (!Opts.ManifestPath.empty())
    if (Error E = LM->writeFile(Opts.ManifestPath))
      return E;
  if (const KernelManifest *K = LM->findKernel(Name))
    return *K;
  return unsplattedManifest(*M.getFunction(Name)); // nothing to splat
}

Expected<std::string> GpuCheckCommand::emitDir() const {
  SmallString<256> Dir;
  if (!O.EmitDir.empty()) {
    if (std::error_code EC = sys::fs::create_directories(O.EmitDir))
      return makeToolError(ExitCode::OutputError,
                           O.EmitDir + ": cannot create: " + EC.message());
    return O.EmitDir;
  }
  SmallString<256> Model;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  sys::path::append(Model, "ir-sanitize-gpu-check-%%%%%%");
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Dir))
    return makeToolError(ExitCode::OutputError,
                         "cannot create " + Model + ": " + EC.message());
  return std::string(Dir);
}

/// Everything up to and including the run plan.
Error GpuCheckCommand::prepare(std::string &Dir) {
  if (!O.PTXVersion && !minimumPTXVersion(O.Arch))
    return usage("--gpu-arch " + O.Arch +
                 ": unknown architecture (expected sm_NN, e.g. sm_90, or give "
                 "--ptx-version)");
  Expected<LaunchSpec> Spec = LaunchSpec::readFile(O.SpecPath);
  if (!Spec)
    return Spec.takeError();
  LLVMContext Ctx;
  Expected<LoadedModule> In = readModule(O.Input, Ctx);
  if (!In)
    return In.takeError();
  Expected<Function *> Kernel = selectKernel(*In->M);
  if (!Kernel)
    return Kernel.takeError();
  std::string KernelName = (*Kernel)->getName().str();
  std::unique_ptr<Module> Original = CloneModule(*In->M);

  SanitizeOptions Sanitize = Opts;
  Sanitize.ReportPath.clear(); // --report is the check results here
  Sanitize.NoSplat = true;     // only the checked kernel, below
  Sanitize.ManifestPath.clear();
  SanitizeResult Result;
  if (Error E = runSanitizePipeline(*In->M, Sanitize, In->DisplayName, Result))
    return E;
  Expected<KernelManifest> Manifest =
      splat(*In->M, *In->M->getFunction(KernelName));
  if (!Manifest)
    return Manifest.takeError();
  if (Error E = validateSpec(*Spec, *Manifest, O.SpecPath))
    return E;

  irs::GpuCheckOptions G;
  G.PTX.Arch = O.Arch;
  G.PTX.PTXVersion = O.PTXVersion;
  G.EnzymeTimeoutSeconds = O.EnzymeTimeout;
  G.SinkDerivativeStores = O.DerivativeOrder == "versioned";
  G.DropPrimalOutputs = O.DropPrimalOutputs;
  G.Progress = [&](const std::string &Line) {
    if (!Opts.Quiet)
      errs() << ToolName << ": gpu-check: " << Line << "\n";
  };
  if (Spec->DerivativeChecks) {
    PluginSearch Search;
    Search.Explicit = O.PluginPath;
    Expected<LocatedPlugin> Plugin = locateEnzymePlugin(Search);
    if (!Plugin)
      return Plugin.takeError();
    G.EnzymePlugin = Plugin->Path;
  }
  Expected<std::string> D = emitDir();
  if (!D)
    return D.takeError();
  Dir = G.EmitDir = *D;
  LaunchManifest LM;
  LM.Triple = Triple(In->M->getTargetTriple()).str(); // string or Triple
  LM.DataLayout = In->M->getDataLayoutStr();
  LM.Kernels.push_back(*Manifest);
  if (Error E = LM.writeFile(Dir + "/manifest.json"))
    return E;
  return prepareGpuCheck(*Original, *In->M, *Manifest, *Spec, G).takeError();
}

/// ir-sanitize-gpurun sits next to ir-sanitize.
std::string runnerPath() {
  std::string Exe = sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&createSubcommands));
  SmallString<256> P(sys::path::parent_path(Exe));
  sys::path::append(P, RunnerName);
  return sys::fs::can_execute(P) ? std::string(P) : "";
}

int GpuCheckCommand::runOnDevice(StringRef Dir) const {
  std::string Runner = runnerPath();
  if (!O.NoRun && !Runner.empty()) {
    std::optional<StringRef> Quiet[] = {StringRef(""), StringRef(""),
                                        StringRef("")};
    if (sys::ExecuteAndWait(Runner, {Runner, "--probe"}, std::nullopt, Quiet) ==
        0) {
      std::string Repeats = std::to_string(O.Repeats);
      SmallVector<StringRef, 6> Args = {Runner, Dir, "--repeats", Repeats};
      if (!Opts.ReportPath.empty())
        Args.append({"--report", Opts.ReportPath});
      return sys::ExecuteAndWait(Runner, Args);
    }
  }
  std::string Why = O.NoRun ? "--no-run given"
                    : Runner.empty()
                        ? std::string(RunnerName) + " was not built here"
                        : "no usable CUDA device here";
  outs() << "plan written to " << Dir << " (" << Why
         << "); run the checks on a machine with an NVIDIA GPU:\n  "
         << RunnerName << " " << Dir
         << (Opts.ReportPath.empty() ? "" : " --report " + Opts.ReportPath)
         << "\n";
  return static_cast<int>(ExitCode::Ok);
}

int GpuCheckCommand::run() {
  std::string Dir;
  if (Error E = prepare(Dir))
    return reportError(std::move(E), ToolName);
  return runOnDevice(Dir);
}

} // namespace

std::unique_ptr<Command> createGpuCheckCommand() {
  return std::make_unique<GpuCheckCommand>();
}

} // namespace irs::cli
