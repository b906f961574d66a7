//===- Triage.h - Does sanitising make Enzyme succeed? ----------*- C++ -*-===//
//
// `ir-sanitize enzyme --triage`: Enzyme runs on the module as given and on the
// sanitised one side by side (two child processes at once); the verdict table
// puts both outcomes next to what the sanitiser changed. This is what a user
// runs on a bitcode dump from a crash report.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_TRIAGE_H
#define IR_SANITIZE_ENZYME_TRIAGE_H

#include "ir-sanitize/Enzyme/BundleProbe.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace irs {

struct TriageReport {
  std::string InputName;
  EnzymeResult Original;
  EnzymeResult Sanitized;
  std::vector<std::string> Changes; ///< One line per kind of change.
  /// Which Enzyme ran: its file and the module's bundle tags it accepts and
  /// rejects (asked, BundleProbe.h), so that two reports can be told apart.
  EnzymePluginIdentity Plugin;
  std::vector<std::string> AcceptedTags, RejectedTags;
  /// Tags the probe cache said this Enzyme accepts although a run here
  /// aborted on them: the answers were dropped and asked again.
  std::vector<std::string> ContradictedCache;

  /// Exit 0 when the sanitised module differentiates, 1 otherwise.
  bool sanitizedOk() const { return Sanitized.ok(); }
  /// "fixed by sanitising", "already differentiates", "still fails", ...
  std::string verdict() const;
};

/// Runs both invocations at once and collects their results. Errors only when
/// a child cannot be started.
llvm::Expected<TriageReport> runTriage(const EnzymeInvocation &Original,
                                       const EnzymeInvocation &Sanitized);

/// The verdict table (plain text, one row per line).
void printTriage(llvm::raw_ostream &OS, const TriageReport &R);

/// The same for scripts: {"input", "verdict", "fixed", "sanitized_ok",
/// "original": RUN, "sanitized": RUN, "changes": [..]}, RUN being {"status":
/// "ok"|"aborted"|"failed"|"timed_out", "exit_code" | "signal",
/// "signal_name", "seconds", "message", "function", "differentiating",
/// "phase", "frame", "where", "instruction", "log"} (empty fields left out),
/// "enzyme": {"plugin", "sha256", "accepted_tags", "rejected_tags",
/// "contradicted_cache_tags" (only when there are some)}.
llvm::json::Value triageToJSON(const TriageReport &R);

} // namespace irs

#endif
