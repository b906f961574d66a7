//===- EnzymeOptions.h - Options of the commands that run Enzyme -*- C++ -*-===//
//
// `enzyme` and `reduce` take the same input, driver and Enzyme options and
// prepare the module Enzyme runs on the same way; this is that shared part.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H
#define IR_SANITIZE_TOOLS_ENZYMEOPTIONS_H

#include "SanitizeOptions.h"

#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace irs::cli {

struct EnzymeOptions {
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  std::string Fn;
  std::string Mode;
  std::vector<std::string> Activity;
  std::string PluginPath;
  std::string LogPath;
  std::vector<std::string> ExtraOptArgs;
  unsigned TimeoutSeconds = 300;
  bool Triage = false;
  bool Json = false;
  bool EmitDriverOnly = false;
  bool KeepTemps = false;
};

/// INPUT, --fn, --mode, --activity, --enzyme-plugin, --enzyme-timeout and
/// --enzyme-arg: what every command that runs Enzyme takes.
void addEnzymeRunOptions(CLI::App &App, EnzymeOptions &O);

/// The plugin --enzyme-plugin names or the search finds.
llvm::Expected<LocatedPlugin> findPlugin(const EnzymeOptions &O);

/// The module needs drivers: either it brings __enzyme_* calls or we add the
/// one --fn/--mode/--activity ask for. \p Lenient (the original side of a
/// triage, whose kernel is not splatted): activity keys that name no
/// parameter there fall back to the defaults, with a note.
llvm::Error prepareDrivers(llvm::Module &M, const EnzymeOptions &O,
                           llvm::StringRef InputName,
                           const KernelManifest *Manifest,
                           bool Lenient = false);

/// The two modules a triage compares: sanitises \p LM in place (\p Result
/// says what changed) and returns a copy of it as given; both get drivers
/// (the original's where its signature allows the same activities).
llvm::Expected<std::unique_ptr<llvm::Module>>
prepareOriginalAndSanitised(LoadedModule &LM, const EnzymeOptions &O,
                            const SanitizeOptions &Opts,
                            SanitizeResult &Result);

/// A fresh directory for the files handed to and received from Enzyme.
llvm::Expected<std::string> makeWorkDir();

/// \p Dir / \p File.
std::string inDir(llvm::StringRef Dir, llvm::StringRef File);

/// Writes \p M as \p Stem.ll into \p WorkDir and describes the opt run on
/// it (log: \p LogPath, or Stem.enzyme.log in \p WorkDir).
llvm::Expected<EnzymeInvocation>
prepareRun(llvm::Module &M, llvm::StringRef WorkDir, llvm::StringRef Stem,
           llvm::StringRef LogPath, const LocatedPlugin &Plugin,
           const EnzymeOptions &O);

} // namespace irs::cli

#endif
