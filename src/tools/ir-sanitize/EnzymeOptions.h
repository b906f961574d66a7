//===- EnzymeOptions.h - Options of the commands that run Enzyme -*- C++
//-*-===//
//
// `enzyme` and `reduce` take the same input, driver and Enzyme options and
// prepare the modules Enzyme runs on the same way; this is that shared part.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H
#define IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H

#include "SanitizeOptions.h"

#include "ir-sanitize/Driver/Differentiate.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace irs::cli {

/// INPUT, --fn, --mode, --activity, --enzyme-plugin, --enzyme-timeout and
/// --enzyme-arg: what every command that runs Enzyme takes.
void addEnzymeRunOptions(CLI::App &App, std::string &Input,
                         std::string &PluginPath, DifferentiateConfig &D);

/// Sanitises \p LM (printing the summary, writing --report) and adds the
/// derivative driver \p D asks for.
llvm::Expected<SanitizeResult> sanitizeWithDriver(LoadedModule &LM,
                                                  const SanitizeOptions &Opts,
                                                  const DifferentiateConfig &D);

/// The two sides of a triage: \p LM sanitised in place (\p Result) and a
/// copy of it as given, both with drivers (the original's where its
/// signature allows the same activities; notes on stderr where it does not).
llvm::Expected<std::unique_ptr<llvm::Module>>
prepareOriginalAndSanitised(LoadedModule &LM, const SanitizeOptions &Opts,
                            const DifferentiateConfig &D,
                            SanitizeResult &Result);

} // namespace irs::cli

#endif
