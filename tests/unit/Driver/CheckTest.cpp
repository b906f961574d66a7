// runCheck: the `check` command as one driver call.
#include "../Enzyme/EnzymeTestUtils.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/Check.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

const char *const Bundled = R"(
declare void @f(i32)
define void @g() {
  call void @f(i32 1) [ "foo"(i32 7) ]
  ret void
}
)";

const char *const Clean = R"(
define void @g() {
  ret void
}
)";

std::string contentsOf(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path);
  REQUIRE(Buf);
  return (*Buf)->getBuffer().str();
}

} // namespace

TEST_CASE("runCheck prints the findings and says whether the module is clean",
          "[Driver][Check]") {
  WorkDir Dir("irs-check-job");
  CheckRequest Req;
  Req.Input = Dir.write("in.ll", Bundled);
  Req.Output = Dir.path("findings.txt");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<CheckJobResult> Job = runCheck(Req, Ctx, Diags);
  REQUIRE(static_cast<bool>(Job));
  CHECK_FALSE(Job->Clean);
  CHECK(Job->Module);
  CHECK(Diags.Messages.empty());
  CHECK(contentsOf(Req.Output) ==
        Req.Input + ": 1 call sites with bundles Enzyme aborts on:\n"
                    "  g: call to f: bundle \"foo\" (1 operands)\n");
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
  Expected<json::Value> Doc = json::parse(contentsOf(Req.Output));
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
