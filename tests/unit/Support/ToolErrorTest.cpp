#include "ir-sanitize/Support/ToolError.h"
#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("a tool error carries its exit code and message", "[ToolError]") {
  Error E = makeToolError(ExitCode::Usage, "--kernel " + Twine("x") + ": bad");
  std::string Message;
  ExitCode Code = ExitCode::Ok;
  handleAllErrors(std::move(E), [&](const ToolError &TE) {
    Code = TE.code();
    Message = TE.message();
  });
  CHECK(Code == ExitCode::Usage);
  CHECK(Message == "--kernel x: bad");
  CHECK(codeOf(makeToolError(ExitCode::NoEnzyme, "none")) ==
        ExitCode::NoEnzyme);
  CHECK(codeOf(createStringError(inconvertibleErrorCode(), "other")) ==
        ExitCode::BadInput);
  CHECK(codeOf(Error::success()) == ExitCode::Ok);
}

TEST_CASE("asToolError keeps the first code and every message", "[ToolError]") {
  ToolError One = asToolError(makeToolError(ExitCode::Usage, "bad flag"),
                              ExitCode::BadInput);
  CHECK(One.code() == ExitCode::Usage);
  CHECK(One.message() == "bad flag");
  ToolError Other = asToolError(
      createStringError(inconvertibleErrorCode(), "other"), ExitCode::Findings);
  CHECK(Other.code() == ExitCode::Findings);
  ToolError Both =
      asToolError(joinErrors(makeToolError(ExitCode::NoEnzyme, "first"),
                             makeToolError(ExitCode::Usage, "second")),
                  ExitCode::BadInput);
  CHECK(Both.code() == ExitCode::NoEnzyme);
  CHECK(Both.message() == "first; second");
}

TEST_CASE("exitCodeOf reads a ToolError's code, else the default",
          "[ToolError]") {
  handleAllErrors(
      makeToolError(ExitCode::NoEnzyme, "x"), [](const ErrorInfoBase &EI) {
        CHECK(exitCodeOf(EI, ExitCode::BadInput) == ExitCode::NoEnzyme);
      });
  handleAllErrors(createStringError(inconvertibleErrorCode(), "y"),
                  [](const ErrorInfoBase &EI) {
                    CHECK(exitCodeOf(EI, ExitCode::Usage) == ExitCode::Usage);
                  });
}
