//===- EnzymeRunner.h - Running Enzyme on a module file ---------*- C++ -*-===//
//
// Runs `opt IN -load-pass-plugin=P -load=P -enzyme-preopt=false
// -passes=enzyme -o OUT` in a child process (the plugin links Debian's shared
// libLLVM, so it must run in an opt from the same LLVM; an Enzyme abort then
// cannot take ir-sanitize down) and turns its log into a diagnosis: the
// signal or exit status, Enzyme's own message, the function it was working on.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_ENZYMERUNNER_H
#define IR_SANITIZE_ENZYME_ENZYMERUNNER_H

#include "ir-sanitize/Support/ChildProcess.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace irs {

struct EnzymeInvocation {
  std::string InputPath;  ///< Module file (.ll or .bc) with __enzyme_* calls.
  std::string OutputPath; ///< Where opt writes the differentiated module.
  std::string PluginPath; ///< LLVMEnzyme-<major>.so (see PluginLocator.h).
  std::string LogPath;    ///< opt's stdout + stderr; kept for the user.
  std::string OptPath;    ///< Empty: opt from IRS_LLVM_TOOLS_DIR.
  unsigned TimeoutSeconds = 300; ///< 0: no limit.
  bool TextOutput = false;       ///< -S (else bitcode).
  /// The module registers rules (registersEnzymeRules): Enzyme's
  /// preserve-nvvm step, which reads them, runs first.
  bool ModuleRules = false;
  /// Let a crashing opt run llvm-symbolizer on its stack dump. Off, the dump
  /// names exported symbols only (enough for the plugin frames) and a crash
  /// costs a fraction of the time: what a reduction running Enzyme hundreds
  /// of times wants.
  bool Symbolize = true;
  std::vector<std::string> ExtraArgs; ///< Appended to opt's command line.
};

/// opt's argument list (without argv[0]) for \p Inv.
std::vector<std::string> enzymeOptArgs(const EnzymeInvocation &Inv);
/// `opt ARGS...` as enzymeOptArgs has them less the input and `-o OUTPUT`:
/// the command reading stdin and writing stdout, as a --print-pipeline-passes
/// stage shows it.
std::string enzymeCommandLine(const EnzymeInvocation &Inv);
/// The opt that belongs to this build's LLVM.
std::string defaultOptPath();

/// What an Enzyme log says went wrong. Fields are empty when the log does not
/// say.
struct EnzymeLogDiagnosis {
  std::string Message;     ///< "unsupported tag gc-transition for <inst>".
  std::string Instruction; ///< The instruction Enzyme quoted, if any.
  std::string Function;    ///< Named by an "in function F" diagnostic.
  std::string Phase;       ///< "forward mode (CreateForwardDiff)", ...
  std::string Where;       ///< "GradientUtils.cpp:308" (UNREACHABLE/assert).
  std::string Frame;       ///< Innermost plugin frame of the stack dump.
  std::string Differentiating; ///< Functions given to __enzyme_* calls.
};

/// Reads a log of opt + Enzyme (stderr, LLVM stack dump included).
EnzymeLogDiagnosis diagnoseEnzymeLog(llvm::StringRef Log);

/// The function of \p M that holds an instruction printing as \p Inst
/// (whitespace-trimmed), or "" if none does.
std::string findFunctionWithInstruction(const llvm::Module &M,
                                        llvm::StringRef Inst);

/// The functions passed to __enzyme_fwddiff / __enzyme_autodiff / ... in \p M
/// (NAME for the copy NAME.primal a generated wrapper differentiates).
std::vector<std::string> differentiatedFunctions(const llvm::Module &M);

struct EnzymeResult {
  ChildOutcome Outcome;
  unsigned TimeoutSeconds = 0;
  EnzymeLogDiagnosis Diagnosis; ///< Filled when the run failed.
  std::string LogPath;
  std::string OutputPath;

  /// opt exited 0 but left OutputPath missing or empty: Enzyme failed.
  bool WroteNoOutput = false;

  bool ok() const { return Outcome.succeeded() && !WroteNoOutput; }
  /// "ok", "aborted (signal 6 (SIGABRT)): unsupported tag ... [in julia_f]",
  /// "failed (exit status 1): ...", "timed out after 300 s".
  std::string summary() const;
};

/// A started Enzyme run; finish() waits for it and reads its log.
class PendingEnzymeRun {
public:
  PendingEnzymeRun(ChildProcess Child, EnzymeInvocation Inv)
      : Child(std::move(Child)), Inv(std::move(Inv)) {}
  EnzymeResult finish();

private:
  ChildProcess Child;
  EnzymeInvocation Inv;
};

/// Starts opt on \p Inv. Errors (opt or the log cannot be started/created)
/// are ToolErrors; a failing Enzyme is a result, not an error.
llvm::Expected<PendingEnzymeRun> startEnzyme(const EnzymeInvocation &Inv);

/// startEnzyme() then finish().
llvm::Expected<EnzymeResult> runEnzyme(const EnzymeInvocation &Inv);

/// Fills Diagnosis.Function from \p Input when the log only quoted an
/// instruction (Enzyme's unsupported-tag abort names no function).
void attributeToFunction(EnzymeResult &R, const llvm::Module &Input);

} // namespace irs

#endif
