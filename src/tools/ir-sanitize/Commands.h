//===- Commands.h - The ir-sanitize subcommands -----------------*- C++ -*-===//
//
// main.cpp builds one CLI11 app; each command adds its options to the app (or
// a subcommand of it) and runs when that is what the user asked for. Every
// command lives in its own file and returns a documented exit code.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_COMMANDS_H
#define IR_SANITIZE_TOOLS_COMMANDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <memory>

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
/// `enzyme INPUT`: sanitise, differentiate with Enzyme (EnzymeCommand.cpp).
std::unique_ptr<Command> createEnzymeCommand();
/// `gpu-check INPUT --spec SPEC`: derivatives on a GPU (GpuCheckCommand.cpp).
std::unique_ptr<Command> createGpuCheckCommand();
/// All subcommands, in the order `--help` lists them.
std::vector<Subcommand> createSubcommands();

/// The name used in messages ("ir-sanitize").
constexpr const char *ToolName = "ir-sanitize";

/// Prints \p Warning (if any) as one `warning:` line.
inline void printWarning(llvm::StringRef Warning) {
  if (!Warning.empty())
    llvm::errs() << ToolName << ": warning: " << Warning << "\n";
}

} // namespace irs::cli

#endif
