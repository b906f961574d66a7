//===- SanitizeOptions.h - Options shared by rewriting commands -*- C++ -*-===//
//
// The default command, `enzyme`, `reduce` and `gpu-check` all sanitize
// first, with the same options; they share this struct, the code that
// registers it and turns it into the driver's request (SanitizeOptions.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H
#define IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Support/BundlePolicy.h"

#include "llvm/ADT/StringRef.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace irs::cli {

struct SanitizeOptions {
  // Bundle normalization.
  std::vector<std::string> BundleActions; ///< "TAG=ACTION", repeatable.
  BundlePolicy Policy;          ///< BundleActions, applied while parsing.
  std::string Scope = "ccalls"; ///< "ccalls" | "all".
  std::string ReportPath;       ///< --report=FILE (JSON).
  bool Quiet = false;           ///< -q: no summary on stderr.
  // Kernel splat.
  bool NoSplat = false;             ///< --no-splat
  bool NoWarpRules = false;         ///< --no-warp-rules
  std::vector<std::string> Kernels; ///< --kernel NAME, repeatable.
  std::string ManifestPath;         ///< --manifest=FILE
};

/// Registers the options above on \p App. Malformed --bundle / --scope values
/// are rejected while parsing (exit code 2).
void addSanitizeOptions(CLI::App &App, SanitizeOptions &Opts);

/// The driver's configuration the options describe (validated while
/// parsing).
SanitizeConfig sanitizeConfig(const SanitizeOptions &Opts);

/// The driver's request for \p Input written to \p Output (-o) in format
/// \p Emit (--emit), with these options.
SanitizeRequest sanitizeRequest(const SanitizeOptions &Opts,
                                llvm::StringRef Input, llvm::StringRef Output,
                                llvm::StringRef Emit);

} // namespace irs::cli

#endif
