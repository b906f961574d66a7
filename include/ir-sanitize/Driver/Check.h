//===- Check.h - What `ir-sanitize check` reports ---------------*- C++ -*-===//
//
// `check` changes nothing; it reports one section per kind of construct that
// needs ir-sanitize. Each section is collected by one function; add a kind
// by writing its collector in its own file and listing it in
// collectCheckSections (Check.cpp). runCheck is the whole command (read,
// collect, print to stdout); the C API collects on its module and prints the
// same JSON (printCheckJSON).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_CHECK_H
#define IR_SANITIZE_DRIVER_CHECK_H

#include "ir-sanitize/Enzyme/BundleProbe.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/Diagnostics.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irs {

struct CheckOptions {
  BundleScope Scope = BundleScope::CCalls;
  /// The answers of the Enzyme the user has (probeModuleBundles); null:
  /// report against what is known of every Enzyme (knownEnzymeSupport).
  const ProbeReport *Enzyme = nullptr;
};

/// One finding: a text line and the same facts as JSON fields. Kept flat
/// (no json::Object per finding) so that checking a module with tens of
/// thousands of findings stays cheap.
struct CheckFinding {
  std::string Text;
  std::vector<std::pair<std::string, llvm::json::Value>> Fields;
};

struct CheckSection {
  std::string Key;      ///< JSON key, e.g. "bundles".
  std::string Title;    ///< Heading in the text output.
  bool Blocking = true; ///< Whether its findings make Enzyme abort (exit 1).
  std::vector<CheckFinding> Findings;
};

/// Asks the plugin at \p PluginPath about every bundle shape on \p M's
/// in-scope calls (BundleProbe.h), in a work directory of its own, with the
/// answers cached under \p CacheDir (empty: no cache). Errors: the plugin
/// cannot be used with this build's opt (ExitCode::NoEnzyme), a probe
/// cannot be started.
llvm::Expected<ProbeReport> probeModuleBundles(llvm::Module &M,
                                               BundleScope Scope,
                                               llvm::StringRef PluginPath,
                                               llvm::StringRef CacheDir);

/// Kernels whose aggregate parameters the splat would rewrite, with leaf
/// counts (CheckKernels.cpp). Informational: does not fail `check`.
CheckSection collectKernelSection(llvm::Module &M, const CheckOptions &Opts);

/// Every section, in output order.
std::vector<CheckSection> collectCheckSections(llvm::Module &M,
                                               const CheckOptions &Opts);

/// Whether no blocking section found anything.
bool isClean(const std::vector<CheckSection> &Sections);

/// `check --format=json`: {"input": \p Name, "clean": ..., "enzyme":
/// {"plugin": PATH|null, "sha256", "accepted_tags"}, SECTION: [...]}, then a
/// newline. Streamed, so that no document tree of all findings is built;
/// moves the findings' values out of \p Sections.
void printCheckJSON(llvm::raw_ostream &OS, llvm::StringRef Name,
                    std::vector<CheckSection> &Sections,
                    const ProbeReport *Enzyme = nullptr);

/// `check`'s text output: per section with findings "NAME: N TITLE:" and
/// one indented line per finding, or "NAME: clean: ..." when no blocking
/// section found anything.
void printCheckText(llvm::raw_ostream &OS, llvm::StringRef Name,
                    const std::vector<CheckSection> &Sections,
                    const ProbeReport *Enzyme = nullptr);

struct CheckRequest {
  std::string Input = "-";  ///< "-": stdin.
  std::string Output = "-"; ///< Where the findings go; "-": stdout.
  bool JSON = false;        ///< printCheckJSON rather than printCheckText.
  /// The Enzyme to report for (asked, probeModuleBundles); empty: none.
  std::string EnzymePlugin;
  std::string ProbeCacheDir; ///< Where its answers are cached; empty: not.
  CheckOptions Options;      ///< Options.Enzyme is set by runCheck.
};

struct CheckJobResult {
  std::string InputName;
  bool Clean = true; ///< Nothing that makes Enzyme abort (isClean).
  std::unique_ptr<llvm::Module> Module; ///< As read (in the caller's context).
  std::optional<ProbeReport> Enzyme;    ///< With CheckRequest::EnzymePlugin.
};

/// `check` as one job: reads Req.Input into \p Ctx, collects every section
/// and prints them to Req.Output. Errors are ToolErrors (a closed or full
/// stdout is ExitCode::OutputError, not a finding). Reports nothing to \p Diags
/// today; it is there so that every job is called the same way.
llvm::Expected<CheckJobResult> runCheck(const CheckRequest &Req,
                                        llvm::LLVMContext &Ctx,
                                        DiagnosticHandler &Diags);

} // namespace irs

#endif
