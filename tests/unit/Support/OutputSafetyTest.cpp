#include "ir-sanitize/Support/OutputSafety.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// A fresh directory with an existing file "in.ll" and a link to it.
struct InputAndLink : WorkDir {
  InputAndLink() : WorkDir("irs-outputs") {
    write("in.ll", "x");
    REQUIRE(!sys::fs::create_link("in.ll", path("link.ll")));
  }
};

std::string messageOf(Error E) { return toString(std::move(E)); }

} // namespace

TEST_CASE("sameFile compares existing files by inode, others by canonical "
          "path",
          "[OutputSafety]") {
  InputAndLink S;
  CHECK(sameFile(S.path("in.ll"), S.path("link.ll")));
  CHECK(sameFile(S.path("new.ll"), S.path("sub/../new.ll")));
  CHECK(sameFile(S.path("new.ll"), S.path("./new.ll")));
  CHECK_FALSE(sameFile(S.path("new.ll"), S.path("other.ll")));
  CHECK_FALSE(sameFile(S.path("in.ll"), S.path("new.ll")));
}

TEST_CASE("checkDistinctFiles refuses an output that is an input or another "
          "output",
          "[OutputSafety]") {
  InputAndLink S;
  JobFiles F;
  F.ModuleInput = {"the input", S.path("in.ll")};
  F.ModuleOutput = {"-o", S.path("out.ll")};
  F.Outputs = {{"--report", S.path("r.json")}};
  CHECK(!checkDistinctFiles(F));

  F.Outputs = {{"--report", S.path("out.ll")}};
  Error E = checkDistinctFiles(F);
  CHECK(codeOf(checkDistinctFiles(F)) == ExitCode::Usage);
  CHECK(messageOf(std::move(E)) == "-o " + S.path("out.ll") + " and --report " +
                                       S.path("out.ll") +
                                       " name the same file; nothing was "
                                       "written");

  F.Outputs = {{"--report", S.path("link.ll")}};
  CHECK(codeOf(checkDistinctFiles(F)) == ExitCode::Usage);

  // -o may name the input; another output may not.
  F.Outputs = {};
  F.ModuleOutput = {"-o", S.path("link.ll")};
  CHECK(!checkDistinctFiles(F));
  F.Outputs = {{"--manifest", S.path("in.ll")}};
  CHECK(codeOf(checkDistinctFiles(F)) == ExitCode::Usage);
  // Nor may -o name any other input (a plugin, a spec).
  F.Outputs = {};
  F.ModuleInput = {"the input", S.path("other.ll")};
  F.Inputs = {{"--enzyme-plugin", S.path("in.ll")}};
  CHECK(codeOf(checkDistinctFiles(F)) == ExitCode::Usage);
}

TEST_CASE("checkDistinctFiles leaves stdin, devices and empty paths alone",
          "[OutputSafety]") {
  JobFiles F;
  F.Inputs = {{"the input", "-"}, {"--spec", ""}};
  F.ModuleOutput = {"-o", "-"};
  F.Outputs = {
      {"--manifest", "/dev/null"}, {"--log", "/dev/null"}, {"--other", ""}};
  CHECK(!checkDistinctFiles(F));
}

TEST_CASE("checkDistinctFiles lets one output alone write to stdout",
          "[OutputSafety]") {
  for (const char *Other :
       {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "/dev/./stdout"}) {
    INFO(Other);
    JobFiles F;
    F.ModuleOutput = {"-o", "-"};
    F.Outputs = {{"--report", Other}};
    CHECK(codeOf(checkDistinctFiles(F)) == ExitCode::Usage);
  }
  JobFiles Two;
  Two.Outputs = {{"--report", "/dev/stdout"}, {"--manifest", "-"}};
  CHECK(messageOf(checkDistinctFiles(Two)) ==
        "--report /dev/stdout and --manifest - both write to standard "
        "output; nothing was written");
}

TEST_CASE("checkDistinctFiles refuses an input inside an output directory",
          "[OutputSafety]") {
  InputAndLink S;
  JobFiles F;
  F.Inputs = {{"the input", S.path("in.ll")}};
  F.OutputDirs = {{"--emit-dir", S.path("plan")}};
  CHECK(!checkDistinctFiles(F));
  F.OutputDirs = {{"--emit-dir", std::string(S.Dir)}};
  CHECK(codeOf(checkDistinctFiles(F)) == ExitCode::Usage);
  // A sibling whose name starts with the directory's is not inside it.
  F.OutputDirs = {{"--emit-dir", S.path("in")}};
  CHECK(!checkDistinctFiles(F));
}

TEST_CASE("checkDistinctFiles escapes the paths it names", "[OutputSafety]") {
  JobFiles F;
  F.ModuleOutput = {"-o", "/nonexistent-dir/a\nb"};
  F.Outputs = {{"--report", "/nonexistent-dir/a\nb"}};
  std::string Msg = messageOf(checkDistinctFiles(F));
  CHECK(Msg.find('\n') == std::string::npos);
  CHECK(Msg.find("a\\0Ab") != std::string::npos);
}
