//===- BundleProbe.h - Which bundles an Enzyme accepts ----------*- C++ -*-===//
//
// Which operand bundles an Enzyme differentiates through is a property of
// that build (Enzyme PR #2906 taught it gc-transition; every other unknown
// tag still aborts in getInvertedBundles), so it is asked, not looked up:
// for each bundle shape (tag and operand types) a small module whose one
// differentiated call carries that bundle is given to the plugin in a child
// opt, forward and reverse. The answers are cached per plugin file, by the
// SHA-256 of its contents, in one JSON file per plugin under the cache
// directory; a cache that cannot be read or written only makes the next run
// slower. Concurrent runs are safe: each writes a whole file under a name of
// its own and renames it into place, after merging what is there.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_BUNDLEPROBE_H
#define IR_SANITIZE_ENZYME_BUNDLEPROBE_H

#include "ir-sanitize/Analysis/BundleSites.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace irs {

struct EnzymeResult;

enum class ProbeVerdict {
  Accepted, ///< Enzyme differentiated the probe, forward and reverse.
  Rejected, ///< Enzyme said "unsupported tag TAG".
  Unknown,  ///< The probe failed otherwise, or could not be built.
};

/// "accepted", "rejected", "unknown": the spelling in JSON and the cache.
llvm::StringRef verdictName(ProbeVerdict V);

struct ProbeAnswer {
  ProbeVerdict Verdict = ProbeVerdict::Unknown;
  std::string Tag;    ///< The bundle's tag.
  std::string Detail; ///< Enzyme's message, or why the probe cannot tell.
  bool FromCache = false;
  /// The SHA-256 of the probe module that was asked (probeQuestion).
  std::string Question;
};

/// A plugin file and the SHA-256 of its contents (lower-case hex).
struct EnzymePluginIdentity {
  std::string Path;
  std::string SHA256;
};

/// Errors: the file cannot be read (ExitCode::NoEnzyme).
llvm::Expected<EnzymePluginIdentity> identifyEnzymePlugin(llvm::StringRef Path);

/// The module a probe of \p S differentiates (text; \p S must be probeable).
std::string probeModuleText(const BundleShape &S);

/// What a probe of \p S asks, as a key: the SHA-256 of its module. A cached
/// answer is believed only for the question it was given to.
std::string probeQuestion(const BundleShape &S);

/// One plugin's cached answers (definite ones only: accepted or rejected).
struct ProbeCache {
  std::string SHA256;
  std::map<std::string, ProbeAnswer> Answers; ///< By BundleShape::key().
};

/// Reads a cache file. Errors (ExitCode::BadInput, one line naming \p File):
/// not JSON, another format version, a field of the wrong type or missing
/// (each answer has its verdict, tag and question), a verdict that is not
/// definite.
llvm::Expected<ProbeCache> parseProbeCache(llvm::StringRef Text,
                                           llvm::StringRef File);
std::string printProbeCache(const ProbeCache &C);

/// CACHEDIR/enzyme-probes/SHA256.json.
std::string probeCachePath(llvm::StringRef CacheDir, llvm::StringRef SHA256);

struct ProbeOptions {
  std::string PluginPath;
  std::string CacheDir; ///< Empty: no cache.
  std::string WorkDir;  ///< An existing directory for modules and logs.
  std::string OptPath;  ///< Empty: defaultOptPath().
  /// Per probe: Enzyme takes a fraction of a second on the probe module, so
  /// a plugin still running after this hangs (its answer: Unknown).
  unsigned TimeoutSeconds = 30;
  /// Tags whose cached answers a run contradicted: they are dropped from
  /// the cache and asked again.
  std::set<std::string> DistrustedTags;
};

struct ProbeReport {
  EnzymePluginIdentity Plugin;
  std::map<std::string, ProbeAnswer> Answers; ///< By BundleShape::key().
  unsigned Probed = 0;                        ///< Child processes started.
  unsigned Cached = 0;                        ///< Answers taken from the cache.
  unsigned Distrusted = 0;    ///< Cached answers dropped (DistrustedTags).
  unsigned OtherQuestion = 0; ///< Cached answers to another question.
  std::string CacheFile;      ///< Empty without a cache directory.
  std::string CacheProblem;   ///< Why the cache was not used, if it was not.

  /// The answer for \p S (Unknown if it was not asked).
  ProbeAnswer answerFor(const BundleShape &S) const;
  /// The tags of the shapes with verdict \p V, sorted, each once.
  std::vector<std::string> tagsWith(ProbeVerdict V) const;
};

/// Asks the plugin about each of \p Shapes not in its cache, at most four
/// children at a time and 64 in all (the others are Unknown, "not asked").
/// Errors: the plugin file cannot be read, a child cannot be started; a failing
/// probe is an Unknown answer.
llvm::Expected<ProbeReport> probeBundles(llvm::ArrayRef<BundleShape> Shapes,
                                         const ProbeOptions &Opts);

/// The tag \p Run aborted on ("unsupported tag TAG"), or "".
std::string rejectedTagIn(const EnzymeResult &Run);

/// The tags that \p R, from the cache, says the plugin accepts and \p Run
/// (the same plugin) aborted on: a cache entry that a run contradicts (a
/// stale or forged file). Probe again with them in DistrustedTags.
std::vector<std::string> cachedAcceptsContradictedBy(const ProbeReport &R,
                                                     const EnzymeResult &Run);

} // namespace irs

#endif
