//===- Differentiate.h - The Enzyme pipeline --------------------*- C++ -*-===//
//
// `ir-sanitize enzyme` without the command line: add a derivative wrapper,
// run Enzyme on the sanitized module in a child opt (in a work directory
// that keeps the evidence), put stashed bundles back into its output and
// write it; or, for a triage, run Enzyme on the module as given and on the
// sanitized one side by side. runDifferentiate is the whole job; the other
// functions are its steps (`reduce` shares prepareEnzymeSides). Nothing here
// prints: notes and progress go to a DiagnosticHandler.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_DIFFERENTIATE_H
#define IR_SANITIZE_DRIVER_DIFFERENTIATE_H

#include "ir-sanitize/Driver/PipelineStage.h"
#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/Triage.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/ExitCode.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Transforms/BundleRestore.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irs {

struct DifferentiateConfig {
  /// Add a wrapper NAME.fwd / NAME.rev differentiating this function; empty:
  /// the module must bring its own __enzyme_fwddiff/__enzyme_autodiff calls.
  std::string Fn;
  std::string Mode;                  ///< forward|reverse (fwd|rev), with Fn.
  std::vector<std::string> Activity; ///< KEY=ACTIVITY settings, with Fn.
  std::string PluginPath;            ///< LLVMEnzyme-<major>.so, located.
  std::string LogPath;               ///< Empty: in the work directory.
  std::vector<std::string> ExtraOptArgs;
  unsigned TimeoutSeconds = 300; ///< 0: no limit.
};

/// Writes \p M as \p Stem.ll into \p WorkDir and describes the opt run on
/// it (log: \p LogPath, or next to it).
llvm::Expected<EnzymeInvocation>
prepareEnzymeRun(llvm::Module &M, llvm::StringRef WorkDir, llvm::StringRef Stem,
                 llvm::StringRef LogPath, const DifferentiateConfig &Config);

/// What a triage or a reduction runs Enzyme on: the module sanitized in
/// place (the caller's LoadedModule), a copy of it as given, and a work
/// directory for both.
struct EnzymeSides {
  std::unique_ptr<llvm::Module> Original;
  SanitizeResult Result; ///< How the module was sanitized.
  std::string WorkDir;
};

/// Copies \p LM as given, sanitizes it in place (sanitizeWithWrapper), adds
/// the wrapper to the copy (leniently: a note where its signature does not
/// allow the same activities) and creates the work directory.
llvm::Expected<EnzymeSides> prepareEnzymeSides(LoadedModule &LM,
                                               const SanitizeRequest &Req,
                                               const DifferentiateConfig &D,
                                               DiagnosticHandler &Diags);

/// `ir-sanitize enzyme INPUT`: the input, sanitize options and outputs
/// (Sanitize; its report is written before Enzyme runs), and Enzyme's.
struct EnzymeRequest {
  SanitizeRequest Sanitize;
  DifferentiateConfig Enzyme; ///< PluginPath: ignored (see PluginPath).
  std::string PluginPath;     ///< --enzyme-plugin; empty: search for one.
  bool WrapperOnly = false;   ///< Write the sanitized module with its wrapper.
  bool Triage = false;        ///< Compare with the module as given.
  bool KeepTemps = false;     ///< Keep the work directory after a success.
  /// Where a triage caches what the plugin says of bundles (BundleProbe.h);
  /// empty: no cache.
  std::string ProbeCacheDir;
};

struct EnzymeJobResult {
  std::string InputName;
  /// Ok, or Findings: Enzyme failed, the triage's sanitized side did, or
  /// stashed bundles were lost after Enzyme (warned about).
  ExitCode Code = ExitCode::Ok;
  /// Set when Enzyme failed on the sanitized module (not a triage); the work
  /// directory is kept for the user.
  std::optional<EnzymeResult> Failure;
  std::string WorkDir; ///< Empty with WrapperOnly.
  /// The triage's verdict, for the command to print (printTriage,
  /// triageToJSON).
  std::optional<TriageReport> Triage;
};

/// `enzyme` as one job: reads Req.Sanitize.Input into \p Ctx, locates the
/// plugin (unless WrapperOnly), sanitizes, adds the wrapper, runs Enzyme (or
/// the triage, whose verdict it returns), restores stashed bundles and
/// writes the outputs together. Reports the sanitize summary, the success
/// line (progress), debug-info and lost-bundle warnings. Errors are
/// ToolErrors; an Enzyme failure is a result.
llvm::Expected<EnzymeJobResult> runDifferentiate(const EnzymeRequest &Req,
                                                 llvm::LLVMContext &Ctx,
                                                 DiagnosticHandler &Diags);

/// The stages runDifferentiate would run for \p Req (Driver/PipelineStage.h),
/// failing as it would (unreadable input, no plugin, unknown --fn or
/// --kernel); nothing is written and Enzyme does not run:
///   sanitize: INPUT | opt -passes='SANITIZE,WRAPPER'
///   enzyme: sanitize | opt -load-pass-plugin=ENZYME ... -passes=enzyme -S
///   OUTPUT: enzyme | opt -passes='ir-sanitize-restore'
/// (WrapperOnly: the first alone, into OUTPUT). A triage first has the
/// module as given: `original` (its wrapper) and `original.enzyme`.
llvm::Expected<std::vector<PipelineStage>>
enzymeStages(const EnzymeRequest &Req, llvm::LLVMContext &Ctx,
             DiagnosticHandler &Diags);

} // namespace irs

#endif
