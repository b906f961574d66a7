//===- Reducer.h - A failing module cut down by llvm-reduce -----*- C++ -*-===//
//
// `ir-sanitize reduce` hands the module Enzyme fails on to llvm-reduce (from
// the same LLVM as opt) with an interestingness test that is ir-sanitize
// itself: "Enzyme still fails on this candidate with the same signature".
// This file runs llvm-reduce in a child process, turns its log into progress
// events for the caller and measures modules; it prints nothing.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_REDUCER_H
#define IR_SANITIZE_ENZYME_REDUCER_H

#include "ir-sanitize/Support/ChildProcess.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irs {

/// How big a module is, for progress and the reproducer's header.
struct ModuleSize {
  size_t Functions = 0; ///< Functions with a body.
  size_t Instructions = 0;
  uint64_t Bytes = 0; ///< Of the module printed as text.

  /// Counts \p M and prints it to count its bytes.
  static ModuleSize of(const llvm::Module &M);
  /// "3 functions, 12 instructions, 1,234 bytes".
  std::string describe() const;
};

/// The llvm-reduce of this build's LLVM (next to its opt).
std::string defaultLLVMReducePath();

/// Whether the text IR \p IR still calls an Enzyme entry point
/// (`call ... @__enzyme_autodiff(...)`, ...): a declaration alone does not
/// count. Textual, because the interestingness test runs on every candidate
/// and opt parses it anyway; llvm-reduce writes candidates as text.
bool callsEnzymeEntryPoint(llvm::StringRef IR);

struct LLVMReduceRequest {
  std::string ReducerPath;           ///< Empty: defaultLLVMReducePath().
  std::string InputPath;             ///< The failing module, text IR.
  std::string OutputPath;            ///< llvm-reduce's best candidate so far.
  std::string LogPath;               ///< llvm-reduce's stdout and stderr.
  std::string TestProgram;           ///< The interestingness test.
  std::vector<std::string> TestArgs; ///< llvm-reduce appends the candidate.
  unsigned Jobs = 1;                 ///< Candidates tested at once.
  unsigned MaxSeconds = 0;           ///< 0: no limit.
};

/// llvm-reduce's argument list (without argv[0]) for \p R.
std::vector<std::string> llvmReduceArgs(const LLVMReduceRequest &R);

/// What the caller hears while llvm-reduce runs: the delta pass it is in
/// ("Reducing Functions"), the time since it started and the size of the
/// best candidate so far.
struct ReduceProgress {
  std::string Pass;
  double Seconds = 0;
  uint64_t BestBytes = 0;
};

struct ReduceOutcome {
  ChildOutcome Child; ///< TimedOut: stopped at MaxSeconds.
  bool stoppedAtMaxTime() const {
    return Child.How == ChildOutcome::Kind::TimedOut;
  }
  bool finished() const { return Child.succeeded(); }
};

/// Runs llvm-reduce on \p R, calling \p OnProgress when it enters a pass or
/// saves a smaller candidate. At MaxSeconds llvm-reduce and its tests are
/// killed; OutputPath then holds the best candidate written so far (if any).
/// Errors: llvm-reduce cannot be started (ExitCode::NoEnzyme) or its log
/// cannot be created.
llvm::Expected<ReduceOutcome>
runLLVMReduce(const LLVMReduceRequest &R,
              llvm::function_ref<void(const ReduceProgress &)> OnProgress);

} // namespace irs

#endif
