//===- Triage.cpp - Does sanitising make Enzyme succeed? ------------------===//
#include "ir-sanitize/Enzyme/Triage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace llvm;

namespace irs {

std::string TriageReport::verdict() const {
  if (Sanitized.ok())
    return Original.ok() ? "ok: Enzyme differentiates both; sanitising was "
                           "not needed for Enzyme"
                         : "fixed: Enzyme fails on the original and "
                           "differentiates the sanitised module";
  // The failure persists after sanitising: what to report upstream, cut
  // down by `reduce`.
  return Original.ok()
             ? "REGRESSION: Enzyme differentiates the original but "
               "not the sanitised module (please report; `ir-sanitize "
               "reduce --after-sanitize` makes a minimal reproducer)"
             : "not fixed: Enzyme fails on both; the remaining "
               "failure is not one ir-sanitize rewrites (`ir-sanitize "
               "reduce` makes a minimal reproducer to report)";
}

Expected<TriageReport> runTriage(const EnzymeInvocation &Original,
                                 const EnzymeInvocation &Sanitized) {
  // Both children run at once; each is waited for with its own time limit.
  Expected<PendingEnzymeRun> First = startEnzyme(Original);
  if (!First)
    return First.takeError();
  Expected<PendingEnzymeRun> Second = startEnzyme(Sanitized);
  if (!Second)
    return Second.takeError();
  TriageReport R;
  R.Original = First->finish();
  R.Sanitized = Second->finish();
  return R;
}

static json::Value runToJSON(const EnzymeResult &R) {
  json::Object O;
  const ChildOutcome &C = R.Outcome;
  switch (C.How) {
  case ChildOutcome::Kind::Exited:
    O["status"] = C.ExitCode == 0 ? "ok" : "failed";
    O["exit_code"] = C.ExitCode;
    break;
  case ChildOutcome::Kind::Signalled:
    O["status"] = "aborted";
    O["signal"] = C.Signal;
    O["signal_name"] = signalName(C.Signal);
    break;
  case ChildOutcome::Kind::TimedOut:
    O["status"] = "timed_out";
    O["timeout_seconds"] = R.TimeoutSeconds;
    break;
  }
  O["seconds"] = std::round(C.Seconds * 1000) / 1000;
  O["log"] = R.LogPath;
  const EnzymeLogDiagnosis &D = R.Diagnosis;
  for (auto [Key, Value] : {std::pair{"message", &D.Message},
                            {"function", &D.Function},
                            {"differentiating", &D.Differentiating},
                            {"phase", &D.Phase},
                            {"frame", &D.Frame},
                            {"where", &D.Where},
                            {"instruction", &D.Instruction}})
    if (!Value->empty())
      O[Key] = *Value;
  return O;
}

json::Value triageToJSON(const TriageReport &R) {
  json::Array Changes;
  for (const std::string &C : R.Changes)
    Changes.push_back(C);
  json::Object Enzyme{{"plugin", R.Plugin.Path},
                      {"sha256", R.Plugin.SHA256},
                      {"accepted_tags", json::Array(R.AcceptedTags)},
                      {"rejected_tags", json::Array(R.RejectedTags)}};
  if (!R.ContradictedCache.empty())
    Enzyme["contradicted_cache_tags"] = json::Array(R.ContradictedCache);
  return json::Object{{"input", R.InputName},
                      {"enzyme", std::move(Enzyme)},
                      {"verdict", R.verdict()},
                      {"fixed", !R.Original.ok() && R.Sanitized.ok()},
                      {"sanitized_ok", R.sanitizedOk()},
                      {"original", runToJSON(R.Original)},
                      {"sanitized", runToJSON(R.Sanitized)},
                      {"changes", std::move(Changes)}};
}

static void printRow(raw_ostream &OS, StringRef Label, StringRef Text) {
  OS << format("  %-10s ", Label.str().c_str()) << Text << "\n";
}

static void printRun(raw_ostream &OS, StringRef Label, const EnzymeResult &R) {
  std::string Text = R.summary();
  if (R.ok())
    Text += " (" + formatv("{0:f2}", R.Outcome.Seconds).str() + " s)";
  printRow(OS, Label, Text);
  if (!R.ok()) {
    if (!R.Diagnosis.Phase.empty())
      printRow(
          OS, "",
          "phase: " + R.Diagnosis.Phase +
              (R.Diagnosis.Frame.empty() ? "" : ", in " + R.Diagnosis.Frame));
    printRow(OS, "", "log: " + R.LogPath);
  }
}

static std::string tagList(ArrayRef<std::string> Tags) {
  return Tags.empty() ? "none" : join(Tags, ", ");
}

void printTriage(raw_ostream &OS, const TriageReport &R) {
  OS << "Enzyme triage of " << R.InputName << "\n";
  printRow(OS, "enzyme",
           (R.Plugin.Path + " (sha256 " +
            StringRef(R.Plugin.SHA256).take_front(12) + "...)")
               .str());
  printRow(OS, "",
           "of the bundle tags here, accepts: " + tagList(R.AcceptedTags) +
               "; rejects: " + tagList(R.RejectedTags));
  if (!R.ContradictedCache.empty())
    printRow(OS, "",
             "the probe cache said it accepts " + tagList(R.ContradictedCache) +
                 ", which a run here aborted on: those answers were dropped "
                 "and asked again");
  printRun(OS, "original", R.Original);
  printRun(OS, "sanitized", R.Sanitized);
  if (R.Changes.empty())
    printRow(OS, "changes", "none");
  for (size_t I = 0; I < R.Changes.size(); ++I)
    printRow(OS, I == 0 ? "changes" : "", R.Changes[I]);
  printRow(OS, "verdict", R.verdict());
}

} // namespace irs
