//===- EnzymeOptions.h - Options of commands that run Enzyme ---*- C++ -*-===//
//
// `enzyme` and `reduce` take the same input, driver and Enzyme options and
// prepare the modules Enzyme runs on the same way; `gpu-check` takes the same
// Enzyme plugin options. This is that shared part.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H
#define IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H

#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/Differentiate.h"
#include "ir-sanitize/Support/ModuleReader.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace irs::cli {

/// --enzyme-plugin and --enzyme-timeout: where Enzyme is and how long it
/// may run, for every command that runs it.
void addEnzymePluginOptions(CLI::App &App, std::string &PluginPath,
                            unsigned &TimeoutSeconds);

/// INPUT, --fn, --mode, --activity, --enzyme-plugin, --enzyme-timeout and
/// --enzyme-arg: what the commands that differentiate a module take.
void addEnzymeRunOptions(CLI::App &App, std::string &Input,
                         std::string &PluginPath, DifferentiateConfig &D);

/// Sanitises \p LM (printing the summary, writing --report) and adds the
/// derivative driver \p D asks for.
llvm::Expected<SanitizeResult> sanitizeWithDriver(LoadedModule &LM,
                                                  const SanitizeOptions &Opts,
                                                  const DifferentiateConfig &D);

/// What a triage or a reduction runs Enzyme on: the module sanitised in
/// place (the caller's LoadedModule), a copy of it as given, and a work
/// directory for both.
struct EnzymeSides {
  std::unique_ptr<llvm::Module> Original;
  SanitizeResult Result; ///< How the module was sanitised.
  std::string WorkDir;
};

/// Sanitises \p LM in place and copies it as given first, both with drivers
/// (the original's where its signature allows the same activities; notes on
/// stderr where it does not), and creates the work directory.
llvm::Expected<EnzymeSides> prepareEnzymeSides(LoadedModule &LM,
                                               const SanitizeOptions &Opts,
                                               const DifferentiateConfig &D);

} // namespace irs::cli

#endif
