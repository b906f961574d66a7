//===- SanitizeOptions.h - Options shared by rewriting commands -*- C++ -*-===//
//
// The default command, `enzyme` and `gpu-check` all sanitise first, with the
// same options; they share this struct and the code that registers and runs
// it (SanitizeOptions.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H
#define IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace irs::cli {

struct SanitizeOptions {
  // Bundle normalisation.
  std::vector<std::string> BundleActions; ///< "TAG=ACTION", repeatable.
  std::string Scope = "ccalls";           ///< "ccalls" | "all".
  std::string ReportPath;                 ///< --report=FILE (JSON).
  bool Quiet = false;                     ///< -q: no summary on stderr.
  // Kernel splat.
  bool NoSplat = false;                   ///< --no-splat
  std::vector<std::string> Kernels;       ///< --kernel NAME, repeatable.
  std::string ManifestPath;               ///< --manifest=FILE
};

/// Registers the options above on \p App.
void addSanitizeOptions(CLI::App &App, SanitizeOptions &Opts);

} // namespace irs::cli

#endif
