#include "ir-sanitize/Support/Diagnostics.h"

#include "CatchCompat.h"

#include <cstring>

using namespace irs;

TEST_CASE("diagnostics reach the handler by kind, in order", "[Diagnostics]") {
  CollectingDiagnosticHandler H;
  H.note("kernel k left whole");
  H.progress("compiled splat.ptx (" + llvm::Twine(12) + " KB)");
  H.warning("w");
  H.note("second");
  REQUIRE(H.Messages.size() == 4);
  CHECK(H.Messages[1].first == DiagnosticKind::Progress);
  CHECK(H.of(DiagnosticKind::Note) ==
        std::vector<std::string>{"kernel k left whole", "second"});
  CHECK(H.of(DiagnosticKind::Progress) ==
        std::vector<std::string>{"compiled splat.ptx (12 KB)"});
  CHECK(H.of(DiagnosticKind::Warning) == std::vector<std::string>{"w"});
}

TEST_CASE("kinds have names; no handler means ignored", "[Diagnostics]") {
  CHECK(std::strcmp(diagnosticKindName(DiagnosticKind::Note), "note") == 0);
  CHECK(std::strcmp(diagnosticKindName(DiagnosticKind::Warning), "warning") ==
        0);
  CHECK(std::strcmp(diagnosticKindName(DiagnosticKind::Progress), "progress") ==
        0);
  CollectingDiagnosticHandler H;
  CHECK(&orIgnore(&H) == &H);
  irs::DiagnosticHandler &Ignore = orIgnore(nullptr);
  CHECK(&Ignore == &orIgnore(nullptr));
  Ignore.warning("goes nowhere"); // and does not crash
}
