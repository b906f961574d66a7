//===- Commands.h - The ir-sanitize subcommands -----------------*- C++ -*-===//
//
// ir-sanitize.cpp builds one CLI11 app; each command adds its options to the
// app (or a subcommand of it) and runs when that is what the user asked for.
// Every command lives in its own file: it parses its options into the driver's
// request, makes one driver call, prints what comes back (the driver's notes
// arrive through a CLIDiagnosticHandler) and returns a documented exit code.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_COMMANDS_H
#define IR_SANITIZE_TOOLS_COMMANDS_H

#include "ir-sanitize/Driver/PipelineStage.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <vector>

namespace irs::cli {

class Command {
public:
  virtual ~Command() = default;
  /// Adds this command's options to \p App (the root app for the default
  /// command, a subcommand otherwise).
  virtual void addOptions(CLI::App &App) = 0;
  /// Runs after a successful parse; returns the process exit code.
  virtual int run() = 0;
};

/// A subcommand: name, one-line description, command.
struct Subcommand {
  const char *Name;
  const char *Description;
  std::unique_ptr<Command> Cmd;
};

/// `ir-sanitize INPUT [-o OUTPUT]`: the default rewrite.
std::unique_ptr<Command> createSanitizeCommand();
/// `check INPUT`: list what makes Enzyme abort (CheckCommand.cpp).
std::unique_ptr<Command> createCheckCommand();
/// `restore INPUT`: put stashed bundles back (RestoreCommand.cpp).
std::unique_ptr<Command> createRestoreCommand();
/// `enzyme INPUT`: sanitize, differentiate with Enzyme (EnzymeCommand.cpp).
std::unique_ptr<Command> createEnzymeCommand();
/// `reduce INPUT -o MIN.ll`: a minimal module Enzyme still fails on
/// (ReduceCommand.cpp).
std::unique_ptr<Command> createReduceCommand();
/// `gpu-check INPUT --spec SPEC`: derivatives on a GPU (GPUCheckCommand.cpp).
std::unique_ptr<Command> createGPUCheckCommand();
/// All subcommands, in the order `--help` lists them.
std::vector<Subcommand> createSubcommands();

/// `--print-pipeline-passes` on \p App: every command that runs passes
/// prints them as opt with the plugin replays them, after reading its input.
void addPrintPipelineFlag(CLI::App &App, bool &Flag, llvm::StringRef Form = "");

/// What `--print-pipeline-passes` ends with: \p Text on stdout and exit 0,
/// or the error's line and exit code.
int printPipelineText(llvm::Expected<std::string> Text);

/// The same for a command of several stages: one line each.
int printStages(llvm::Expected<std::vector<PipelineStage>> Stages);

/// The name used in messages ("ir-sanitize").
constexpr const char *ToolName = "ir-sanitize";

/// \p Code as the process exit status.
inline int exitCode(ExitCode Code) { return static_cast<int>(Code); }

/// What the driver reports, as the command line has always printed it, one
/// line each on stderr: `ir-sanitize: note: MSG`, `ir-sanitize: warning:
/// MSG`, and progress as `ir-sanitize: MSG`. With -q (\p Quiet) only warnings
/// are printed.
class CLIDiagnosticHandler final : public DiagnosticHandler {
public:
  explicit CLIDiagnosticHandler(bool Quiet = false) : Quiet(Quiet) {}
  void handle(DiagnosticKind Kind, const std::string &Message) override;

private:
  bool Quiet;
};

/// Prints `<tool>: error: <message>` (one line) for every error in \p E and
/// returns the exit code of the first one; plain llvm errors map to
/// \p Default.
int reportError(llvm::Error E, llvm::StringRef Tool,
                ExitCode Default = ExitCode::BadInput);

/// The context of a command that exits right after its work. Like clang's
/// -disable-free, neither it nor the modules given to keepUntilExit are
/// torn down (about 5% of a big module's run); both stay reachable from a
/// global, so that leak checkers (the ASan build) do not report them.
llvm::LLVMContext &processLifetimeContext();

/// Keeps \p M, untorn, until the process exits.
void keepUntilExit(std::unique_ptr<llvm::Module> M);

} // namespace irs::cli

#endif
