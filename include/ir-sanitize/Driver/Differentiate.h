//===- Differentiate.h - The Enzyme pipeline --------------------*- C++ -*-===//
//
// `ir-sanitize enzyme` without the command line: add a derivative driver,
// run Enzyme on the sanitised module in a child opt (in a work directory
// that keeps the evidence), put stashed bundles back into its output and
// write it; or, for a triage, run Enzyme on the module as given and on the
// sanitised one side by side. Nothing here prints.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_DIFFERENTIATE_H
#define IR_SANITIZE_DRIVER_DIFFERENTIATE_H

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Enzyme/Triage.h"
#include "ir-sanitize/Transforms/BundleRestore.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

struct DifferentiateConfig {
  /// Add a driver NAME.fwd / NAME.rev differentiating this function; empty:
  /// the module must bring its own __enzyme_fwddiff/__enzyme_autodiff calls.
  std::string Fn;
  std::string Mode;                  ///< forward|reverse (fwd|rev), with Fn.
  std::vector<std::string> Activity; ///< KEY=ACTIVITY settings, with Fn.
  std::string PluginPath;            ///< LLVMEnzyme-<major>.so, located.
  std::string LogPath;               ///< Empty: in the work directory.
  std::vector<std::string> ExtraOptArgs;
  unsigned TimeoutSeconds = 300; ///< 0: no limit.
};

/// Adds the driver \p Config asks for to \p M, or checks that \p M brings
/// __enzyme_* calls (ExitCode::Usage otherwise). \p Manifest: the splat of
/// Config.Fn, for manifest-path activity keys. With \p LenientNotes (the
/// original side of a triage, not splatted), keys that name no parameter
/// fall back to the default activities, with a note saying so.
llvm::Error
addDerivativeWrapper(llvm::Module &M, const DifferentiateConfig &Config,
                     llvm::StringRef InputName, const KernelManifest *Manifest,
                     std::vector<std::string> *LenientNotes = nullptr);

/// A fresh directory for the files handed to and received from Enzyme.
llvm::Expected<std::string> createEnzymeWorkDir();

/// Writes \p M as \p Stem.ll into \p WorkDir and describes the opt run on
/// it (log: \p LogPath, or next to it).
llvm::Expected<EnzymeInvocation>
prepareEnzymeRun(llvm::Module &M, llvm::StringRef WorkDir, llvm::StringRef Stem,
                 llvm::StringRef LogPath, const DifferentiateConfig &Config);

/// Runs Enzyme on \p M (drivers added) in \p WorkDir. A failing Enzyme is a
/// result, attributed to the function of \p M it failed in.
llvm::Expected<EnzymeResult> differentiateModule(llvm::Module &M,
                                                 llvm::StringRef WorkDir,
                                                 const DifferentiateConfig &C);

/// Runs Enzyme on \p Original (as given, drivers added) and \p Sanitized
/// side by side in \p WorkDir; \p Result (the sanitize run) says what
/// changed between them.
llvm::Expected<TriageReport>
triageModules(llvm::Module &Original, llvm::Module &Sanitized,
              const SanitizeResult &Result, llvm::StringRef InputName,
              llvm::StringRef WorkDir, const DifferentiateConfig &C);

/// Reads Enzyme's output (\p R), re-attaches stashed bundles and writes it
/// with the manifest as \p Out says, together (see writeSanitizeOutputs).
llvm::Expected<RestoreStats> writeDifferentiated(const EnzymeResult &R,
                                                 const SanitizeResult &Result,
                                                 const SanitizeOutputs &Out);

/// One line per splatted kernel and per call site the sanitiser touched (at
/// most a screenful), for a triage report.
std::vector<std::string> describeChanges(const SanitizeResult &Result);

} // namespace irs

#endif
