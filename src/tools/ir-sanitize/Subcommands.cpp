//===- Subcommands.cpp - The list of ir-sanitize subcommands --------------===//
#include "Commands.h"

namespace irs::cli {

// Each command file defines its factory; keep one line per subcommand here.
std::vector<Subcommand> createSubcommands() {
  std::vector<Subcommand> Subs;
  Subs.push_back({"check", "list what makes Enzyme abort; change nothing",
                  createCheckCommand()});
  Subs.push_back({"restore", "re-attach bundles stashed by a previous run",
                  createRestoreCommand()});
  Subs.push_back({"enzyme",
                  "sanitise, then differentiate with Enzyme in a child process "
                  "(--triage: compare with the original)",
                  createEnzymeCommand()});
  Subs.push_back({"reduce",
                  "cut a module Enzyme fails on down to a minimal reproducer "
                  "(llvm-reduce, same failure signature)",
                  createReduceCommand()});
  Subs.push_back({"gpu-check",
                  "compile primal and Enzyme derivative kernels to PTX and "
                  "check them on a CUDA GPU",
                  createGPUCheckCommand()});
  return Subs;
}

} // namespace irs::cli
