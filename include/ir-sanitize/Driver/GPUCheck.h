//===- GPUCheck.h - Preparing a device derivative check ---------*- C++ -*-===//
//
// `ir-sanitize gpu-check` without the command line: one call, runGPUCheck,
// which reports as it goes through a DiagnosticHandler. It picks the kernel,
// sanitizes and splats it, and writes everything the runner needs into one
// directory:
//   original.ptx      the kernel as Julia emitted it (the baseline)
//   splat.ptx         the splatted kernel
//   derivatives.ptx   forward and reverse drivers, differentiated by Enzyme
//   derivatives.input.ll / derivatives.enzyme.ll / enzyme.log   (evidence)
//   plan.json         geometry, buffers and argument bytes for every kernel
//   spec.json         the launch spec the plan came from (given or inferred)
// then runs ir-sanitize-gpurun on it. Every pipeline is text
// (GPUCheckRequest::PrintStages lists them, for opt to replay).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_GPUCHECK_H
#define IR_SANITIZE_DRIVER_GPUCHECK_H

#include "ir-sanitize/Driver/PipelineStage.h"
#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/GPU/LaunchInference.h"
#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/GPU/PTXEmitter.h"
#include "ir-sanitize/Launch/RunPlan.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irs {

/// How prepareGPUCheck builds the check's kernels, and where it writes.
struct GPUCheckOptions {
  /// The directory the stages write into (must exist): the job's staging
  /// directory, renamed to the requested --emit-dir once complete.
  std::string EmitDir;
  /// How messages name EmitDir (where it will be once complete); empty:
  /// EmitDir.
  std::string ShownDir;
  std::string EnzymePlugin; ///< LLVMEnzyme-<major>.so (already located).
  PTXOptions PTX;
  unsigned EnzymeTimeoutSeconds = 300;
  /// The passes run on the derivative kernels after default<On>
  /// (--derivative-order, --accumulation, --no-grid-stride).
  DerivativePipelineOptions Derivatives;
  /// The reverse kernel leaves output-only buffers (output, not wrt)
  /// unwritten (Enzyme's dupnoneed): a gradient-only launch.
  bool DropPrimalOutputs = false;
  /// Told one progress line per step ("wrote DIR/splat.ptx (12 KB,
  /// sm_90)"); null: nobody.
  DiagnosticHandler *Diags = nullptr;
};

/// Everything `ir-sanitize gpu-check` asks for: runGPUCheck's request.
struct GPUCheckRequest {
  std::string InputPath; ///< The module (.ll or .bc, "-": stdin).
  std::string SpecPath;  ///< The launch spec (JSON); empty: inferred.
  /// Without SpecPath, what the launch is inferred from (--dims, --wrt,
  /// --set; GPU/LaunchInference.h), on the kernel as given.
  LaunchRequest Launch;
  /// Infer the launch (GPUCheckResult::Launch) and stop: nothing written.
  bool PrintLaunch = false;
  /// Also write the spec the check runs with here (--write-spec).
  std::string WriteSpecPath;
  /// Sanitize.Kernels names the kernel to check (at most one; none: the
  /// module's only kernel); Sanitize.Splat false checks it unsplatted.
  SanitizeConfig Sanitize;
  /// Built in a directory beside it and renamed into place once complete;
  /// empty: a new temporary directory.
  std::string EmitDir;
  /// Replace an existing non-empty EmitDir (as a whole); without it such a
  /// directory is a usage error.
  bool Force = false;
  std::string ManifestPath; ///< Also write the splat manifest here.
  std::string PluginPath;   ///< Explicit Enzyme plugin; empty: searched for.
  /// Code generation and derivative options. The job fills in a copy's
  /// EmitDir, ShownDir, EnzymePlugin and Diags; those given here are unused.
  GPUCheckOptions Options;
  /// Only the stages (Driver/PipelineStage.h): nothing is written or run.
  bool PrintStages = false;
  std::string RunnerPath; ///< ir-sanitize-gpurun; empty: not built here.
  bool NoRun = false;     ///< Write the directory only.
  unsigned Repeats = 50;  ///< Timing samples per kernel (the runner's).
  std::string ReportPath; ///< The runner's --report; empty: none.
};

/// What runGPUCheck did.
struct GPUCheckResult {
  std::vector<PipelineStage> Stages;    ///< With PrintStages, nothing else.
  std::optional<InferredLaunch> Launch; ///< The launch, when inferred.
  /// With PrintLaunch: why the launch printed would be refused (its
  /// accesses not proven in bounds, ...); the table shows what to size.
  std::optional<ToolError> LaunchRefusal;
  std::string Dir; ///< The directory written.
  /// The runner's exit code when it ran; else NotRun says why not
  /// ("--no-run given", "no usable CUDA device here", ...).
  std::optional<int> RunnerExit;
  std::string NotRun;
};

/// The whole gpu-check job: reads the spec (or infers it) and the module,
/// sanitizes (sanitizeForGPUCheck), builds the directory (buildGPUCheck) and
/// runs the checks when a device is there (runGPUChecks). \p Diags is told the
/// sanitize summary ("INPUT: 0 bundles ...") and the splat's notes as notes,
/// each step as progress, and that the derivative checks are skipped (no
/// Enzyme) as a warning.
llvm::Expected<GPUCheckResult> runGPUCheck(const GPUCheckRequest &Request,
                                           DiagnosticHandler &Diags);

/// Builds the artifacts above for kernel \p Manifest.Name and returns the
/// plan (also written to EmitDir/plan.json). \p Original and \p Splatted are
/// consumed (optimised in place). \p Spec must have passed validateSpec.
/// A nonempty \p DerivativesSkipped says why the derivative checks \p Spec
/// asks for cannot run (no Enzyme plugin): the plan holds the primal checks
/// and gives the reason. Errors: Enzyme failures (ExitCode::Findings, with
/// its diagnosis), code generation and output errors.
llvm::Expected<RunPlan>
prepareGPUCheck(llvm::Module &Original, llvm::Module &Splatted,
                const KernelManifest &Manifest, const LaunchSpec &Spec,
                const GPUCheckOptions &Opts,
                llvm::StringRef DerivativesSkipped = "");

} // namespace irs

#endif
