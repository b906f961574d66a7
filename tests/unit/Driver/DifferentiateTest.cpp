// runDifferentiate and prepareEnzymeSides: the `enzyme` command as one
// driver call, without a real Enzyme (the wrapper-only job needs none).
#include "../Enzyme/EnzymeTestUtils.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/Differentiate.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

const char *const Square = R"(
define double @square(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
)";

/// A kernel the splat rewrites: its aggregate parameter becomes three.
const char *const Kernel = R"(
%Pair = type { ptr addrspace(1), { i32, double } }
define void @k(%Pair %p) {
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)";

} // namespace

TEST_CASE("runDifferentiate writes the sanitized module with its wrapper",
          "[Driver][Differentiate]") {
  WorkDir Dir("irs-enzyme-job");
  EnzymeRequest Req;
  Req.Sanitize.Input = Dir.write("in.ll", Square);
  Req.Sanitize.Output = Dir.path("out.ll");
  Req.Enzyme.Fn = "square";
  Req.Enzyme.Mode = "forward";
  Req.WrapperOnly = true;
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<EnzymeJobResult> Job = runDifferentiate(Req, Ctx, Diags);
  REQUIRE(static_cast<bool>(Job));
  CHECK(Job->Code == ExitCode::Ok);
  CHECK_FALSE(Job->Failure);
  CHECK(Job->WorkDir.empty());
  auto Out = MemoryBuffer::getFile(Req.Sanitize.Output);
  REQUIRE(Out);
  CHECK((*Out)->getBuffer().contains("define double @square.fwd("));
  std::vector<std::string> Progress = Diags.of(DiagnosticKind::Progress);
  REQUIRE(Progress.size() == 1);
  CHECK(Progress[0].rfind(Req.Sanitize.Input + ": 0 bundles", 0) == 0);
}

TEST_CASE("runDifferentiate: a module without Enzyme calls needs --fn",
          "[Driver][Differentiate]") {
  WorkDir Dir("irs-enzyme-job");
  EnzymeRequest Req;
  Req.Sanitize.Input = Dir.write("in.ll", Square);
  Req.Sanitize.Output = Dir.path("out.ll");
  Req.WrapperOnly = true;
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Error E = runDifferentiate(Req, Ctx, Diags).takeError();
  std::string Msg = toString(std::move(E));
  CHECK(Msg.find("calls neither __enzyme_fwddiff nor __enzyme_autodiff") !=
        std::string::npos);
  CHECK_FALSE(sys::fs::exists(Req.Sanitize.Output));
}

TEST_CASE("prepareEnzymeSides notes the original's default activities",
          "[Driver][Differentiate]") {
  LLVMContext Ctx;
  LoadedModule LM;
  LM.M = parseModule(Ctx, Kernel);
  LM.DisplayName = "k.ll";
  SanitizeRequest Req;
  DifferentiateConfig D;
  D.Fn = "k";
  D.Mode = "forward";
  // A manifest path: only the splatted side has the manifest.
  D.Activity = {"0.0=dup"};
  CollectingDiagnosticHandler Diags;
  Expected<EnzymeSides> Sides = prepareEnzymeSides(LM, Req, D, Diags);
  if (!Sides)
    FAIL(toString(Sides.takeError()));
  sys::fs::remove_directories(Sides->WorkDir);
  CHECK(Sides->Original->getFunction("k.fwd"));
  CHECK(LM.M->getFunction("k.fwd"));
  CHECK(Sides->Result.Manifest.Kernels.size() == 1);
  std::vector<std::string> Notes = Diags.of(DiagnosticKind::Note);
  REQUIRE(Notes.size() == 1);
  CHECK(Notes[0].rfind("original module: ", 0) == 0);
  const std::string Tail = "; using default activities";
  CHECK(Notes[0].size() > Tail.size());
  CHECK(Notes[0].compare(Notes[0].size() - Tail.size(), Tail.size(), Tail) ==
        0);
}

TEST_CASE("runDifferentiate runs Enzyme and writes what it returns",
          "[Driver][Differentiate]") {
  WorkDir Dir("irs-enzyme-job");
  EnzymeRequest Req;
  Req.Sanitize.Input = Dir.write("in.ll", Square);
  Req.Sanitize.Output = Dir.path("out.ll");
  Req.Enzyme.Fn = "square";
  Req.Enzyme.Mode = "forward";
  Req.Enzyme.TimeoutSeconds = 60;
  // Leaves the module as it is: Enzyme "succeeds".
  Req.PluginPath = fakePlugin("FakeEnzymeNoop.so");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<EnzymeJobResult> Job = runDifferentiate(Req, Ctx, Diags);
  if (!Job)
    FAIL(toString(Job.takeError()));
  CHECK(Job->Code == ExitCode::Ok);
  CHECK_FALSE(Job->Failure);
  CHECK(sys::fs::exists(Req.Sanitize.Output));
  // A success removes the work directory.
  CHECK_FALSE(sys::fs::exists(Job->WorkDir));
  std::vector<std::string> Progress = Diags.of(DiagnosticKind::Progress);
  REQUIRE(Progress.size() == 2);
  CHECK(Progress[1].rfind(Req.Sanitize.Input + ": Enzyme succeeded in ", 0) ==
        0);
  CHECK(Progress[1].find("; restored 0 stashed bundles") != std::string::npos);
}
