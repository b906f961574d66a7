//===- GPUCheck.h - Preparing a device derivative check ---------*- C++ -*-===//
//
// `ir-sanitize gpu-check` without the command line: one call, runGPUCheck,
// which reports as it goes through a DiagnosticHandler. Its steps are public
// for tests and other hosts: sanitizeForGPUCheck picks the kernel and
// sanitizes and splats it; buildGPUCheck writes everything the runner needs
// into one directory:
//   original.ptx      the kernel as Julia emitted it (the baseline)
//   splat.ptx         the splatted kernel
//   derivatives.ptx   forward and reverse drivers, differentiated by Enzyme
//   derivatives.input.ll / derivatives.enzyme.ll / enzyme.log   (evidence)
//   plan.json         geometry, buffers and argument bytes for every kernel
// and runGPUChecks runs ir-sanitize-gpurun on it. Every pipeline is text
// (gpuCheckStages says which, for opt to replay).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_GPUCHECK_H
#define IR_SANITIZE_DRIVER_GPUCHECK_H

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/GPU/PTXEmitter.h"
#include "ir-sanitize/GPU/RunPlan.h"
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
  /// Version the derivative kernels' memory accesses (StoreSinkVersioning):
  /// loads and atomics before stores where this thread's addresses are
  /// disjoint, Enzyme's order otherwise. Off: Enzyme's order only.
  bool SinkDerivativeStores = true;
  /// Merge two atomic additions into one shadow element (AccumulationMerging,
  /// floating-point sums reassociated). Off: one atomic per accumulation.
  bool MergeAccumulations = true;
  /// Make derivative kernels that accumulate atomically grid-stride loops
  /// (GridStrideCoarsening): the runner may launch fewer blocks, each
  /// thread holding its sums into one element in registers. Off: one block
  /// of work per thread, every accumulation an atomic.
  bool GridStride = true;
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

/// Picks the kernel (ExitCode::Usage when the choice is ambiguous or names
/// no kernel), copies \p M as given, sanitises \p M and splats the kernel.
llvm::Expected<GPUCheckInput> sanitizeForGPUCheck(llvm::Module &M,
                                                  const GPUCheckConfig &Config);

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
  /// EmitDir and EnzymePlugin are filled in; SkipDerivatives too when the
  /// spec asks for derivative checks but no Enzyme plugin is found.
  GPUCheckOptions Options;
};

/// Checks \p Spec against the kernel, locates Enzyme (when the spec asks
/// for derivatives), creates the directory, writes manifest.json and then
/// everything prepareGPUCheck writes; \p In and \p Sanitized (the module
/// sanitizeForGPUCheck was given) are consumed. Returns the directory.
/// A requested EmitDir appears complete or not at all: on failure an
/// existing one is left as it was; after an Enzyme failure the directory
/// being built stays beside it (the error names its log).
llvm::Expected<std::string> buildGPUCheck(GPUCheckInput &In,
                                          llvm::Module &Sanitized,
                                          const LaunchSpec &Spec,
                                          GPUCheckBuild &Build);

/// One stage of gpu-check as `opt` replays it (--print-pipeline-passes).
/// Printed (str) as one line
///   OUTPUT: INPUT | COMMAND[  # NOTE]
/// OUTPUT is the file the stage writes in the directory, or "sanitize" (the
/// sanitized, splatted module, kept in memory); INPUT is "INPUT" (the module
/// as given), "sanitize" or a file of the directory. COMMAND reads INPUT on
/// stdin: `opt ...` (every opt with -load-pass-plugin=IRSanitize.so), for
/// PTX then `| llc ...`. Not replayed: what NOTE says, and libdevice
/// linking and the target's data layout before a PTX stage (optimizeForPTX;
/// nothing for a module that calls no math function).
struct GPUCheckStage {
  std::string Output, Input, Command, Note;
  std::string str() const;
};

/// The stages buildGPUCheck would run for \p In (the module \p Sanitized,
/// as sanitizeForGPUCheck left it) with \p Spec and \p Build's options:
/// sanitize, original.ptx, splat.ptx and, when the spec asks for
/// derivatives, derivatives.input.ll, derivatives.enzyme.ll and
/// derivatives.ptx. Nothing is written or run.
llvm::Expected<std::vector<GPUCheckStage>>
gpuCheckStages(const GPUCheckInput &In, llvm::Module &Sanitized,
               const LaunchSpec &Spec, const GPUCheckBuild &Build);

/// Everything `ir-sanitize gpu-check` asks for: runGPUCheck's request.
struct GPUCheckRequest {
  std::string InputPath; ///< The module (.ll or .bc, "-": stdin).
  std::string SpecPath;  ///< The launch spec (JSON).
  /// Sanitize.Kernels names the kernel to check (see GPUCheckConfig).
  SanitizeConfig Sanitize;
  /// The directory, manifest, plugin and code generation options (its
  /// SpecPath is SpecPath above).
  GPUCheckBuild Build;
  /// Only the stages (gpuCheckStages): nothing is written or run.
  bool PrintStages = false;
  std::string RunnerPath; ///< ir-sanitize-gpurun; empty: not built here.
  bool NoRun = false;     ///< Write the directory only.
  unsigned Repeats = 50;  ///< Timing samples per kernel (the runner's).
  std::string ReportPath; ///< The runner's --report; empty: none.
};

/// What runGPUCheck did.
struct GPUCheckResult {
  std::vector<GPUCheckStage> Stages; ///< With PrintStages, nothing else.
  std::string Dir;                   ///< The directory written.
  /// The runner's exit code when it ran; else NotRun says why not
  /// ("--no-run given", "no usable CUDA device here", ...).
  std::optional<int> RunnerExit;
  std::string NotRun;
};

/// The whole gpu-check job: reads the spec and the module, sanitizes
/// (sanitizeForGPUCheck), builds the directory (buildGPUCheck) and runs the
/// checks when a device is there (runGPUChecks). \p Diags is told the
/// sanitize summary ("INPUT: 0 bundles ...") and the splat's notes as notes,
/// each step as progress, and that the derivative checks are skipped (no
/// Enzyme) as a warning.
llvm::Expected<GPUCheckResult> runGPUCheck(const GPUCheckRequest &Request,
                                           DiagnosticHandler &Diags);

/// Runs ir-sanitize-gpurun \p Runner on \p Dir when it reports a usable
/// device (--probe) and returns its exit code; std::nullopt when there is
/// none (nothing was run).
std::optional<int> runGPUChecks(llvm::StringRef Runner, llvm::StringRef Dir,
                                unsigned Repeats, llvm::StringRef ReportPath);

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
