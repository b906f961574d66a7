#include "ir-sanitize/Enzyme/Reducer.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

TEST_CASE("a candidate keeps its Enzyme entry calls", "[Reducer]") {
  CHECK(callsEnzymeEntryPoint(
      "declare double @__enzyme_fwddiff(...)\n"
      "define double @d(double %x) {\n"
      "  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x)\n"
      "  ret double %r\n}\n"));
  CHECK(callsEnzymeEntryPoint("  tail call void (...) @__enzyme_autodiff(ptr "
                              "@f)"));
  // Only declared, or only mentioned: gone.
  CHECK_FALSE(callsEnzymeEntryPoint("declare double @__enzyme_fwddiff(...)\n"
                                    "define void @g() {\n  ret void\n}\n"));
  CHECK_FALSE(callsEnzymeEntryPoint("@p = global ptr @__enzyme_fwddiff\n"));
  CHECK_FALSE(callsEnzymeEntryPoint(""));
}

TEST_CASE("llvm-reduce runs the test with its arguments", "[Reducer]") {
  LLVMReduceRequest R;
  R.InputPath = "in.ll";
  R.OutputPath = "out.ll";
  R.TestProgram = "/bin/ir-sanitize";
  R.TestArgs = {"reduce", "--interestingness-test=sig.json"};
  R.Jobs = 3;
  std::vector<std::string> Want = {"--test=/bin/ir-sanitize",
                                   "--test-arg=reduce",
                                   "--test-arg=--interestingness-test=sig.json",
                                   "-j",
                                   "3",
                                   "-o",
                                   "out.ll",
                                   "in.ll"};
  CHECK(llvmReduceArgs(R) == Want);
}
