//===- Check.cpp - `check`: call sites with bundles Enzyme rejects --------===//
#include "ir-sanitize/Driver/Check.h"
#include "ir-sanitize/Support/OutputSafety.h"

#include "ir-sanitize/Support/ScopedWorkDir.h"

#include "ir-sanitize/Analysis/BundleSites.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Transforms/WarpShuffleRules.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

namespace {

/// Whether a bundle blocks Enzyme, and why: for the Enzyme asked, or for
/// every Enzyme there is.
struct BundleJudgement {
  bool Blocking;
  std::string Verdict; ///< "rejected", "accepted", "unknown".
  std::string Reason;
};

/// \p Asked: the answer of the Enzyme asked; null: none was.
BundleJudgement judge(StringRef Tag, const ProbeAnswer *Asked) {
  if (Asked) {
    const ProbeAnswer &A = *Asked;
    std::string Name = verdictName(A.Verdict).str();
    switch (A.Verdict) {
    case ProbeVerdict::Accepted:
      return {false, Name, "accepted by this Enzyme"};
    case ProbeVerdict::Rejected:
      return {true, Name, "rejected by this Enzyme"};
    case ProbeVerdict::Unknown:
      break;
    }
    return {true, Name, "this Enzyme could not be asked (" + A.Detail + ")"};
  }
  const EnzymeSupportInfo &Known = enzymeSupportInfo(knownEnzymeSupport(Tag));
  return {Known.Blocking, Known.Verdict.str(), Known.Reason.str()};
}

/// What the default rewrite still does with an accepted bundle, and why.
std::string stillRewritten(StringRef Tag) {
  StringRef Done = actionStillDone(BundlePolicy().actionFor(Tag));
  return Done.empty() ? "" : ("; the default rewrite still " + Done).str();
}

CheckFinding blockedCall(Function &F, CallBase &CB, const OperandBundleUse &B,
                         const BundleJudgement &J) {
  std::string Callee = calleeName(CB), Loc = debugLocation(CB);
  CheckFinding Finding;
  // One line per finding, whatever bytes the names and the tag hold.
  Finding.Text = keepOnOneLine(
      formatv("{0}: call to {1}: bundle \"{2}\" ({3} operands): {4}{5}{6}",
              F.getName(), Callee, B.getTagName(), B.Inputs.size(), J.Reason,
              Loc.empty() ? "" : " at ", Loc)
          .str());
  Finding.Fields = {
      {"function", F.getName().str()}, {"callee", Callee},
      {"tag", B.getTagName().str()},   {"operands", B.Inputs.size()},
      {"enzyme", J.Verdict},           {"reason", J.Reason}};
  if (!Loc.empty())
    Finding.Fields.emplace_back("location", Loc);
  return Finding;
}

/// The call sites whose bundles Enzyme rejects (blocking), one finding each.
CheckSection collectBundleSection(Module &M, const CheckOptions &Opts) {
  CheckSection S{"bundles",
                 Opts.Enzyme ? "call sites with bundles this Enzyme rejects"
                             : "call sites with bundles Enzyme rejects",
                 true,
                 {}};
  for (Function &F : M)
    for (CallBase *CB : bundledCalls(F, Opts.Scope))
      for (unsigned I = 0, E = CB->getNumOperandBundles(); I != E; ++I) {
        OperandBundleUse B = CB->getOperandBundleAt(I);
        std::optional<ProbeAnswer> Asked;
        if (Opts.Enzyme) // the shape only when there are answers by shape
          Asked = Opts.Enzyme->answerFor(bundleShapeOf(B, M));
        BundleJudgement J = judge(B.getTagName(), Asked ? &*Asked : nullptr);
        if (J.Blocking)
          S.Findings.push_back(blockedCall(F, *CB, B, J));
      }
  return S;
}

/// With an Enzyme asked, the bundle shapes it accepts, one finding each.
CheckSection collectAcceptedSection(Module &M, const CheckOptions &Opts) {
  CheckSection S{
      "accepted_bundles", "bundle shapes this Enzyme accepts", false, {}};
  if (!Opts.Enzyme)
    return S;
  for (const BundleShape &Shape : bundleShapesIn(M, Opts.Scope)) {
    ProbeAnswer Asked = Opts.Enzyme->answerFor(Shape);
    BundleJudgement J = judge(Shape.Tag, &Asked);
    if (J.Blocking)
      continue;
    CheckFinding Finding;
    Finding.Text = formatv("{0}: {1} call sites: {2}{3}", Shape.key(),
                           Shape.CallSites, J.Reason, stillRewritten(Shape.Tag))
                       .str();
    Finding.Fields = {{"bundle", Shape.key()},
                      {"tag", Shape.Tag},
                      {"call_sites", Shape.CallSites},
                      {"enzyme", J.Verdict}};
    S.Findings.push_back(std::move(Finding));
  }
  return S;
}

} // namespace

Expected<ProbeReport> probeModuleBundles(Module &M, BundleScope Scope,
                                         StringRef PluginPath,
                                         StringRef CacheDir) {
  if (Expected<PluginInfo> P = checkPlugin(PluginPath, hostLLVMMajor()); !P)
    return P.takeError();
  Expected<std::string> Dir = createWorkDir("probe");
  if (!Dir)
    return Dir.takeError();
  IgnoringDiagnosticHandler Quiet;
  ScopedWorkDir Work(*Dir, /*Keep=*/false, Quiet);
  ProbeOptions Opts;
  Opts.PluginPath = PluginPath.str();
  Opts.CacheDir = CacheDir.str();
  Opts.WorkDir = *Dir;
  return probeBundles(bundleShapesIn(M, Scope), Opts);
}

/// The warp intrinsics Enzyme has no rule for (blocking: the shuffles of
/// floats, whose derivative it would need), and those the default rewrite
/// marks inactive.
std::pair<CheckSection, CheckSection> collectWarpSections(const Module &M) {
  CheckSection Blocking{"warp_shuffles",
                        "warp shuffles of floats Enzyme has no rule for",
                        true,
                        {}};
  CheckSection Inactive{
      "warp_inactive", "warp intrinsics the rewrite marks inactive", false, {}};
  for (const WarpIntrinsicUse &U : findWarpIntrinsics(M)) {
    const char *Action = U.Action == WarpAction::Rule       ? "rules"
                         : U.Action == WarpAction::Inactive ? "inactive"
                                                            : "left";
    const char *Does =
        U.Action == WarpAction::Rule
            ? "the default rewrite gives each a helper with registered "
              "forward and reverse rules"
        : U.Action == WarpAction::Inactive
            ? "no derivative: the default rewrite marks them inactive"
            : "a float's bits shuffled in a shape the rewrite does not "
              "recognise: left, and Enzyme refuses it";
    CheckFinding F;
    F.Text = formatv("{0} call(s) to {1}: {2}", U.Calls, U.Intrinsic, Does);
    F.Fields = {{"intrinsic", U.Intrinsic},
                {"calls", static_cast<int64_t>(U.Calls)},
                {"action", Action}};
    (U.Action == WarpAction::Inactive ? Inactive : Blocking)
        .Findings.push_back(std::move(F));
  }
  return {std::move(Blocking), std::move(Inactive)};
}

std::vector<CheckSection> collectCheckSections(Module &M,
                                               const CheckOptions &Opts) {
  std::vector<CheckSection> Sections;
  Sections.push_back(collectBundleSection(M, Opts));
  Sections.push_back(collectAcceptedSection(M, Opts));
  auto [Shuffles, Inactive] = collectWarpSections(M);
  Sections.push_back(std::move(Shuffles));
  Sections.push_back(std::move(Inactive));
  Sections.push_back(collectKernelSection(M, Opts));
  return Sections;
}

bool isClean(const std::vector<CheckSection> &Sections) {
  return llvm::none_of(Sections, [](const CheckSection &S) {
    return S.Blocking && !S.Findings.empty();
  });
}

void printCheckJSON(raw_ostream &OS, StringRef Name,
                    std::vector<CheckSection> &Sections,
                    const ProbeReport *Enzyme) {
  json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("input", Name);
    J.attribute("clean", isClean(Sections));
    J.attributeObject("enzyme", [&] {
      if (!Enzyme) {
        J.attribute("plugin", nullptr);
        return;
      }
      J.attribute("plugin", Enzyme->Plugin.Path);
      J.attribute("sha256", Enzyme->Plugin.SHA256);
      J.attributeArray("accepted_tags", [&] {
        for (const std::string &Tag : Enzyme->tagsWith(ProbeVerdict::Accepted))
          J.value(Tag);
      });
    });
    for (CheckSection &S : Sections)
      J.attributeArray(S.Key, [&] {
        for (CheckFinding &F : S.Findings)
          J.object([&] {
            for (auto &[Key, Value] : F.Fields)
              J.attribute(Key, std::move(Value));
          });
      });
  });
  OS << "\n";
}

void printCheckText(raw_ostream &OS, StringRef Name,
                    const std::vector<CheckSection> &Sections,
                    const ProbeReport *Enzyme) {
  unsigned Total = 0;
  for (const CheckSection &S : Sections) {
    if (S.Findings.empty())
      continue;
    OS << Name << ": " << S.Findings.size() << " " << S.Title << ":\n";
    for (const CheckFinding &F : S.Findings)
      OS << "  " << F.Text << "\n";
    Total += S.Blocking ? S.Findings.size() : 0;
  }
  if (Total == 0)
    OS << Name << ": clean: nothing that makes "
       << (Enzyme ? "this Enzyme" : "Enzyme") << " abort\n";
}

Expected<CheckJobResult> runCheck(const CheckRequest &Req, LLVMContext &Ctx,
                                  DiagnosticHandler &) {
  JobFiles Files;
  Files.ModuleInput = {"the input", Req.Input};
  Files.Outputs.push_back({"-o", Req.Output}); // findings, not a module
  if (Error E = checkDistinctFiles(Files))
    return E;
  Expected<LoadedModule> LM = readModule(Req.Input, Ctx);
  if (!LM)
    return LM.takeError();
  CheckJobResult Job;
  CheckOptions Opts = Req.Options;
  if (!Req.EnzymePlugin.empty()) {
    Expected<ProbeReport> Asked = probeModuleBundles(
        *LM->M, Opts.Scope, Req.EnzymePlugin, Req.ProbeCacheDir);
    if (!Asked)
      return Asked.takeError();
    Job.Enzyme = std::move(*Asked);
    Opts.Enzyme = &*Job.Enzyme;
  }
  std::vector<CheckSection> Sections = collectCheckSections(*LM->M, Opts);
  Job.InputName = LM->DisplayName;
  Job.Clean = isClean(Sections);
  Job.Module = std::move(LM->M);
  if (Error E = writeFileAtomically(Req.Output, [&](raw_ostream &OS) {
        if (Req.JSON)
          printCheckJSON(OS, Job.InputName, Sections, Opts.Enzyme);
        else
          printCheckText(OS, Job.InputName, Sections, Opts.Enzyme);
      }))
    return E;
  return Job;
}

} // namespace irs
