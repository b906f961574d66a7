//===- BundleNormalize.cpp - Make operand bundles Enzyme can handle -------===//
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Analysis/BundleSites.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Transforms/GCSafeRegion.h"
#include "ir-sanitize/Transforms/PassResults.h"
#include "ir-sanitize/Transforms/Utils/BundleStash.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Statepoint.h"

#include <optional>

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-bundles"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumKept, "Operand bundles kept, as the policy says");
ALWAYS_ENABLED_STATISTIC(NumNotApplied,
                         "Operand bundles kept where the policy's action "
                         "cannot be carried out");
ALWAYS_ENABLED_STATISTIC(NumDropped, "Operand bundles dropped");
ALWAYS_ENABLED_STATISTIC(NumStashed, "Operand bundles stashed for restore");
ALWAYS_ENABLED_STATISTIC(NumLowered,
                         "gc-transition bundles lowered to a GC-safe region");
ALWAYS_ENABLED_STATISTIC(NumLost,
                         "Bundles an earlier run stashed that were lost");

namespace irs {
namespace {

/// Appends "the 'TAG' bundle of the call to CALLEE" to \p R.
void describeBundle(DiagnosticInfoOptimizationBase &R, const CallBase &CB,
                    const BundleRecord &Rec) {
  R << "the '" << ore::NV("Tag", Rec.Tag) << "' bundle of the call to "
    << ore::NV("Callee", calleeName(CB));
}

/// Counts the decision \p Rec on a bundle of \p CB, whose policy asked for
/// \p Wanted, and says it as a remark: done (passed), kept where the policy
/// asked for more (missed, with why), or kept as the policy says (analysis).
void reportDecision(OptimizationRemarkEmitter &ORE, const CallBase &CB,
                    const BundleRecord &Rec, BundleAction Wanted) {
  if (Rec.Action == BundleAction::Keep && Wanted != BundleAction::Keep) {
    ++NumNotApplied;
    ORE.emit([&] {
      OptimizationRemarkMissed R(DEBUG_TYPE, "NotApplied", &CB);
      R << "kept ";
      describeBundle(R, CB, Rec);
      R << " instead of '" << ore::NV("Action", actionName(Wanted))
        << "': " << ore::NV("Reason", Rec.Note);
      return R;
    });
    return;
  }
  if (Rec.Action == BundleAction::Keep) {
    ++NumKept;
    ORE.emit([&] {
      OptimizationRemarkAnalysis R(DEBUG_TYPE, "Kept", &CB);
      R << "kept ";
      describeBundle(R, CB, Rec);
      R << ", as the policy says";
      return R;
    });
    return;
  }
  ++(Rec.Action == BundleAction::Drop    ? NumDropped
     : Rec.Action == BundleAction::Stash ? NumStashed
                                         : NumLowered);
  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "Applied", &CB);
    R << actionPastTense(Rec.Action) << " ";
    describeBundle(R, CB, Rec);
    return R;
  });
}

/// Why the IR requires \p B to stay on \p CB ("" when it may go): the
/// verifier wants exactly one deopt bundle on these intrinsics, gc.relocate
/// calls name a statepoint's gc-live operands by index, and a token operand
/// ties the bundle to its producer (convergence control, funclets,
/// preallocated arguments).
std::string whyRequired(const CallBase &CB, const OperandBundleUse &B) {
  Intrinsic::ID ID = CB.getIntrinsicID();
  uint32_t Tag = B.getTagID();
  if (Tag == LLVMContext::OB_deopt &&
      (ID == Intrinsic::experimental_deoptimize ||
       ID == Intrinsic::experimental_guard))
    return "the verifier requires one deopt bundle on " + calleeName(CB);
  if (Tag == LLVMContext::OB_gc_live && isa<GCStatepointInst>(CB) &&
      !cast<GCStatepointInst>(CB).getGCRelocates().empty())
    return "gc.relocate calls refer to its operands";
  if (!canStash(B))
    return "a token operand ties it to the instruction that made it";
  return "";
}

/// The action actually applied to bundle \p B of \p CB: the policy's, unless
/// it cannot be carried out there (then keep, with the reason in \p Note).
BundleAction effectiveAction(const CallBase &CB, const OperandBundleUse &B,
                             const BundlePolicy &Policy, std::string &Note) {
  BundleAction A = Policy.actionFor(B.getTagName());
  if (A == BundleAction::Keep)
    return A;
  Note = A == BundleAction::Stash ? whyCannotStash(CB, B) : "";
  if (Note.empty())
    Note = whyRequired(CB, B);
  if (Note.empty() && A == BundleAction::Lower) {
    if (!bundleTagInfo(B.getTagName()).Lowers)
      Note = "lower is not defined for this tag";
    else if (B.Inputs.size() > 1)
      Note = "gc-transition with more than one operand is not a Julia form";
    else
      Note = whyCannotWrapInGCSafeRegion(CB);
  }
  return Note.empty() ? A : BundleAction::Keep;
}

/// The report's entries for the bundles a record held that could not be
/// restored: dropped, with why.
void reportLost(ArrayRef<LostBundle> Lost, CallSiteRecord &Site) {
  NumLost += Lost.size();
  for (const LostBundle &L : Lost)
    Site.Bundles.push_back({L.Tag.empty() ? "<unknown>" : L.Tag, 0,
                            BundleAction::Drop, "stashed bundle lost: " + L.Why,
                            /*Lost=*/true});
}

/// Applies the policy to one call, \p Restored saying what came back from
/// its record (null without one); returns whether it changed anything.
bool normalizeCall(CallBase &Call, const RestoreOutcome *Restored,
                   const BundlePolicy &Policy, StashKeyAllocator &Keys,
                   std::optional<GCSafeFunctions> &GCSafe, BundleReport *Report,
                   OptimizationRemarkEmitter &ORE) {
  CallBase *CB = &Call;
  bool Changed = Restored != nullptr;
  uint64_t OldKey = Restored ? Restored->Key : 0;
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
    reportDecision(ORE, *CB, Rec, Policy.actionFor(Rec.Tag));
    if (Rec.Action == BundleAction::Keep)
      Kept.emplace_back(B);
    else if (Rec.Action == BundleAction::Stash)
      Stashed.push_back({I, OperandBundleDef(B)});
    Lower |= Rec.Action == BundleAction::Lower;
    Site.Bundles.push_back(std::move(Rec));
  }
  if (Restored)
    reportLost(Restored->Lost, Site);
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

/// Puts back the bundles an earlier run stashed from \p Calls (replacing
/// those calls in the list), so that the policy of this run decides about
/// all of them. Returns each restored call's outcome by its index.
DenseMap<unsigned, RestoreOutcome>
restoreEarlierStash(Function &F, MutableArrayRef<CallBase *> Calls) {
  SmallVector<CallBase *, 8> Recorded;
  SmallVector<unsigned, 8> Index;
  for (unsigned I = 0, E = Calls.size(); I != E; ++I)
    if (hasStashRecord(*Calls[I])) {
      Recorded.push_back(Calls[I]);
      Index.push_back(I);
    }
  DenseMap<unsigned, RestoreOutcome> Outcomes;
  if (Recorded.empty())
    return Outcomes;
  std::vector<RestoreOutcome> Out = restoreStashedBundles(F, Recorded);
  for (unsigned K = 0, E = Out.size(); K != E; ++K) {
    Calls[Index[K]] = Out[K].Call;
    Outcomes[Index[K]] = std::move(Out[K]);
  }
  return Outcomes;
}

} // namespace

bool normalizeBundles(Module &M, const BundlePolicy &Policy,
                      BundleReport *Report) {
  StashKeyAllocator Keys(M);
  std::optional<GCSafeFunctions> GCSafe;
  bool Changed = false;
  for (Function &F : M) {
    SmallVector<CallBase *, 8> Calls = bundledCalls(F, Policy.Scope);
    OptimizationRemarkEmitter ORE(&F);
    DenseMap<unsigned, RestoreOutcome> Restored = restoreEarlierStash(F, Calls);
    for (unsigned I = 0, E = Calls.size(); I != E; ++I) {
      auto It = Restored.find(I);
      const RestoreOutcome *Out = It == Restored.end() ? nullptr : &It->second;
      Changed |=
          normalizeCall(*Calls[I], Out, Policy, Keys, GCSafe, Report, ORE);
    }
  }
  return Changed;
}

PreservedAnalyses BundleNormalizePass::run(Module &M,
                                           ModuleAnalysisManager &MAM) {
  PassResults *Results = passResults(M, MAM);
  BundleReport *Report = Results ? &Results->get<BundleReport>() : nullptr;
  return normalizeBundles(M, Policy, Report) ? PreservedAnalyses::none()
                                             : PreservedAnalyses::all();
}

void BundleNormalizePass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<BundleNormalizePass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  std::vector<std::string> Settings;
  if (std::string Params = Policy.toPassParameters(); !Params.empty())
    Settings.push_back(std::move(Params));
  printPassParameters(OS, Settings);
}

} // namespace irs
