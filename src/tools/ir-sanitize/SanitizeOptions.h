//===- SanitizeOptions.h - Options shared by rewriting commands -*- C++ -*-===//
//
// The default command, `enzyme` and `gpu-check` all sanitise first, with the
// same options; they share this struct and the code that registers and runs
// it (SanitizeOptions.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H
#define IR_SANITIZE_TOOLS_SANITIZEOPTIONS_H

#include "ir-sanitize/Support/BundleReport.h"
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <thread>
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

/// Registers the options above on \p App. Malformed --bundle / --scope values
/// are rejected while parsing (exit code 2).
void addSanitizeOptions(CLI::App &App, SanitizeOptions &Opts);

/// What the sanitize steps did.
struct SanitizeResult {
  BundleReport Bundles;
  /// The splatted kernels (none under --no-splat).
  LaunchManifest Manifest;
};

/// Runs the sanitize steps on \p M as \p Opts say (bundle normalisation, then
/// the kernel splat), writes --report and prints the one-line summary naming
/// \p InputName unless -q. Errors are ToolErrors carrying their exit code.
/// Callers write the module afterwards (irs::writeModule verifies it).
llvm::Error runSanitizePipeline(llvm::Module &M, const SanitizeOptions &Opts,
                                llvm::StringRef InputName,
                                SanitizeResult &Result);

/// Writes Result.Manifest to --manifest, or else next to \p Output (a file,
/// not stdout) as OUTPUT.manifest.json when a kernel was splatted. Call it
/// once the output is written, so that a failed run leaves no manifest.
llvm::Error writeManifest(const SanitizeOptions &Opts,
                          const SanitizeResult &Result,
                          llvm::StringRef Output);

/// writeManifest in two steps, so that the manifest is written while the
/// module is: the constructor starts serialising it into a temporary file on
/// a second thread; commit(), called once the module is written, waits for
/// that and renames the file into place. Destroyed uncommitted (the module
/// could not be written), it leaves no file. A manifest written in place
/// (stdout, a device, a FIFO) is written by commit(), after the module.
/// \p Result must outlive it.
class ManifestWriter {
public:
  ManifestWriter(const SanitizeOptions &Opts, const SanitizeResult &Result,
                 llvm::StringRef Output);
  ManifestWriter(const ManifestWriter &) = delete;
  ManifestWriter &operator=(const ManifestWriter &) = delete;
  ~ManifestWriter();
  llvm::Error commit();

private:
  void wait();

  const SanitizeOptions &Opts;
  const LaunchManifest &Manifest;
  std::string Path; ///< Empty: no manifest.
  std::thread Writer;
  std::unique_ptr<AtomicOutputFile> File;         ///< Set by Writer.
  llvm::Error OpenError = llvm::Error::success(); ///< Set by Writer.
};

} // namespace irs::cli

#endif
