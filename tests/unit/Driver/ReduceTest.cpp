// The reduce pipeline with the stand-in Enzyme plugins and shell scripts as
// the interestingness test: every verdict and a full reduction, no real
// Enzyme needed (llvm-reduce is the one next to this LLVM's opt).
#include "../Enzyme/EnzymeTestUtils.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/Reduce.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// A module as the reduce command hands it over: drivers added, one unused
/// function for the slice to cut.
const char *const WithDriver = R"(
declare double @__enzyme_fwddiff(ptr, ...)
define double @square(double %x) {
  %y = fmul double %x, %x
  ret double %y
}
define double @unused(double %x) {
  %a = fadd double %x, 1.0
  %b = fmul double %a, %a
  %c = fsub double %b, %x
  ret double %c
}
define double @square.fwd(double %x, double %dx) {
  %r = call double (ptr, ...) @__enzyme_fwddiff(ptr @square, double %x, double %dx)
  ret double %r
}
)";

/// Both sides of a reduction, the config with \p Plugin, and what the
/// reduction reported.
struct Fixture {
  WorkDir Dir{"irs-reduce-test"};
  LLVMContext Ctx;
  std::unique_ptr<Module> Original = parseModule(Ctx, WithDriver);
  std::unique_ptr<Module> Sanitized = parseModule(Ctx, WithDriver);
  ReduceConfig Config;
  CollectingDiagnosticHandler Diags;

  explicit Fixture(StringRef Plugin) {
    Config.Enzyme.PluginPath = fakePlugin(Plugin);
    Config.Enzyme.TimeoutSeconds = 60;
    Config.Jobs = 2;
    Config.ReducedName = "min.ll";
  }
  std::vector<std::string> notes() const {
    return Diags.of(DiagnosticKind::Note);
  }
  Expected<ReduceResult> reduce() {
    return reduceEnzymeFailure(*Original, *Sanitized, Dir.Dir, Config, Diags);
  }
};

std::string verdictOf(Expected<ReduceResult> &R) {
  if (!R)
    FAIL(toString(R.takeError()));
  REQUIRE(R->Verdict);
  CHECK(R->Verdict->Code == ExitCode::Findings);
  CHECK_FALSE(R->Reduced);
  return R->Verdict->Message;
}

} // namespace

TEST_CASE("reduce: llvm-reduce must be there", "[Driver][Reduce]") {
  ReduceConfig Config;
  Config.ReducerPath = "/nonexistent/llvm-reduce";
  Error E = checkLLVMReduce(Config);
  std::string Msg = toString(std::move(E));
  CHECK(Msg.rfind("no llvm-reduce at /nonexistent/llvm-reduce (it comes with "
                  "opt, in llvm-",
                  0) == 0);
  CHECK(codeOf(checkLLVMReduce(Config)) == ExitCode::NoEnzyme);
  // The tests below need the real one.
  REQUIRE(codeOf(checkLLVMReduce(ReduceConfig())) == ExitCode::Ok);
}

TEST_CASE("reduce: nothing to reduce when Enzyme succeeds",
          "[Driver][Reduce]") {
  Fixture F("FakeEnzymeNoop.so");
  Expected<ReduceResult> Both = F.reduce();
  CHECK(verdictOf(Both) == "nothing to reduce: Enzyme differentiates the "
                           "module as given and sanitised");
  F.Config.Side = ReduceSide::Sanitized;
  Expected<ReduceResult> After = F.reduce();
  CHECK(verdictOf(After) ==
        "nothing to reduce: Enzyme differentiates the sanitised module");
  F.Config.Side = ReduceSide::Original;
  Expected<ReduceResult> Before = F.reduce();
  CHECK(verdictOf(Before) ==
        "nothing to reduce: Enzyme differentiates the module as given");
  CHECK(F.notes().empty());
}

TEST_CASE("reduce: a failure that does not repeat is flaky",
          "[Driver][Reduce]") {
  Fixture F("FakeEnzymeFlaky.so");
  // The stand-in aborts on the run that creates this file, not after.
  REQUIRE(::setenv("FAKE_ENZYME_FLAKY_STATE", F.Dir.path("flaky.state").c_str(),
                   1) == 0);
  F.Config.Side = ReduceSide::Original;
  Expected<ReduceResult> R = F.reduce();
  ::unsetenv("FAKE_ENZYME_FLAKY_STATE");
  CHECK(verdictOf(R) == "flaky: Enzyme failed once (signal 6 (SIGABRT): "
                        "unsupported tag gc-transition) but not the same way "
                        "again (ok); nothing to reduce");
  CHECK(R->Side == ReduceSide::Original);
  REQUIRE(F.notes().size() == 1);
  CHECK(F.notes()[0].rfind("reducing the module as given (before sanitising): "
                           "Enzyme aborted (signal 6 (SIGABRT))",
                           0) == 0);
}

TEST_CASE("reduce: llvm-reduce stopping is a verdict", "[Driver][Reduce]") {
  Fixture F("FakeEnzymeAbort.so");
  // A test that finds nothing interesting: llvm-reduce refuses the input.
  F.Config.TestProgram = "/bin/false";
  Expected<ReduceResult> R = F.reduce();
  std::string Msg = verdictOf(R);
  CHECK(Msg.rfind("llvm-reduce stopped (", 0) == 0);
  CHECK(Msg.find("); see " + F.Dir.path("llvm-reduce.log")) !=
        std::string::npos);
  // The sanitised side first; the slice was cut and still fails.
  REQUIRE(F.notes().size() == 3);
  CHECK(F.notes()[0].rfind("reducing the sanitised module (after sanitising)",
                           0) == 0);
  CHECK(F.notes()[1] == "signature: signal 6 (SIGABRT): unsupported tag "
                        "gc-transition; " +
                            ModuleSize::of(*F.Sanitized).describe());
  CHECK(F.notes()[2].rfind("cut to what the Enzyme calls reach (", 0) == 0);
}

TEST_CASE("reduce: a full reduction with a shell script as the test",
          "[Driver][Reduce]") {
  Fixture F("FakeEnzymeAbort.so");
  // Interesting while the candidate ($2) calls __enzyme_fwddiff; $1 is the
  // signature file the driver wrote.
  F.Config.TestProgram = "/bin/sh";
  F.Config.TestArgs = {
      "-c", "test -s \"$1\" && grep -q 'call .*@__enzyme_fwddiff(' \"$2\"",
      "interesting.sh"};
  Expected<ReduceResult> R = F.reduce();
  if (!R)
    FAIL(toString(R.takeError()));
  INFO((R->Verdict ? R->Verdict->Message : ""));
  REQUIRE_FALSE(R->Verdict);
  REQUIRE(R->Reduced);
  CHECK(R->Side == ReduceSide::Sanitized);
  CHECK(R->Signature.describe() ==
        "signal 6 (SIGABRT): unsupported tag gc-transition");
  CHECK(R->Before.Instructions == 8);
  CHECK(R->After.Instructions < R->Before.Instructions);
  CHECK(R->After.Bytes == ModuleSize::of(*R->Reduced).Bytes);
  CHECK(R->Reduced->getModuleIdentifier() == "min.ll");
  CHECK(R->Reduced->getSourceFileName() == "min.ll");
  CHECK_FALSE(R->StoppedAtMaxTime);
  CHECK_FALSE(F.Diags.of(DiagnosticKind::Progress).empty());
  CHECK(sys::fs::exists(F.Dir.path("signature.json")));
}

TEST_CASE("reduce: the interestingness test's decision", "[Driver][Reduce]") {
  WorkDir Dir("irs-reduce-test");
  DifferentiateConfig C;
  C.PluginPath = fakePlugin("FakeEnzymeAbort.so");
  C.TimeoutSeconds = 60;
  std::string Calls = Dir.write("calls.ll", WithDriver);
  std::string NoCall = Dir.write("nocall.ll", "define void @f() {\n"
                                              "  ret void\n}\n");
  FailureSignature Abort;
  Abort.Code = 6;
  Abort.Message = "unsupported tag gc-transition";
  std::string Sig = Dir.write("sig.json", formatv("{0}", toJSON(Abort)).str());
  Expected<bool> Same = failsLikeSignature(Calls, Sig, C);
  REQUIRE(static_cast<bool>(Same));
  CHECK(*Same);
  // Without its Enzyme call a candidate fails for another reason.
  Same = failsLikeSignature(NoCall, Sig, C);
  REQUIRE(static_cast<bool>(Same));
  CHECK_FALSE(*Same);
  C.PluginPath = fakePlugin("FakeEnzymeNoop.so");
  Same = failsLikeSignature(Calls, Sig, C);
  REQUIRE(static_cast<bool>(Same));
  CHECK_FALSE(*Same);

  CHECK(
      codeOf(failsLikeSignature(Calls, Dir.path("none.json"), C).takeError()) ==
      ExitCode::BadInput);
  CHECK(codeOf(failsLikeSignature(Dir.path("none.ll"), Sig, C).takeError()) ==
        ExitCode::BadInput);
  std::string Bad = Dir.write("bad.json", "{\"kind\": 7}");
  CHECK(codeOf(failsLikeSignature(Calls, Bad, C).takeError()) ==
        ExitCode::BadInput);
  C.PluginPath = fakePlugin("FakeEnzymeAbort.so");
  C.ExtraOptArgs = {"-no-such-opt-option"};
  // opt refuses the option: Enzyme fails, but not the same way.
  Same = failsLikeSignature(Calls, Sig, C);
  REQUIRE(static_cast<bool>(Same));
  CHECK_FALSE(*Same);
}

TEST_CASE("runReduce: a verdict, with every step reported as reduce progress",
          "[Driver][Reduce]") {
  WorkDir Dir("irs-reduce-job");
  ReduceRequest Req;
  Req.Sanitize.Input = Dir.write("in.ll", WithDriver);
  Req.Sanitize.Output = Dir.path("min.ll");
  Req.PluginPath = fakePlugin("FakeEnzymeNoop.so");
  Req.Enzyme.TimeoutSeconds = 60;
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<ReduceJobResult> Job = runReduce(Req, Ctx, Diags);
  if (!Job)
    FAIL(toString(Job.takeError()));
  REQUIRE(Job->Verdict);
  CHECK(Job->Verdict->Message == "nothing to reduce: Enzyme differentiates "
                                 "the module as given and sanitised");
  CHECK(Job->InputName == Req.Sanitize.Input);
  sys::fs::remove_directories(Job->WorkDir);
  CHECK_FALSE(sys::fs::exists(Req.Sanitize.Output));
  // The sanitize summary; the reduction said nothing before its verdict.
  std::vector<std::string> Progress = Diags.of(DiagnosticKind::Progress);
  REQUIRE(Progress.size() == 1);
  CHECK(Progress[0].rfind(Req.Sanitize.Input + ": 0 bundles", 0) == 0);
}

TEST_CASE("runReduce: no plugin, no llvm-reduce, no input",
          "[Driver][Reduce]") {
  WorkDir Dir("irs-reduce-job");
  ReduceRequest Req;
  Req.Sanitize.Input = Dir.write("in.ll", WithDriver);
  Req.Sanitize.Output = Dir.path("min.ll");
  Req.PluginPath = Dir.path("LLVMEnzyme-0.so");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  CHECK(codeOf(runReduce(Req, Ctx, Diags).takeError()) == ExitCode::NoEnzyme);
  Req.PluginPath = fakePlugin("FakeEnzymeNoop.so");
  Req.ReducerPath = "/nonexistent/llvm-reduce";
  CHECK(codeOf(runReduce(Req, Ctx, Diags).takeError()) == ExitCode::NoEnzyme);
  Req.Sanitize.Input = Dir.path("missing.ll");
  CHECK(codeOf(runReduce(Req, Ctx, Diags).takeError()) == ExitCode::BadInput);
  CHECK(Diags.Messages.empty());
  CHECK_FALSE(sys::fs::exists(Req.Sanitize.Output));
}
