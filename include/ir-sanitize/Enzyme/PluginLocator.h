//===- PluginLocator.h - Finding a usable Enzyme plugin ---------*- C++ -*-===//
//
// Enzyme is an opt plugin (LLVMEnzyme-<major>.so) that must match the LLVM
// major version of the opt that loads it. The plugin is looked for, in order,
// at --enzyme-plugin, $ENZYME_PLUGIN, next to the ir-sanitize binary, at the
// CMake-configured default (IRS_ENZYME_PLUGIN) and in the usual library
// directories. Candidates are inspected as files, never loaded: a plugin built
// for another LLVM would take this process down with it.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_PLUGINLOCATOR_H
#define IR_SANITIZE_ENZYME_PLUGINLOCATOR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace irs {

/// The LLVM major version this build of ir-sanitize (and its opt) uses.
unsigned hostLLVMMajor();

/// "LLVMEnzyme-19.so" for \p Major.
std::string enzymePluginFileName(unsigned Major);

struct PluginSearch {
  std::string Explicit;       ///< --enzyme-plugin; empty if not given.
  std::string ExecutablePath; ///< ir-sanitize itself ("next to the binary").
  unsigned LLVMMajor = 0;     ///< 0: hostLLVMMajor().
  bool UseEnvironment = true; ///< Consult $ENZYME_PLUGIN.
  bool UseConfiguredDefault = true;     ///< Consult IRS_DEFAULT_ENZYME_PLUGIN.
  std::vector<std::string> LibraryDirs; ///< Empty: defaultLibraryDirs().
};

/// /usr/local/lib, /usr/lib, /usr/lib/llvm-<major>/lib, ... in search order.
std::vector<std::string> defaultLibraryDirs(unsigned Major);

/// What inspecting a plugin file told us.
struct PluginInfo {
  std::string Path;
  std::optional<unsigned> LLVMMajor; ///< From DT_NEEDED libLLVM or the name.
  std::string LLVMLibrary;    ///< The libLLVM it needs (DT_NEEDED), if any.
  bool HasEntryPoint = false; ///< Exports llvmGetPassPluginInfo.
};

/// Reads \p Path as an ELF shared object without loading it. Errors: the file
/// is missing, not a shared library.
llvm::Expected<PluginInfo> inspectPlugin(llvm::StringRef Path);

/// inspectPlugin, then refuses a plugin built for another LLVM major, one
/// linked against Julia's own libLLVM (libLLVM-18jl.so: Enzyme_jll's, which
/// only Julia can load), or one without the pass-plugin entry point. Errors are
/// ExitCode::NoEnzyme.
llvm::Expected<PluginInfo> checkPlugin(llvm::StringRef Path, unsigned Major);

/// Where the plugin was found (for messages): "--enzyme-plugin",
/// "ENZYME_PLUGIN", "next to ir-sanitize", "configured default", "search".
struct LocatedPlugin {
  std::string Path;
  std::string Origin;
};

/// Runs the search above. A plugin named explicitly (option or environment)
/// that is unusable is an error, not skipped. Nothing found: ExitCode::NoEnzyme
/// with one line saying where it looked and how to name one.
llvm::Expected<LocatedPlugin> locateEnzymePlugin(const PluginSearch &Search);

} // namespace irs

#endif
