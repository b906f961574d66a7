#include "ir-sanitize/Support/ExitCode.h"

#include "ir-sanitize-c/IRSanitize.h"

#include "CatchCompat.h"

#include <set>
#include <string>

using namespace irs;

TEST_CASE("ExitCodes.def lists distinct codes from 0, each with a meaning",
          "[ExitCode]") {
  std::set<int> Seen;
  for (const ExitCodeInfo &E : ExitCodeTable) {
    CHECK(Seen.insert(static_cast<int>(E.Code)).second);
    CHECK(std::string(E.Meaning).size() > 0);
  }
  CHECK(*Seen.begin() == 0);
  CHECK(static_cast<int>(ExitCode::Ok) == 0);
}

TEST_CASE("The --help footer lists every code ir-sanitize returns",
          "[ExitCode]") {
  std::string Help = exitCodesHelp();
  CHECK(Help.rfind("Exit codes: 0 ok, 1 findings", 0) == 0);
  CHECK(Help.back() == '\n');
  for (const ExitCodeInfo &E : ExitCodeTable) {
    std::string Brief = exitCodeBrief(E.Code);
    std::string Entry = std::to_string(static_cast<int>(E.Code)) + " " + Brief;
    // A code may wrap onto the next line only between words of its brief.
    std::string Flat = Help;
    for (char &C : Flat)
      if (C == '\n')
        C = ' ';
    CHECK((Flat.find(Entry) != std::string::npos) == !Brief.empty());
  }
  size_t Start = 0;
  for (size_t End; (End = Help.find('\n', Start)) != std::string::npos;
       Start = End + 1)
    CHECK(End - Start <= 72);
  CHECK(Help.find("7 ") == std::string::npos); // the runner's own code
}

TEST_CASE("The C interface's statuses are ExitCodes.def's codes",
          "[ExitCode]") {
  // Also static_asserts in src/CAPI/IRSanitize.cpp; here for the record.
  CHECK(IRSStatusOk == static_cast<int>(ExitCode::Ok));
  CHECK(IRSStatusFindings == static_cast<int>(ExitCode::Findings));
  CHECK(IRSStatusUsage == static_cast<int>(ExitCode::Usage));
  CHECK(IRSStatusBadInput == static_cast<int>(ExitCode::BadInput));
  CHECK(IRSStatusVerifierFailed == static_cast<int>(ExitCode::VerifierFailed));
}
