//===- Reduce.h - From an Enzyme failure to a minimal module ----*- C++ -*-===//
//
// `ir-sanitize reduce` without the command line: run Enzyme on the module as
// given and sanitised, take the failure signature of the side to reduce, run
// it again to rule out a flaky failure, cut the module to what its Enzyme
// calls reach, let llvm-reduce shrink it with an interestingness test (the
// caller's program, which calls failsLikeSignature), and check that the
// result still fails the same way (reduceEnzymeFailure). runReduce is the
// whole job: read, sanitize, reduce, write the reproducer. Nothing here
// prints: notes and progress go to a DiagnosticHandler.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_REDUCE_H
#define IR_SANITIZE_DRIVER_REDUCE_H

#include "ir-sanitize/Driver/Differentiate.h"
#include "ir-sanitize/Enzyme/FailureSignature.h"
#include "ir-sanitize/Enzyme/Reducer.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/ExitCode.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irs {

/// Which failure to reduce: the module as given or the sanitised one.
enum class ReduceSide { Original, Sanitized };

struct ReduceConfig {
  DifferentiateConfig Enzyme; ///< PluginPath: located; wrappers already added.
  /// Only this side; none: the sanitised failure when there is one (what
  /// remains after sanitising is what to report upstream), else the
  /// original's.
  std::optional<ReduceSide> Side;
  unsigned Jobs = 1;       ///< Candidates llvm-reduce tests at once.
  unsigned MaxSeconds = 0; ///< 0: no limit.
  std::string ReducerPath; ///< Empty: defaultLLVMReducePath().
  /// The interestingness test: llvm-reduce runs TestProgram TestArgs SIG
  /// CANDIDATE (the driver appends the signature file written in the work
  /// directory, llvm-reduce the candidate); exit 0 means "interesting".
  std::string TestProgram;
  std::vector<std::string> TestArgs;
  /// The reduced module's identifier and source_filename (the name of the
  /// file it will be written to, not llvm-reduce's work file).
  std::string ReducedName;
};

/// `reduce` ended early with this exit code and message: not an error of
/// the tool ("nothing to reduce" is an answer).
struct ReduceVerdict {
  ExitCode Code;
  std::string Message;
};

struct ReduceResult {
  std::string WorkDir; ///< Logs, signature.json, llvm-reduce's candidates.
  /// Set: there is no reduced module (the fields below may be partly set).
  std::optional<ReduceVerdict> Verdict;
  bool StoppedAtMaxTime = false; ///< MaxSeconds ran out; best module kept.
  ReduceSide Side = ReduceSide::Sanitized;
  FailureSignature Signature;
  ModuleSize Before; ///< The side reduced, as given to Enzyme.
  ModuleSize After;  ///< Reduced, named ReducedName.
  std::unique_ptr<llvm::LLVMContext> Context; ///< Owns Reduced.
  std::unique_ptr<llvm::Module> Reduced;      ///< Fails with Signature.
};

/// Errors (ExitCode::NoEnzyme) when Config's llvm-reduce is not there.
llvm::Error checkLLVMReduce(const ReduceConfig &Config);

/// Reduces the failure of \p Original (as given) or \p Sanitized, both with
/// wrappers, in \p WorkDir. Reports one note per step ("signature: ...")
/// and, while llvm-reduce runs, progress lines (its pass, the time and the
/// best size so far). Errors: Enzyme or llvm-reduce cannot be started, files
/// in WorkDir cannot be written or read.
llvm::Expected<ReduceResult> reduceEnzymeFailure(llvm::Module &Original,
                                                 llvm::Module &Sanitized,
                                                 llvm::StringRef WorkDir,
                                                 const ReduceConfig &Config,
                                                 DiagnosticHandler &Diags);

/// The interestingness test's decision: whether Enzyme (as \p Config says)
/// fails on the text IR \p CandidatePath with the signature in
/// \p SignaturePath. A candidate that no longer calls an Enzyme entry point
/// is not interesting. Errors: unreadable files or signature
/// (ExitCode::BadInput), no temporary log (ExitCode::OutputError), Enzyme
/// cannot be started (ExitCode::NoEnzyme).
llvm::Expected<bool> failsLikeSignature(llvm::StringRef CandidatePath,
                                        llvm::StringRef SignaturePath,
                                        const DifferentiateConfig &Config);

/// `ir-sanitize reduce INPUT -o MIN.ll`.
struct ReduceRequest {
  /// Input, Output (MIN.ll, the reproducer), how to sanitize, --report.
  SanitizeRequest Sanitize;
  DifferentiateConfig Enzyme; ///< PluginPath: ignored (see PluginPath).
  std::string PluginPath;     ///< --enzyme-plugin; empty: search for one.
  std::optional<ReduceSide> Side;
  unsigned Jobs = 1;
  unsigned MaxSeconds = 0;
  bool KeepTemps = false;  ///< Keep the work directory after a success.
  std::string ReducerPath; ///< Empty: defaultLLVMReducePath().
  /// The interestingness test: this program, which runs as
  /// `TestProgram reduce --enzyme-plugin=... --interestingness-test SIG
  /// CANDIDATE` and answers with failsLikeSignature.
  std::string TestProgram;
};

struct ReduceJobResult {
  std::string InputName;
  /// Set: nothing was written (the logs are kept in WorkDir).
  std::optional<ReduceVerdict> Verdict;
  std::string WorkDir;
};

/// `reduce` as one job: reads Req.Sanitize.Input into \p Ctx, locates the
/// plugin and llvm-reduce, checks that Output can be written, sanitizes
/// (reporting as `enzyme` does), reduces and writes the reproducer with a
/// header saying how to reproduce it with plain opt. The reduction's steps
/// are reported as progress "reduce: ...". Errors are ToolErrors; "nothing
/// to reduce" and the like are verdicts.
llvm::Expected<ReduceJobResult> runReduce(const ReduceRequest &Req,
                                          llvm::LLVMContext &Ctx,
                                          DiagnosticHandler &Diags);

} // namespace irs

#endif
