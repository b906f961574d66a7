//===- BundleReport.cpp - What was done with every bundle -----------------===//
#include "ir-sanitize/Support/BundleReport.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace llvm;

namespace irs {

std::string SourceLocation::str() const {
  if (empty())
    return "";
  std::string S = (File + ":" + Twine(Line)).str();
  if (Col)
    S += ":" + std::to_string(Col);
  return S;
}

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

unsigned BundleReport::numLost() const {
  unsigned N = 0;
  for (const CallSiteRecord &S : Sites)
    for (const BundleRecord &B : S.Bundles)
      N += B.Lost;
  return N;
}

static void writeBundle(json::OStream &J, const BundleRecord &B) {
  J.object([&] {
    J.attribute("action", actionName(B.Action));
    if (!B.Note.empty())
      J.attribute("note", B.Note);
    J.attribute("operands", B.NumOperands);
    J.attribute("tag", B.Tag);
  });
}

static void writeCallSite(json::OStream &J, const CallSiteRecord &S) {
  J.object([&] {
    J.attributeArray("bundles", [&] {
      for (const BundleRecord &B : S.Bundles)
        writeBundle(J, B);
    });
    J.attribute("callee", S.Callee);
    if (!S.Location.empty())
      J.attribute("location", S.Location.str());
  });
}

void BundleReport::writeFunctions(json::OStream &J) const {
  J.attributeArray("functions", [&] {
    // Sites arrive grouped by function, in module order.
    for (size_t First = 0, End; First < Sites.size(); First = End) {
      End = First + 1;
      while (End < Sites.size() && Sites[End].Function == Sites[First].Function)
        ++End;
      J.object([&] {
        J.attributeArray("call_sites", [&] {
          for (size_t I = First; I < End; ++I)
            writeCallSite(J, Sites[I]);
        });
        J.attribute("name", Sites[First].Function);
      });
    }
  });
}

void BundleReport::writeTags(json::OStream &J) const {
  std::map<std::string, unsigned> TagCounts; // sorted, as json::Object prints
  for (const CallSiteRecord &S : Sites)
    for (const BundleRecord &B : S.Bundles)
      ++TagCounts[B.Tag];
  J.attributeObject("tags", [&] {
    for (const auto &[Tag, Count] : TagCounts)
      J.attribute(Tag, Count);
  });
}

void BundleReport::writeTotals(json::OStream &J) const {
  J.attributeObject("totals", [&] {
    J.attribute("bundles", numBundles());
    J.attribute("call_sites", Sites.size());
    // By name, as json::Object prints its keys.
    std::map<std::string, unsigned> Counts;
    for (BundleAction A : bundleActions())
      Counts[actionName(A).str()] = count(A);
    for (const auto &[Name, Count] : Counts)
      J.attribute(Name, Count);
  });
}

std::string BundleReport::summary() const {
  std::string S =
      formatv("{0} bundles on {1} call sites: ", numBundles(), Sites.size())
          .str();
  // The most change first: lowered, stashed, dropped, kept.
  ArrayRef<BundleAction> Actions = bundleActions();
  for (auto It = Actions.rbegin(); It != Actions.rend(); ++It)
    S += formatv("{0}{1} {2}", It == Actions.rbegin() ? "" : ", ",
                 actionPastTense(*It), count(*It))
             .str();
  return S;
}

} // namespace irs
