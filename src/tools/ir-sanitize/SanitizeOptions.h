//===- SanitizeOptions.h - Options shared by rewriting commands -*- C++ -*-===//
//
// The default command, `enzyme` and `gpu-check` all sanitise first, with the
// same options; they share this struct, the code that registers it and
// turns it into the driver's configuration, and the printing of what the
// driver did (SanitizeOptions.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H
#define IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Support/ModuleReader.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

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
  bool NoSplat = false;             ///< --no-splat
  std::vector<std::string> Kernels; ///< --kernel NAME, repeatable.
  std::string ManifestPath;         ///< --manifest=FILE
};

/// Registers the options above on \p App. Malformed --bundle / --scope values
/// are rejected while parsing (exit code 2).
void addSanitizeOptions(CLI::App &App, SanitizeOptions &Opts);

/// The driver's configuration the options describe (validated while
/// parsing).
SanitizeConfig sanitizeConfig(const SanitizeOptions &Opts);

/// Where the default command and `enzyme` write: \p Output (-o) in the
/// format --emit or its name says, the manifest (--manifest, or next to a
/// file output) and, with \p WithReport, --report.
SanitizeOutputs sanitizeOutputs(const SanitizeOptions &Opts,
                                const SanitizeResult &Result,
                                const LoadedModule &Input,
                                llvm::StringRef Output, llvm::StringRef Emit,
                                bool WithReport);

/// Prints the splat's notes and the one-line summary naming \p InputName,
/// unless -q.
void printSanitized(const SanitizeOptions &Opts, const SanitizeResult &Result,
                    llvm::StringRef InputName);

/// Writes --report now (for commands whose main output comes much later).
llvm::Error writeReport(const SanitizeOptions &Opts,
                        const SanitizeResult &Result,
                        llvm::StringRef InputName);

/// Prints what the user should know after the outputs were written: that a
/// splatted module went to stdout without its manifest.
void printAfterWrite(const SanitizeOptions &Opts, const SanitizeResult &Result,
                     const SanitizeOutputs &Out);

} // namespace irs::cli

#endif
