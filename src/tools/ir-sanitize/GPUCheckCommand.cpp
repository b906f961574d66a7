//===- GPUCheckCommand.cpp - `ir-sanitize gpu-check INPUT --spec SPEC` ----===//
//
// Sanitise and splat one kernel, differentiate it with Enzyme, compile the
// original, splatted and derivative kernels to PTX, write them with a run
// plan into --emit-dir, and when this machine has a GPU run the checks with
// ir-sanitize-gpurun: one driver call (runGPUCheck). Without a GPU it stops
// after the directory and says how to run the rest where there is one. This
// file parses, calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/GPUCheck.h"
#include "ir-sanitize/Support/AtomicOutput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

constexpr const char *RunnerName = "ir-sanitize-gpurun";

struct GPUCheckArguments {
  std::string Input;
  std::string SpecPath;
  std::string Dims;
  std::vector<std::string> Wrt;
  std::vector<std::string> Sets;
  bool PrintLaunch = false;
  std::string WriteSpecPath;
  std::string PluginPath;
  std::string EmitDir;
  std::string Arch = "sm_90";
  unsigned PTXVersion = 0;
  unsigned Repeats = 50;
  unsigned EnzymeTimeout = 300;
  bool NoRun = false;
  bool Force = false;
  std::string DerivativeOrder = "versioned";
  std::string Accumulation = AccumulationModes[0].str();
  bool DropPrimalOutputs = false;
  bool NoGridStride = false;
  bool PrintPipeline = false;
};

class GPUCheckCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  GPUCheckArguments O;
  SanitizeOptions Opts;

  void addLaunchOptions(CLI::App &App);
  void addCodeOptions(CLI::App &App);
  void addRunOptions(CLI::App &App);
  GPUCheckRequest request() const;
};

void GPUCheckCommand::addOptions(CLI::App &App) {
  App.add_option("INPUT", O.Input, "module with the kernel (.ll or .bc)")
      ->required();
  addLaunchOptions(App);
  addEnzymePluginOptions(App, O.PluginPath, O.EnzymeTimeout);
  addCodeOptions(App);
  addRunOptions(App);
  addSanitizeOptions(App, Opts);
  // Here --report is the check results (JSON, written by the runner) and
  // --kernel picks the one kernel to check.
  App.get_option("--report")
      ->description(
          "write the check results and timings as JSON to FILE (needs a GPU)");
  App.get_option("--kernel")
      ->description("the kernel to check (default: the module's only kernel)");
}

/// How the kernel is launched: inferred from --dims, or a spec.
void GPUCheckCommand::addLaunchOptions(CLI::App &App) {
  CLI::Option *Dims =
      App.add_option("--dims", O.Dims,
                     "infer the launch from the kernel: every array this "
                     "shape (e.g. 1048576 or 1024x1024), read-only float "
                     "arrays differentiated, written ones outputs")
          ->type_name("D[xD...]");
  CLI::Option *Spec =
      App.add_option("--spec", O.SpecPath,
                     "the launch as a spec (JSON; see gpu-check(1)) instead "
                     "of --dims")
          ->type_name("SPEC.json");
  Dims->excludes(Spec);
  App.add_option("--wrt", O.Wrt,
                 "with --dims: differentiate these arrays instead (a Julia "
                 "parameter name, a parameter index, a leaf path such as "
                 "2.0.1, all or none; repeatable, comma-separated)")
      ->delimiter(',')
      ->type_name("NAME")
      ->needs(Dims);
  App.add_option("--set", O.Sets,
                 "with --dims: NAME=NUMBER sets a scalar leaf, NAME.dims=AxB "
                 "an array's shape, NAME=" +
                     spellingAlternatives<BufferInit>() +
                     " its contents (repeatable)")
      ->type_name("NAME=VALUE")
      ->needs(Dims);
  App.add_flag("--print-launch", O.PrintLaunch,
               "print the inferred launch as a table (leaf, Julia name, "
               "kind, type, value, activity) and stop")
      ->needs(Dims);
  App.add_option("--write-spec", O.WriteSpecPath,
                 "also write the launch as a spec, to edit and pass back "
                 "with --spec")
      ->type_name("FILE");
}

/// What the derivative kernels become: PTX for which device, in which
/// order, with which accumulations.
void GPUCheckCommand::addCodeOptions(CLI::App &App) {
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
  App.add_option("--derivative-order", O.DerivativeOrder,
                 "versioned (default): loads and atomics before stores where "
                 "this thread's addresses are disjoint, a clear and the "
                 "accumulations into its element one store where they are "
                 "equal, checked at run time; generated: Enzyme's order")
      ->check(CLI::IsMember({"versioned", "generated"}))
      ->type_name("ORDER");
  App.add_option("--accumulation", O.Accumulation,
                 "aggregated (default): as merged, then the lanes of a warp "
                 "that accumulate into one element sum first and one of them "
                 "does the atomic (sm_70 and later; merged below: gathers "
                 "with repeated indices, bias gradients); merged: two atomic "
                 "additions into one element of a shadow (an array passed "
                 "twice) become one, their sum reassociated; separate: one "
                 "atomic per accumulation, as Enzyme emits them")
      ->check(CLI::IsMember(std::vector<std::string>(
          std::begin(AccumulationModes), std::end(AccumulationModes))))
      ->type_name("HOW");
  App.add_flag("--no-grid-stride", O.NoGridStride,
               "one block of work per thread in every derivative kernel; by "
               "default a kernel that accumulates atomically becomes a "
               "grid-stride loop the runner launches with fewer blocks, each "
               "thread summing into one element in registers");
  App.add_flag("--drop-primal-outputs", O.DropPrimalOutputs,
               "the reverse kernel need not write output-only buffers "
               "(enzyme_dupnoneed): a gradient-only launch");
}

/// Where the plan goes and whether it runs.
void GPUCheckCommand::addRunOptions(CLI::App &App) {
  App.add_option("--repeats", O.Repeats,
                 "timing samples per kernel, each of up to 20 launches "
                 "(default 50)")
      ->check(CLI::PositiveNumber);
  App.add_flag("--force", O.Force, "replace a non-empty --emit-dir as a whole");
  App.add_flag("--no-run", O.NoRun,
               "only write the directory, even when a GPU is present");
  addPrintPipelineFlag(App, O.PrintPipeline,
                       ", one line per stage as `OUTPUT: INPUT | opt ...` "
                       "(opt with -load-pass-plugin=IRSanitize.so; PTX "
                       "stages then `| llc ...`), without writing anything");
}

/// ir-sanitize-gpurun sits next to ir-sanitize.
std::string runnerPath() {
  std::string Exe = sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&createSubcommands));
  SmallString<256> P(sys::path::parent_path(Exe));
  sys::path::append(P, RunnerName);
  return sys::fs::can_execute(P) ? std::string(P) : "";
}

/// The driver's request the options describe.
GPUCheckRequest GPUCheckCommand::request() const {
  GPUCheckRequest R;
  R.InputPath = O.Input;
  R.SpecPath = O.SpecPath;
  R.PrintLaunch = O.PrintLaunch;
  R.WriteSpecPath = O.WriteSpecPath;
  R.Launch.Sets = O.Sets;
  if (!O.Wrt.empty())
    R.Launch.Wrt = O.Wrt;
  R.Sanitize = sanitizeConfig(Opts);
  R.EmitDir = O.EmitDir;
  R.Force = O.Force;
  R.ManifestPath = Opts.ManifestPath;
  R.PluginPath = O.PluginPath;
  GPUCheckOptions &G = R.Options;
  G.PTX.Arch = O.Arch;
  G.PTX.PTXVersion = O.PTXVersion;
  G.EnzymeTimeoutSeconds = O.EnzymeTimeout;
  G.Derivatives.Accesses.SinkStores = O.DerivativeOrder == "versioned";
  setAccumulationMode(G.Derivatives.Accesses, O.Accumulation);
  G.DropPrimalOutputs = O.DropPrimalOutputs;
  G.Derivatives.GridStride = !O.NoGridStride;
  R.PrintStages = O.PrintPipeline;
  R.RunnerPath = runnerPath();
  R.NoRun = O.NoRun;
  R.Repeats = O.Repeats;
  R.ReportPath = Opts.ReportPath;
  return R;
}

/// Notes and progress unless -q; the skipped checks always.
class GPUCheckDiagnostics final : public DiagnosticHandler {
public:
  explicit GPUCheckDiagnostics(bool Quiet) : Quiet(Quiet) {}
  void handle(DiagnosticKind Kind, const std::string &Message) override {
    if (Kind == DiagnosticKind::Note && !Quiet)
      errs() << ToolName << ": " << keepOnOneLine(Message) << "\n";
    else if (Kind == DiagnosticKind::Warning ||
             (Kind == DiagnosticKind::Progress && !Quiet))
      errs() << ToolName << ": gpu-check: " << keepOnOneLine(Message) << "\n";
  }

private:
  bool Quiet;
};

int GPUCheckCommand::run() {
  if (O.SpecPath.empty() && O.Dims.empty())
    return reportError(makeToolError(ExitCode::Usage,
                                     "gpu-check needs --dims (to infer the "
                                     "launch) or --spec"),
                       ToolName);
  GPUCheckRequest Request = request();
  if (!O.Dims.empty()) {
    Expected<std::vector<uint64_t>> Dims = parseDims(O.Dims, "--dims");
    if (!Dims)
      return reportError(Dims.takeError(), ToolName);
    Request.Launch.Dims = std::move(*Dims);
  }
  GPUCheckDiagnostics Diags(Opts.Quiet);
  Expected<GPUCheckResult> R = runGPUCheck(Request, Diags);
  if (!R)
    return reportError(R.takeError(), ToolName);
  if (O.PrintLaunch) {
    if (Error E = writeFileAtomically(
            "-", [&](raw_ostream &OS) { R->Launch->print(OS); }))
      return reportError(std::move(E), ToolName);
    if (R->LaunchRefusal) // after the table, which shows what to size
      return reportError(make_error<ToolError>(*R->LaunchRefusal), ToolName);
    return static_cast<int>(ExitCode::Ok);
  }
  if (O.PrintPipeline)
    return printStages(std::move(R->Stages));
  if (R->RunnerExit)
    return *R->RunnerExit;
  if (Error E = writeFileAtomically("-", [&](raw_ostream &OS) {
        OS << "plan written to " << R->Dir << " (" << R->NotRun
           << "); run the checks on a machine with an NVIDIA GPU:\n  "
           << RunnerName << " " << R->Dir
           << (Opts.ReportPath.empty() ? "" : " --report " + Opts.ReportPath)
           << "\n";
      }))
    return reportError(std::move(E), ToolName);
  return static_cast<int>(ExitCode::Ok);
}

} // namespace

std::unique_ptr<Command> createGPUCheckCommand() {
  return std::make_unique<GPUCheckCommand>();
}

} // namespace irs::cli
