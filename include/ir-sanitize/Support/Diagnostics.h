//===- Diagnostics.h - How a job talks to whoever runs it -------*- C++ -*-===//
//
// The one channel from the library to its front end, in the manner of LLVM's
// DiagnosticHandler: a job (a driver call, a pass) that has something to say
// while it runs (a note, a warning, a progress line) hands it to the
// DiagnosticHandler it was given and never prints. The command line prints
// each as one line on stderr, the C interface collects them, tests record
// them. Failures are not diagnostics: they come back as llvm::Error.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_DIAGNOSTICS_H
#define IR_SANITIZE_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"

#include <string>
#include <utility>
#include <vector>

namespace irs {

enum class DiagnosticKind {
  Note,     ///< Something the user may want to know (a kernel left whole).
  Warning,  ///< Something that may be wrong but did not stop the job.
  Progress, ///< One step of a long job done ("compiled splat.ptx (12 KB)").
};

/// "note", "warning", "progress".
const char *diagnosticKindName(DiagnosticKind Kind);

/// Receives what a job reports while it runs. Messages are one line, without
/// the tool's name or the kind (the front end adds both as it sees fit);
/// user-derived text in them is already escaped (escapeForMessage).
class DiagnosticHandler {
public:
  virtual ~DiagnosticHandler() = default;
  virtual void handle(DiagnosticKind Kind, const std::string &Message) = 0;

  void note(const llvm::Twine &Message) {
    handle(DiagnosticKind::Note, Message.str());
  }
  void warning(const llvm::Twine &Message) {
    handle(DiagnosticKind::Warning, Message.str());
  }
  void progress(const llvm::Twine &Message) {
    handle(DiagnosticKind::Progress, Message.str());
  }
};

/// Drops everything: the default where a caller gave no handler.
class IgnoringDiagnosticHandler final : public DiagnosticHandler {
public:
  void handle(DiagnosticKind, const std::string &) override {}
};

/// Keeps everything in order (tests, the C interface).
class CollectingDiagnosticHandler final : public DiagnosticHandler {
public:
  std::vector<std::pair<DiagnosticKind, std::string>> Messages;
  void handle(DiagnosticKind Kind, const std::string &Message) override {
    Messages.emplace_back(Kind, Message);
  }
  /// The messages of \p Kind, in order.
  std::vector<std::string> of(DiagnosticKind Kind) const {
    std::vector<std::string> Out;
    for (const auto &[K, M] : Messages)
      if (K == Kind)
        Out.push_back(M);
    return Out;
  }
};

/// \p Handler, or a shared IgnoringDiagnosticHandler when it is null.
DiagnosticHandler &orIgnore(DiagnosticHandler *Handler);

} // namespace irs

#endif
