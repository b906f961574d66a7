// runCheck: the `check` command as one driver call.
#include "../Enzyme/EnzymeTestUtils.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/Check.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

const char *const Clean = R"(
define void @g() {
  ret void
}
)";

} // namespace

TEST_CASE("runCheck prints the findings and says whether the module is clean",
          "[Driver][Check]") {
  WorkDir Dir("irs-check-job");
  CheckRequest Req;
  Req.Input = Dir.write("in.ll", UnknownBundleModule);
  Req.Output = Dir.path("findings.txt");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<CheckJobResult> Job = runCheck(Req, Ctx, Diags);
  REQUIRE(static_cast<bool>(Job));
  CHECK_FALSE(Job->Clean);
  CHECK(Job->Module);
  CHECK(Diags.Messages.empty());
  CHECK(readText(Req.Output) ==
        Req.Input + ": 1 call sites with bundles Enzyme rejects:\n"
                    "  g: call to f: bundle \"foo\" (1 operands): rejected "
                    "by every Enzyme\n");
}

TEST_CASE("runCheck with a plugin reports what that Enzyme rejects",
          "[Driver][Check]") {
  WorkDir Dir("irs-check-job");
  CheckRequest Req;
  Req.Input = Dir.write("in.ll", R"(
declare void @f(i32)
define void @g() {
  call void @f(i32 1) [ "foo"(i32 7) ]
  call void @f(i32 2) [ "bar"() ]
  call void @f(i32 3) [ "foo"(i32 8) ]
  ret void
}
)");
  Req.Output = Dir.path("findings.txt");
  Req.EnzymePlugin = fakePlugin("FakeEnzymeStrict.so");
  Req.ProbeCacheDir = Dir.path("cache");
  ::setenv("FAKE_ENZYME_ACCEPTS", "foo", 1);
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<CheckJobResult> Job = runCheck(Req, Ctx, Diags);
  ::unsetenv("FAKE_ENZYME_ACCEPTS");
  REQUIRE(static_cast<bool>(Job));
  CHECK_FALSE(Job->Clean);
  REQUIRE(Job->Enzyme);
  CHECK(Job->Enzyme->Probed == 2);
  CHECK(readText(Req.Output) ==
        Req.Input +
            ": 1 call sites with bundles this Enzyme rejects:\n"
            "  g: call to f: bundle \"bar\" (0 operands): rejected "
            "by this Enzyme\n" +
            Req.Input +
            ": 1 bundle shapes this Enzyme accepts:\n"
            "  \"foo\"(i32): 2 call sites: accepted by this "
            "Enzyme; the default rewrite still stashes it "
            "(restore puts it back after Enzyme)\n");
}

TEST_CASE("runCheck: a plugin that is not one is refused", "[Driver][Check]") {
  WorkDir Dir("irs-check-job");
  CheckRequest Req;
  Req.Input = Dir.write("in.ll", UnknownBundleModule);
  Req.Output = Dir.path("findings.txt");
  Req.EnzymePlugin = fakePlugin("NotAPlugin.so");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<CheckJobResult> Job = runCheck(Req, Ctx, Diags);
  REQUIRE_FALSE(static_cast<bool>(Job));
  CHECK(codeOf(Job.takeError()) == ExitCode::NoEnzyme);
  CHECK_FALSE(sys::fs::exists(Req.Output));
}

TEST_CASE("runCheck on a clean module, as JSON", "[Driver][Check]") {
  WorkDir Dir("irs-check-job");
  CheckRequest Req;
  Req.Input = Dir.write("in.ll", Clean);
  Req.Output = Dir.path("findings.json");
  Req.JSON = true;
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<CheckJobResult> Job = runCheck(Req, Ctx, Diags);
  REQUIRE(static_cast<bool>(Job));
  CHECK(Job->Clean);
  Expected<json::Value> Doc = json::parse(readText(Req.Output));
  REQUIRE(static_cast<bool>(Doc));
  CHECK(Doc->getAsObject()->getBoolean("clean") == true);
}

TEST_CASE("runCheck: an unreadable input is bad input", "[Driver][Check]") {
  CheckRequest Req;
  Req.Input = "/nonexistent/in.ll";
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  CHECK(codeOf(runCheck(Req, Ctx, Diags).takeError()) == ExitCode::BadInput);
}
