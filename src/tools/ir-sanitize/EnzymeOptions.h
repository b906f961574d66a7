//===- EnzymeOptions.h - Options of commands that run Enzyme ---*- C++ -*-===//
//
// `enzyme` and `reduce` take the same input, wrapper and Enzyme options
// (EnzymeOptions); `gpu-check` takes the same Enzyme plugin options.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H
#define IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H

#include "ir-sanitize/Driver/Differentiate.h"
#include "ir-sanitize/Enzyme/BundleProbe.h"

#include <CLI/CLI.hpp>

#include <string>

namespace irs::cli {

/// What the commands that differentiate a module take.
struct EnzymeOptions {
  std::string Input;
  std::string PluginPath; ///< --enzyme-plugin; empty: search.
  /// --fn, --mode, --activity, --enzyme-timeout, --enzyme-arg (its
  /// PluginPath is the driver's to fill in).
  DifferentiateConfig Enzyme;
};

/// --enzyme-plugin and --enzyme-timeout: where Enzyme is and how long it
/// may run, for every command that runs it.
void addEnzymePluginOptions(CLI::App &App, std::string &PluginPath,
                            unsigned &TimeoutSeconds);

/// Where the answers of asked Enzymes are kept: $IRS_CACHE_DIR, else
/// ir-sanitize/ in the user's cache directory ($XDG_CACHE_HOME or
/// ~/.cache); empty when there is none.
std::string probeCacheDir();

/// "asked Enzyme PATH (sha256 PREFIX...): N probes run, M answers from the
/// cache FILE", for a note.
std::string describeProbe(const ProbeReport &R);

/// INPUT, --fn, --mode, --activity, --enzyme-plugin, --enzyme-timeout and
/// --enzyme-arg.
void addEnzymeOptions(CLI::App &App, EnzymeOptions &O);

} // namespace irs::cli

#endif
