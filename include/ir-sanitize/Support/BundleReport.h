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
  std::string Note; ///< Why the requested action was not applied, if so.
};

struct CallSiteRecord {
  std::string Function;
  std::string Callee;
  std::string Location; ///< "file:line:col" or empty.
  std::vector<BundleRecord> Bundles;
};

class BundleReport {
public:
  void addCallSite(CallSiteRecord Site) { Sites.push_back(std::move(Site)); }
  const std::vector<CallSiteRecord> &callSites() const { return Sites; }

  unsigned numBundles() const;
  unsigned count(BundleAction A) const;

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
};

} // namespace irs

#endif
