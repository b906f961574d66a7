//===- Diagnostics.cpp ----------------------------------------------------===//
#include "ir-sanitize/Support/Diagnostics.h"

namespace irs {

const char *diagnosticKindName(DiagnosticKind Kind) {
  switch (Kind) {
  case DiagnosticKind::Note:
    return "note";
  case DiagnosticKind::Warning:
    return "warning";
  case DiagnosticKind::Progress:
    return "progress";
  }
  return "note";
}

DiagnosticHandler &orIgnore(DiagnosticHandler *Handler) {
  static IgnoringDiagnosticHandler Ignore;
  return Handler ? *Handler : Ignore;
}

} // namespace irs
