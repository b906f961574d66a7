#include "ir-sanitize/Enzyme/FailureSignature.h"
#include "EnzymeTestUtils.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("Enzyme's messages lose what changes while a module shrinks",
          "[FailureSignature]") {
  CHECK(normalizeEnzymeMessage(
            "unsupported tag gc-transition for   %0 = call i32 @jlplt_f_1(ptr "
            "%\"attr::Base.RefValue\", i32 1) #10 [ \"gc-transition\"() ], "
            "!dbg !15") == "unsupported tag gc-transition");
  CHECK(normalizeEnzymeMessage("Enzyme: cannot handle unknown binary operator: "
                               "  %x = fneg double %y") ==
        "Enzyme: cannot handle unknown binary operator");
  CHECK(normalizeEnzymeMessage("No create nofree of empty function "
                               "julia_f_1520") ==
        "No create nofree of empty function ...");
  CHECK(normalizeEnzymeMessage("unsupported tag foo for store double %x, ptr "
                               "%p") == "unsupported tag foo");
  // The callee of a missing rule is the failure; it stays.
  CHECK(normalizeEnzymeMessage("Enzyme: No forward mode derivative found for "
                               "julia.get_pgcstack") ==
        "Enzyme: No forward mode derivative found for julia.get_pgcstack");
  CHECK(normalizeEnzymeMessage("Assertion `V && \"bad\"' failed.") ==
        "Assertion `V && \"bad\"' failed.");
  CHECK(normalizeEnzymeMessage("bad value @g and %v here") ==
        "bad value %... and %... here");
}

TEST_CASE("signatures compare kind, code, message, phase and frame",
          "[FailureSignature]") {
  EnzymeResult R;
  R.Outcome.How = ChildOutcome::Kind::Signalled;
  R.Outcome.Signal = 6;
  R.Diagnosis.Message = "unsupported tag gc-transition for %a = call i32 @f()";
  R.Diagnosis.Phase = "forward mode (CreateForwardDiff)";
  R.Diagnosis.Frame = "GradientUtils::getInvertedBundles";
  std::optional<FailureSignature> A = FailureSignature::of(R);
  REQUIRE(A);
  CHECK(A->describe() == "signal 6 (SIGABRT): unsupported tag gc-transition; "
                         "forward mode (CreateForwardDiff); in "
                         "GradientUtils::getInvertedBundles");
  // Another instruction, the same failure.
  R.Diagnosis.Message = "unsupported tag gc-transition for %b = call i32 @g()";
  CHECK(*FailureSignature::of(R) == *A);
  R.Diagnosis.Frame = "AdjointGenerator::visitCallInst";
  CHECK(*FailureSignature::of(R) != *A);
  R.Diagnosis.Frame = A->Frame;
  R.Outcome.Signal = 11;
  CHECK(*FailureSignature::of(R) != *A);

  EnzymeResult Hang;
  Hang.Outcome.How = ChildOutcome::Kind::TimedOut;
  Hang.Diagnosis.Message = "whatever the log said last";
  CHECK(FailureSignature::of(Hang)->describe() == "timeout");

  EnzymeResult Ok;
  CHECK_FALSE(FailureSignature::of(Ok));
}

TEST_CASE("signatures survive the JSON the interestingness test reads",
          "[FailureSignature]") {
  FailureSignature S;
  S.How = FailureSignature::Kind::ExitStatus;
  S.Code = 1;
  S.Message = "Enzyme: No forward mode derivative found for julia.get_pgcstack";
  std::string Text;
  raw_string_ostream(Text) << toJSON(S);
  Expected<FailureSignature> Back = parseFailureSignature(Text);
  REQUIRE(static_cast<bool>(Back));
  CHECK(*Back == S);

  for (const char *Bad : {"", "[]", "{\"kind\": \"crash\", \"code\": 1}",
                          "{\"kind\": \"signal\", \"code\": 1e99}",
                          "{\"kind\": \"signal\", \"code\": 6}"}) {
    INFO(Bad);
    Expected<FailureSignature> P = parseFailureSignature(Bad);
    CHECK_FALSE(static_cast<bool>(P));
    consumeError(P.takeError());
  }
  // Nested past the JSON depth limit: refused in one line, no deep recursion.
  Expected<FailureSignature> Deep = parseFailureSignature(
      std::string(100000, '[') + std::string(100000, ']'));
  REQUIRE_FALSE(static_cast<bool>(Deep));
  std::string Why = toString(Deep.takeError());
  CHECK(Why.find("failure signature: JSON nested deeper than") == 0);
}

TEST_CASE("a stack dump without llvm-symbolizer still names the plugin frame",
          "[FailureSignature]") {
  // What opt prints under LLVM_DISABLE_SYMBOLIZATION (llvm-reduce's tests).
  const char *Log =
      "unsupported tag gc-transition for   %0 = call i32 @f() [ "
      "\"gc-transition\"() ]\n"
      "Stack dump without symbol names (ensure you have llvm-symbolizer):\n"
      "0  libLLVM.so.19.1  0x00007f12d62b73c6 "
      "llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) + 54\n"
      "6  libc.so.6        0x00007f12d4e44472 abort + 211\n"
      "8  LLVMEnzyme-19.so 0x00007f12d10b9c2a "
      "GradientUtils::getInvertedBundles(llvm::CallInst*, bool) + 14850\n"
      "11 LLVMEnzyme-19.so 0x00007f12d0fca393 "
      "EnzymeLogic::CreateForwardDiff(RequestContext) + 5\n"
      "12 LLVMEnzyme-19.so 0x00007f12d0f7c1cd\n";
  EnzymeLogDiagnosis D = diagnoseEnzymeLog(Log);
  CHECK(D.Frame == "GradientUtils::getInvertedBundles");
  CHECK(D.Phase == "forward mode (CreateForwardDiff)");
  CHECK(D.Message.rfind("unsupported tag gc-transition for", 0) == 0);
}
