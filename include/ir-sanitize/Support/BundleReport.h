//===- BundleReport.h - What was done with every bundle ---------*- C++ -*-===//
//
// Dropping a gc-transition bundle is memory-safe but can reintroduce the GC
// hang of CUDA.jl #2262, so every touched bundle is accounted for: per
// function, per call site, per bundle, with totals. Written as JSON by
// --report and summarised in one line on stderr.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_BUNDLEREPORT_H
#define IR_SANITIZE_SUPPORT_BUNDLEREPORT_H

#include "ir-sanitize/Support/BundlePolicy.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace irs {

struct BundleRecord {
  std::string Tag;
  unsigned NumOperands = 0;
  BundleAction Action = BundleAction::Keep;
  std::string Note;  ///< Why the requested action was not applied, if so.
  bool Lost = false; ///< A stashed bundle whose record could not be restored
                     ///< (reported as dropped, Note saying why).
};

/// A call's place in the source, from its debug location. File points into
/// the module's metadata (valid while its LLVMContext lives): formatting it
/// for every bundled call whether or not a report is printed cost a tenth
/// of the pass.
struct SourceLocation {
  llvm::StringRef File;
  unsigned Line = 0, Col = 0;
  bool empty() const { return File.empty() && Line == 0; }
  /// "file:line:col" ("file:line" without a column), or "".
  std::string str() const;
};

struct CallSiteRecord {
  std::string Function;
  std::string Callee;
  SourceLocation Location;
  std::vector<BundleRecord> Bundles;
};

class BundleReport {
public:
  /// Without detail, call sites are recorded for their counts only (their
  /// function, callee and location stay empty): for callers that print no
  /// per-call-site report, and cheaper on modules with many bundled calls.
  void setSiteDetail(bool Keep) { SiteDetail = Keep; }
  bool siteDetail() const { return SiteDetail; }

  void addCallSite(CallSiteRecord Site) { Sites.push_back(std::move(Site)); }
  const std::vector<CallSiteRecord> &callSites() const { return Sites; }

  unsigned numBundles() const;
  unsigned count(BundleAction A) const;
  /// Stashed bundles of an earlier run that could not be restored.
  unsigned numLost() const;

  /// The report is streamed, not built as a json::Value: a tree costs
  /// several KB and about 100 us per call site, more than the pass itself on
  /// a Julia module. Each writer emits one attribute of the report object;
  /// the caller emits them in sorted key order, as json::Object prints:
  ///   "functions": [{"call_sites": [{"bundles": [{"action", ["note",]
  ///                 "operands", "tag"}], "callee"[, "location"]}], "name"}]
  ///   "tags": {TAG: count}
  ///   "totals": {"bundles", "call_sites", "drop", "keep", "lower", "stash"}
  void writeFunctions(llvm::json::OStream &J) const;
  void writeTags(llvm::json::OStream &J) const;
  void writeTotals(llvm::json::OStream &J) const;

  /// "N bundles on M call sites: lowered a, stashed b, dropped c, kept d".
  std::string summary() const;

private:
  std::vector<CallSiteRecord> Sites;
  bool SiteDetail = true;
};

} // namespace irs

#endif
