#include "../TestSupport.h"

#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Passes/PassBuilder.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {
struct Counts {
  unsigned N = 0;
};

/// Counts into the run's Counts: what a pass does with its results.
struct CountingPass : PassInfoMixin<CountingPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    if (PassResults *R = passResults(F, FAM))
      ++R->get<Counts>().N;
    return PreservedAnalyses::none(); // and the store stays
  }
};
} // namespace

TEST_CASE("results are kept by type, value-initialised on first use",
          "[PassResults]") {
  PassResults R;
  CHECK(R.find<Counts>() == nullptr);
  R.get<Counts>().N = 3;
  R.get<std::vector<int>>().push_back(1);
  REQUIRE(R.find<Counts>());
  CHECK(R.find<Counts>()->N == 3);
  CHECK(R.get<std::vector<int>>().size() == 1);
  CHECK(R.find<std::string>() == nullptr);
}

TEST_CASE("failures join and are taken once", "[PassResults]") {
  PassResults R;
  CHECK_FALSE(R.failed());
  R.fail(makeToolError(ExitCode::Usage, "first"));
  R.fail(makeToolError(ExitCode::Usage, "second"));
  CHECK(R.failed());
  std::string Msg = toString(R.takeFailure());
  CHECK(Msg.find("first") != std::string::npos);
  CHECK(Msg.find("second") != std::string::npos);
  CHECK_FALSE(R.failed());
  CHECK_FALSE(errorToBool(R.takeFailure()));
  R.note("a");
  R.note("b");
  CHECK(R.notes() == std::vector<std::string>{"a", "b"});
}

TEST_CASE("passes reach the runner's store as a module analysis",
          "[PassResults]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
define void @f() {
  ret void
}
define void @g() {
  ret void
}
)");
  PassResults R;
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  MAM.registerPass([&] { return PassResultsAnalysis(&R); });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(CountingPass()));
  MPM.addPass(createModuleToFunctionPassAdaptor(CountingPass()));
  // Not computed yet: a function pass sees no store.
  MPM.run(*M, MAM);
  CHECK(R.find<Counts>() == nullptr);
  REQUIRE(passResults(*M, MAM) == nullptr); // only a cached result counts
  MAM.getResult<PassResultsAnalysis>(*M);
  CHECK(passResults(*M, MAM) == &R);
  MPM.run(*M, MAM);
  REQUIRE(R.find<Counts>());
  CHECK(R.find<Counts>()->N == 4); // two passes, two functions
}

TEST_CASE("a failure goes to the store, or to the context without one",
          "[PassResults]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, "");
  PassResults R;
  reportPassFailure(*M, &R, "p", makeToolError(ExitCode::Usage, "bad"));
  CHECK(codeOf(R.takeFailure()) == ExitCode::Usage);
  struct Collect final : llvm::DiagnosticHandler {
    std::string &Seen;
    explicit Collect(std::string &Seen) : Seen(Seen) {}
    bool handleDiagnostics(const DiagnosticInfo &DI) override {
      raw_string_ostream OS(Seen);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
      return true;
    }
  };
  std::string Seen;
  Ctx.setDiagnosticHandler(std::make_unique<Collect>(Seen));
  reportPassFailure(*M, nullptr, "p", makeToolError(ExitCode::Usage, "bad"));
  CHECK(Seen == "p: bad");
}
