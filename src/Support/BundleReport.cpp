//===- BundleReport.cpp - What was done with every bundle -----------------===//
#include "ir-sanitize/Support/BundleReport.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

unsigned BundleReport::numBundles() const {
  unsigned N = 0;
  for (const CallSiteRecord &S : Sites)
    N += S.Bundles.size();
  return N;
}

unsigned BundleReport::count(BundleAction A) const {
  unsigned N = 0;
  for (const CallSiteRecord &S : Sites)
    for (const BundleRecord &B : S.Bundles)
      N += B.Action == A;
  return N;
}

static json::Object bundleToJSON(const BundleRecord &B) {
  json::Object O{{"tag", B.Tag},
                 {"operands", B.NumOperands},
                 {"action", actionName(B.Action)}};
  if (!B.Note.empty())
    O["note"] = B.Note;
  return O;
}

json::Value BundleReport::toJSON(BundleScope Scope) const {
  json::Array Functions;
  StringMap<unsigned> TagCounts;
  // Sites arrive grouped by function, in module order.
  for (const CallSiteRecord &S : Sites) {
    if (Functions.empty() ||
        *Functions.back().getAsObject()->getString("name") != S.Function)
      Functions.push_back(
          json::Object{{"name", S.Function}, {"call_sites", json::Array()}});
    json::Array Bundles;
    for (const BundleRecord &B : S.Bundles) {
      Bundles.push_back(bundleToJSON(B));
      ++TagCounts[B.Tag];
    }
    json::Object Site{{"callee", S.Callee}, {"bundles", std::move(Bundles)}};
    if (!S.Location.empty())
      Site["location"] = S.Location;
    Functions.back()
        .getAsObject()
        ->getArray("call_sites")
        ->push_back(std::move(Site));
  }
  json::Object Tags;
  for (auto &KV : TagCounts)
    Tags[KV.getKey().str()] = KV.getValue();
  json::Object Totals{{"call_sites", Sites.size()}, {"bundles", numBundles()}};
  for (BundleAction A : {BundleAction::Keep, BundleAction::Drop,
                         BundleAction::Stash, BundleAction::Lower})
    Totals[actionName(A)] = count(A);
  return json::Object{{"version", 1},
                      {"scope", scopeName(Scope)},
                      {"functions", std::move(Functions)},
                      {"totals", std::move(Totals)},
                      {"tags", std::move(Tags)}};
}

std::string BundleReport::summary() const {
  return formatv("{0} bundles on {1} call sites: lowered {2}, stashed {3}, "
                 "dropped {4}, kept {5}",
                 numBundles(), Sites.size(), count(BundleAction::Lower),
                 count(BundleAction::Stash), count(BundleAction::Drop),
                 count(BundleAction::Keep))
      .str();
}

} // namespace irs
