// The runner's table and JSON report (src/tools/ir-sanitize-gpurun/Report.cpp):
// targets per kernel, the gradient-only reverse target, the grid-stride
// choice with every block count tried, and the count of passed, failed and
// skipped checks.
#include "Report.h"

#include "../../Launch/RunPlanSample.h"

#include "llvm/Support/JSON.h"

#include "CatchCompat.h"

#include <sstream>

using namespace gpurun;

namespace {
Timing timing(KernelRole Role, bool Cold, double Ms) {
  Timing T;
  T.Role = Role;
  T.ColdL2 = Cold;
  T.MedianMs = T.MinMs = Ms;
  T.Samples = 50;
  T.LaunchesPerSample = Cold ? 1 : 20;
  T.Bytes = 8 << 20;
  T.GridX = 4096;
  return T;
}

RunPlan planWithReverse(bool GradientOnly) {
  RunPlan P;
  P.Kernel = "k";
  for (KernelRole Role : {KernelRole::Original, KernelRole::Reverse})
    irs::test::kernelOf(P, Role).Entry = irs::spelling(Role);
  irs::test::kernelOf(P, KernelRole::Reverse).GradientOnly = GradientOnly;
  return P;
}

/// Original 8 us, reverse 12.8 us (1.6x), both cold; one passing check.
RunResults results() {
  RunResults R;
  R.Device = "test device";
  R.AttainableBytesPerSecond = 4e12;
  R.PeakBytesPerSecond = 4.8e12;
  R.Grid[0] = 4096;
  R.Grid[1] = R.Grid[2] = R.Block[1] = R.Block[2] = 1;
  R.Block[0] = 256;
  CheckResult C;
  C.Name = "reverse";
  C.Ran = C.Passed = true;
  R.Checks.push_back(C);
  R.Timings = {timing(KernelRole::Original, true, 0.008),
               timing(KernelRole::Reverse, true, 0.0128)};
  return R;
}

std::string table(const RunPlan &P, const RunResults &R) {
  std::ostringstream OS;
  printTable(OS, P, R);
  return OS.str();
}

llvm::json::Object report(const RunPlan &P, const RunResults &R) {
  std::ostringstream OS;
  printJSON(OS, P, R);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(OS.str());
  REQUIRE(static_cast<bool>(V));
  return *V->getAsObject();
}

const llvm::json::Object &reverseTiming(const llvm::json::Object &J) {
  const llvm::json::Array &Rows = *J.getArray("timings");
  REQUIRE(Rows.size() == 2);
  return *Rows[1].getAsObject();
}
} // namespace

TEST_CASE("a reverse kernel that keeps the primal outputs has target 2.0, a "
          "gradient-only one 1.5",
          "[Report]") {
  RunResults R = results();
  RunPlan Kept = planWithReverse(false), Dropped = planWithReverse(true);
  CHECK(table(Kept, R).find("<= 2.00 met") != std::string::npos);
  CHECK(table(Kept, R).find("gradient only") == std::string::npos);
  CHECK(table(Dropped, R).find("<= 1.50 MISSED") != std::string::npos);
  CHECK(table(Dropped, R).find("reverse: gradient only") != std::string::npos);

  llvm::json::Object J = report(Dropped, R);
  CHECK(J.getBoolean("gradient_only") == true);
  const llvm::json::Object &Row = reverseTiming(J);
  CHECK(Row.getNumber("ratio_to_original") == Approx(1.6));
  CHECK(Row.getNumber("target_ratio") == 1.5);
  CHECK(Row.getBoolean("meets_target") == false);
  CHECK(reverseTiming(report(Kept, R)).getBoolean("meets_target") == true);
}

TEST_CASE("the table says how many samples of how many launches each timing "
          "took",
          "[Report]") {
  RunResults R = results();
  R.Timings[1].Samples = 3; // a slow reverse kernel over its time budget
  std::string T = table(planWithReverse(false), R);
  CHECK(T.find(" 50x1 ") != std::string::npos);
  CHECK(T.find(" 3x1 ") != std::string::npos);
  CHECK(T.find("SxL") != std::string::npos);
  CHECK(
      reverseTiming(report(planWithReverse(false), R)).getInteger("samples") ==
      3);
}

TEST_CASE("the grid-stride choice lists every block count tried", "[Report]") {
  RunResults R = results();
  GridChoice G;
  G.PlainBlocks = 4096;
  G.PlainMs = 0.0133;
  G.PlainRegisters = 22;
  G.StridedRegisters = 26;
  G.StridedTried = {{1056, 0.0095}, {528, 0.0081}, {264, 0.0090}};
  G.StridedBlocks = 528;
  G.StridedMs = 0.0081;
  G.Strided = true;
  R.Grids.push_back(G);
  RunPlan P = planWithReverse(false);
  CHECK(table(P, R).find("its grid-stride version (26 registers) 0.0095 ms "
                         "with 1056 blocks (all resident), 0.0081 with 528, "
                         "0.0090 with 264; timed: the version with 528") !=
        std::string::npos);
  llvm::json::Object J = report(P, R);
  const llvm::json::Array &Grids = *J.getArray("grid_stride");
  REQUIRE(Grids.size() == 1);
  const llvm::json::Object &Choice = *Grids[0].getAsObject();
  CHECK(Choice.getInteger("grid_stride_blocks") == 528);
  CHECK(Choice.getString("timed") == "grid-stride");
  const llvm::json::Array &Tried = *Choice.getArray("grid_stride_tried");
  REQUIRE(Tried.size() == 3);
  CHECK(Tried[2].getAsObject()->getInteger("blocks") == 264);
}

TEST_CASE("the table and the report count passed, failed and skipped "
          "checks; a skip is never a pass",
          "[Report]") {
  RunResults R = results();
  RunPlan P = planWithReverse(false);
  CHECK(table(P, R).find("\n1 passed, 0 failed, 0 skipped: all checks "
                         "passed\n") != std::string::npos);
  CHECK(report(P, R).getBoolean("passed") == true);
  CheckResult Skipped;
  Skipped.Name = "forward";
  Skipped.Detail = "no Enzyme plugin";
  R.Checks.push_back(Skipped);
  std::string Table = table(P, R);
  CHECK(Table.find("forward   SKIPPED -           -          no Enzyme "
                   "plugin") != std::string::npos);
  CHECK(Table.find("1 passed, 0 failed, 1 skipped: CHECKS SKIPPED") !=
        std::string::npos);
  CHECK(Table.find("all checks passed") == std::string::npos);
  llvm::json::Object J = report(P, R);
  CHECK(J.getBoolean("passed") == false);
  CHECK(J.getString("result") == "skipped");
  const llvm::json::Object &Summary = *J.getObject("summary");
  CHECK(Summary.getInteger("passed") == 1);
  CHECK(Summary.getInteger("failed") == 0);
  CHECK(Summary.getInteger("skipped") == 1);
  R.Checks.front().Passed = false;
  CHECK(table(P, R).find("0 passed, 1 failed, 1 skipped: CHECKS FAILED") !=
        std::string::npos);
  CHECK(report(P, R).getString("result") == "failed");
}

TEST_CASE("a vacuous check is VACUOUS in the table and the report, never a "
          "pass",
          "[Report]") {
  RunResults R = results();
  CheckResult Idle;
  Idle.Name = "primal";
  Idle.Ran = true;
  Idle.Vacuous = true;
  Idle.Detail = "0 of 1048576 output elements differ (bitwise); the original "
                "wrote 1 of 1048576; VACUOUS: ...";
  R.Checks.insert(R.Checks.begin(), Idle);
  std::string T = table(planWithReverse(false), R);
  CHECK(T.find("primal    VACUOUS") != std::string::npos);
  CHECK(T.find("1 passed, 0 failed, 1 vacuous, 0 skipped: CHECKS VACUOUS") !=
        std::string::npos);
  llvm::json::Object J = report(planWithReverse(false), R);
  CHECK(J.getString("result") == "vacuous");
  CHECK(J.getBoolean("passed") == false);
  CHECK(J.getObject("summary")->getInteger("vacuous") == 1);
  const llvm::json::Object &First = *(*J.getArray("checks"))[0].getAsObject();
  CHECK(First.getString("result") == "VACUOUS");
}
