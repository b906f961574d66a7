#include "ir-sanitize/Launch/LaunchModel.h"

#include "../TestSupport.h"

using namespace irs;

TEST_CASE("the check settings' defaults are defined once, by data type",
          "[LaunchModel]") {
  CheckSettings F32 = defaultCheckSettings(/*AllDouble=*/false);
  CHECK(F32.FdStep == 1e-3);
  CHECK(F32.ForwardTolerance == 1e-3);
  CHECK(F32.ReverseTolerance == 1e-5);
  CheckSettings F64 = defaultCheckSettings(/*AllDouble=*/true);
  CHECK(F64.FdStep == 1e-6);
  CHECK(F64.ForwardTolerance == 1e-7);
  CHECK(F64.ReverseTolerance == 1e-12);
  // Float64 data is checked more tightly than Float32 in every setting.
  CHECK(F64.FdStep < F32.FdStep);
  CHECK(F64.ForwardTolerance < F32.ForwardTolerance);
  CHECK(F64.ReverseTolerance < F32.ReverseTolerance);
}

TEST_CASE("a launch buffer's size and activity", "[LaunchModel]") {
  LaunchBuffer B;
  B.Type = ElementType::F64;
  B.Count = 3;
  CHECK(B.sizeInBytes() == 24);
  CHECK_FALSE(B.differentiated());
  B.Output = true;
  CHECK(B.differentiated());
  B.Output = false;
  B.Wrt = true;
  CHECK(B.differentiated());
  B.Type = ElementType::U8;
  CHECK(B.sizeInBytes() == 3);
}

TEST_CASE("a launch's grid and block: its own, or derived from its threads",
          "[LaunchModel]") {
  KernelLaunch L;
  L.Grid = {7, 1, 1};
  L.Block = {32, 2, 1};
  auto [Grid, Block] = L.gridAndBlock();
  CHECK(Grid == std::array<unsigned, 3>{7, 1, 1});
  CHECK(Block == std::array<unsigned, 3>{32, 2, 1});
  L.Threads = 1000;
  std::tie(Grid, Block) = L.gridAndBlock();
  CHECK(Grid[0] == plan::threadsLaunchGrid(1000));
  CHECK(Block[0] == plan::threadsLaunchBlock(1000));
  CHECK(uint64_t(Grid[0]) * Block[0] >= 1000);
  CHECK(Grid[1] == 1);
  CHECK(Block[2] == 1);
}
