//===- BundleNormalize.cpp - Make operand bundles Enzyme can handle -------===//
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Analysis/BundleSites.h"
#include "ir-sanitize/Transforms/GCSafeRegion.h"
#include "ir-sanitize/Transforms/Utils/BundleStash.h"

#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;

namespace irs {
namespace {

/// The action actually applied to bundle \p B of \p CB: the policy's, unless
/// it cannot be carried out there (then keep, with the reason in \p Note).
BundleAction effectiveAction(const CallBase &CB, const OperandBundleUse &B,
                             const BundlePolicy &Policy, std::string &Note) {
  BundleAction A = Policy.actionFor(B.getTagName());
  if (A == BundleAction::Lower) {
    if (B.getTagName() != GCTransitionTag)
      Note = "lower is defined only for gc-transition";
    else if (B.Inputs.size() > 1)
      Note = "gc-transition with more than one operand is not a Julia form";
    else
      Note = whyCannotWrapInGCSafeRegion(CB);
  } else if (A == BundleAction::Stash && !canStash(B)) {
    Note = "a token operand cannot be stashed";
  }
  return Note.empty() ? A : BundleAction::Keep;
}

/// Applies the policy to one call; returns whether it changed anything.
bool normalizeCall(CallBase &Call, const BundlePolicy &Policy,
                   StashKeyAllocator &Keys,
                   std::optional<GCSafeFunctions> &GCSafe,
                   BundleReport *Report) {
  // A call stashed by an earlier run gets its bundles back first, so that
  // the policy of this run decides about all of them.
  CallBase *CB = &Call;
  bool Changed = false;
  uint64_t OldKey = 0;
  if (hasStashRecord(*CB)) {
    RestoreOutcome Out = restoreStashedBundles(*CB);
    CB = Out.Call;
    OldKey = Out.Key;
    Changed = true;
  }
  CallSiteRecord Site;
  if (Report && Report->siteDetail())
    Site = {CB->getFunction()->getName().str(),
            calleeName(*CB),
            sourceLocation(*CB),
            {}};
  Site.Bundles.reserve(CB->getNumOperandBundles());
  SmallVector<OperandBundleDef, 2> Kept;
  SmallVector<StashedBundle, 2> Stashed;
  bool Lower = false;
  for (unsigned I = 0, E = CB->getNumOperandBundles(); I != E; ++I) {
    OperandBundleUse B = CB->getOperandBundleAt(I);
    BundleRecord Rec{B.getTagName().str(), unsigned(B.Inputs.size()),
                     BundleAction::Keep, ""};
    Rec.Action = effectiveAction(*CB, B, Policy, Rec.Note);
    if (Rec.Action == BundleAction::Keep)
      Kept.emplace_back(B);
    else if (Rec.Action == BundleAction::Stash)
      Stashed.push_back({I, OperandBundleDef(B)});
    Lower |= Rec.Action == BundleAction::Lower;
    Site.Bundles.push_back(std::move(Rec));
  }
  if (Report)
    Report->addCallSite(std::move(Site));
  if (Kept.size() == CB->getNumOperandBundles())
    return Changed;

  CallBase *New = replaceOperandBundles(*CB, Kept);
  if (!Stashed.empty())
    recordStashedBundles(*New, Stashed, Keys, OldKey);
  if (Lower) {
    // Declared on first use: a module with nothing to lower stays as it is.
    if (!GCSafe)
      GCSafe = GCSafeFunctions::getOrInsert(*New->getModule());
    wrapInGCSafeRegion(*New, *GCSafe);
  }
  return true;
}

} // namespace

bool normalizeBundles(Module &M, const BundlePolicy &Policy,
                      BundleReport *Report) {
  StashKeyAllocator Keys(M);
  std::optional<GCSafeFunctions> GCSafe;
  bool Changed = false;
  for (Function &F : M)
    for (CallBase *CB : bundledCalls(F, Policy.Scope))
      Changed |= normalizeCall(*CB, Policy, Keys, GCSafe, Report);
  return Changed;
}

PreservedAnalyses BundleNormalizePass::run(Module &M, ModuleAnalysisManager &) {
  return normalizeBundles(M, Policy, Report) ? PreservedAnalyses::none()
                                             : PreservedAnalyses::all();
}

} // namespace irs
