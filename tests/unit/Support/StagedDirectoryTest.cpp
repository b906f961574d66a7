#include "ir-sanitize/Support/StagedDirectory.h"
#include "ir-sanitize/Support/ToolError.h"

#include "../TestSupport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// Writes FILE with \p Text into the directory it is given.
auto writeFile(StringRef Text) {
  return [Text](StringRef Dir, StringRef) -> Error {
    std::error_code EC;
    raw_fd_ostream OS((Dir + "/FILE").str(), EC);
    OS << Text;
    return Error::success();
  };
}

} // namespace

TEST_CASE("a staged directory appears whole, named as the request says",
          "[StagedDirectory]") {
  WorkDir S("irs-staged");
  StagedDirectoryRequest R;
  R.Requested = S.path("out") + "/"; // a trailing separator is the same
  std::string Shown;
  Expected<std::string> Dir =
      buildStagedDirectory(R, [&](StringRef Into, StringRef Where) -> Error {
        Shown = Where.str();
        CHECK(Into != Where); // built beside its place
        return writeFile("one")(Into, Where);
      });
  REQUIRE(static_cast<bool>(Dir));
  CHECK(*Dir == S.path("out"));
  CHECK(Shown == S.path("out"));
  CHECK(readText(S.path("out/FILE")) == "one");
  // Only the directory itself is left beside it: no staging copy.
  std::error_code EC;
  unsigned Entries = 0;
  for (sys::fs::directory_iterator It(S.Dir, EC), End; It != End && !EC;
       It.increment(EC))
    ++Entries;
  CHECK(Entries == 1);
}

TEST_CASE("a non-empty directory is replaced only with Force; a failed write "
          "leaves the old one",
          "[StagedDirectory]") {
  WorkDir S("irs-staged");
  StagedDirectoryRequest R;
  R.Requested = S.path("out");
  R.Flag = "--emit-dir";
  REQUIRE(static_cast<bool>(buildStagedDirectory(R, writeFile("old"))));
  Expected<std::string> Refused = buildStagedDirectory(R, writeFile("new"));
  REQUIRE_FALSE(static_cast<bool>(Refused));
  std::string Msg = toString(Refused.takeError());
  CHECK(Msg.find("--emit-dir " + S.path("out") + ": not empty") == 0);
  R.Force = true;
  Expected<std::string> Failed =
      buildStagedDirectory(R, [](StringRef, StringRef) -> Error {
        return makeToolError(ExitCode::OutputError, "disk full");
      });
  REQUIRE_FALSE(static_cast<bool>(Failed));
  consumeError(Failed.takeError());
  CHECK(readText(S.path("out/FILE")) == "old");
  REQUIRE(static_cast<bool>(buildStagedDirectory(R, writeFile("new"))));
  CHECK(readText(S.path("out/FILE")) == "new");
}

TEST_CASE("without a requested place, a temporary directory; a failure the "
          "caller keeps is kept",
          "[StagedDirectory]") {
  StagedDirectoryRequest R;
  R.TempPrefix = "irs-staged-test";
  std::string Built;
  R.KeepOnFailure = [](Error &) { return true; };
  Expected<std::string> Failed =
      buildStagedDirectory(R, [&](StringRef Dir, StringRef Shown) -> Error {
        Built = Dir.str();
        CHECK(Dir == Shown); // a temporary directory stays where it is built
        return makeToolError(ExitCode::Findings, "see the log in it");
      });
  REQUIRE_FALSE(static_cast<bool>(Failed));
  consumeError(Failed.takeError());
  CHECK(StringRef(Built).contains("irs-staged-test"));
  CHECK(sys::fs::is_directory(Built)); // kept: the message names it
  sys::fs::remove_directories(Built);
  R.KeepOnFailure = nullptr;
  Failed = buildStagedDirectory(R, [&](StringRef Dir, StringRef) -> Error {
    Built = Dir.str();
    return makeToolError(ExitCode::OutputError, "no");
  });
  consumeError(Failed.takeError());
  CHECK_FALSE(sys::fs::exists(Built)); // removed
}
