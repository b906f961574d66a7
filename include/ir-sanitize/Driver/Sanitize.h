//===- Sanitize.h - The sanitize pipeline -----------------------*- C++ -*-===//
//
// What the default command does, without the command line: normalize
// operand bundles, then splat kernel parameters, through the new pass
// manager (the same passes `opt` runs from the plugin). runSanitize is the
// whole job (read, run, write); sanitizeModule and writeSanitizeOutputs are
// its steps, for callers that hold the module (the C API, `enzyme`). Nothing
// here prints or touches process state: notes go to a DiagnosticHandler.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_SANITIZE_H
#define IR_SANITIZE_DRIVER_SANITIZE_H

#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/BundleReport.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/OutputSafety.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <string>
#include <vector>

namespace irs {

struct SanitizeConfig {
  BundlePolicy Policy; ///< Step 1: what to do with each bundle.
  /// Between: the warp shuffles made differentiable, where the module calls
  /// warp intrinsics (Transforms/WarpShuffleRules.h).
  bool WarpRules = true;
  bool Splat = true;                ///< Step 2 at all.
  std::vector<std::string> Kernels; ///< Splat only these; empty: every one.
  /// Record every bundled call's function, callee and location for the
  /// report (printReport with PerCallSite); off, only the counts.
  bool ReportCallSites = true;
};

/// What the sanitize steps did.
struct SanitizeResult {
  BundleScope Scope = BundleScope::CCalls;
  bool Splat = true;      ///< Whether the splat ran.
  bool WarpRules = false; ///< Whether the warp rules ran (they changed M).
  BundleReport Bundles;
  /// The splatted kernels (none when the splat did not run).
  LaunchManifest Manifest;
  /// Kernels or parameters the splat left whole, and why (one line each).
  std::vector<std::string> Notes;

  /// "2 bundles on 1 call sites: ...; splatted 2 kernels (8 parameters into
  /// 41)".
  std::string summary() const;
  /// Writes the --report document (the bundle report, \p InputName and the
  /// splatted kernels' parameter counts), indented by 2, with a newline.
  /// Without \p PerCallSite, "functions" (every call site) is left out: the
  /// totals and tags alone, for callers that only want the counts.
  void printReport(llvm::raw_ostream &OS, llvm::StringRef InputName,
                   bool PerCallSite = true) const;
};

/// The sanitize pipeline \p Config gives for \p M: the warp rules only
/// where \p M calls warp intrinsics.
std::string sanitizePipelineFor(const llvm::Module &M,
                                const SanitizeConfig &Config);

/// Runs the sanitize steps on \p M. An unknown kernel in Config.Kernels is a
/// ToolError with ExitCode::Usage. The module is not verified here:
/// writeModule (or writeSanitizeOutputs) verifies before writing.
llvm::Expected<SanitizeResult> sanitizeModule(llvm::Module &M,
                                              const SanitizeConfig &Config);

/// The splat alone, through the pipeline every job runs it in
/// (splatPipeline): the manifest of \p Kernels (empty: every kernel). An
/// unknown kernel is a usage error.
llvm::Expected<LaunchManifest> splatModule(llvm::Module &M,
                                           llvm::ArrayRef<std::string> Kernels);

/// Where the outputs of a sanitize run go; an empty path: not written.
struct SanitizeOutputs {
  std::string Module = "-"; ///< "-": stdout.
  IRFormat Format = IRFormat::Text;
  DebugInfoForm DbgForm = DebugInfoForm::None;
  std::string Manifest;
  std::string Report;
  std::string InputName; ///< For the report.
};

/// The manifest path the command line uses: \p Requested (--manifest), else
/// OUTPUT.manifest.json when a kernel was splatted and \p Output is a file;
/// empty for none.
std::string defaultManifestPath(const SanitizeResult &Result,
                                llvm::StringRef Requested,
                                llvm::StringRef Output);

/// Verifies \p M and writes it with the manifest and report that \p Out
/// names, all or none (see writeOutputsTogether). Errors are ToolErrors.
llvm::Error writeSanitizeOutputs(llvm::Module &M, const SanitizeResult &Result,
                                 const SanitizeOutputs &Out);

/// `ir-sanitize INPUT -o OUTPUT`: what to read, how to sanitize, where to
/// write.
struct SanitizeRequest {
  std::string Input = "-";  ///< "-": stdin.
  std::string Output = "-"; ///< "-": stdout.
  std::string Emit;         ///< "ll" or "bc"; empty: as Output's name says.
  std::string ManifestPath; ///< Empty: see defaultManifestPath.
  std::string ReportPath;   ///< Empty: no report.
  SanitizeConfig Config;
};

/// The files \p Req reads and writes (the input; -o, --manifest or -o's
/// default manifest, --report), for checkDistinctFiles.
JobFiles sanitizeJobFiles(const SanitizeRequest &Req);

/// What a sanitize job read and did.
struct SanitizeJobResult {
  std::string InputName; ///< As messages name the input.
  SanitizeResult Result; ///< What the steps did.
  std::unique_ptr<llvm::Module>
      Module; ///< As written (in the caller's context).
};

/// The default command as one job: reads Req.Input into \p Ctx, sanitizes
/// it, writes the module, manifest and report together. Reports the splat's
/// notes and the summary line (progress "NAME: 2 bundles ..."), a debug-info
/// form warning, and a note when splatted kernels went to stdout without a
/// manifest. Errors are ToolErrors; nothing is written after one.
llvm::Expected<SanitizeJobResult> runSanitize(const SanitizeRequest &Req,
                                              llvm::LLVMContext &Ctx,
                                              DiagnosticHandler &Diags);

/// `--print-pipeline-passes`: the pipeline runSanitize would run on
/// Req.Input, printed from the parsed pipeline. The input is read and the
/// kernels Req.Config names are looked up in it, so a missing input or an
/// unknown kernel is the error the run would give; nothing is written.
llvm::Expected<std::string> printSanitizePipeline(const SanitizeRequest &Req,
                                                  llvm::LLVMContext &Ctx);

} // namespace irs

#endif
