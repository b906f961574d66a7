#include "ir-sanitize/Support/ExitCodes.h"
#include "../TestSupport.h"

#include <catch2/catch.hpp>

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("names are escaped so that a message stays one printable line",
          "[ExitCodes]") {
  CHECK(escapeForMessage("julia_f_123") == "julia_f_123");
  CHECK(escapeForMessage("") == "");
  CHECK(escapeForMessage("a\nb") == "a\\0Ab");
  CHECK(escapeForMessage("\x1b[31m") == "\\1B[31m");
  CHECK(escapeForMessage("back\\slash") == "back\\\\slash");
  CHECK(escapeForMessage(StringRef("\0\xff", 2)) == "\\00\\FF");
}

TEST_CASE("a tool error carries its exit code and message", "[ExitCodes]") {
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
