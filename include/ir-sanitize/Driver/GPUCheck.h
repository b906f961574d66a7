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

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irs {

struct GPUCheckOptions {
  std::string EmitDir; ///< Must exist.
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
  /// Nonempty: the derivative checks cannot run (no Enzyme plugin); the plan
  /// holds the primal check only and gives this as the reason.
  std::string SkipDerivatives;
  /// Told one progress line per step ("wrote DIR/splat.ptx (12 KB,
  /// sm_90)"); null: nobody.
  DiagnosticHandler *Diags = nullptr;
};

/// Which kernel to check and how to sanitise it.
struct GPUCheckConfig {
  /// Sanitize.Kernels names the kernel to check (at most one; none: the
  /// module's only kernel); Sanitize.Splat false checks it unsplatted.
  SanitizeConfig Sanitize;
  std::string InputName; ///< For messages.
};

/// The module as given and the checked kernel after sanitising.
struct GPUCheckInput {
  std::unique_ptr<llvm::Module> Original; ///< A copy of the module as given.
  /// The bundle normalisation (no splat: Manifest is empty).
  SanitizeResult Sanitized;
  LaunchManifest Splat;           ///< The splat of the checked kernel only.
  std::vector<std::string> Notes; ///< Why the splat left something whole.
  KernelManifest Kernel; ///< The checked kernel, splatted or as it stands.
  std::string Pipeline;  ///< The sanitize pipeline that ran (text).
};

/// What buildGPUCheck needs besides the modules.
struct GPUCheckBuild {
  std::string SpecPath; ///< For messages.
  /// Built in a directory beside it and renamed into place once complete;
  /// empty: a new temporary directory.
  std::string EmitDir;
  /// Replace an existing non-empty EmitDir (as a whole); without it such a
  /// directory is a usage error.
  bool Force = false;
  std::string ManifestPath; ///< Also write the splat manifest here.
  std::string PluginPath;   ///< Explicit Enzyme plugin; empty: searched for.
  /// Code generation and derivative options; the job fills in its own copy
  /// of EmitDir, EnzymePlugin and SkipDerivatives (this one is not changed).
  GPUCheckOptions Options;
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
  /// Sanitize.Kernels names the kernel to check (see GPUCheckConfig).
  SanitizeConfig Sanitize;
  /// The directory, manifest, plugin and code generation options (its
  /// SpecPath is SpecPath above).
  GPUCheckBuild Build;
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
  std::string Dir;                      ///< The directory written.
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
/// Errors: Enzyme failures (ExitCode::Findings, with its diagnosis), code
/// generation and output errors.
llvm::Expected<RunPlan> prepareGPUCheck(llvm::Module &Original,
                                        llvm::Module &Splatted,
                                        const KernelManifest &Manifest,
                                        const LaunchSpec &Spec,
                                        const GPUCheckOptions &Opts);

} // namespace irs

#endif
