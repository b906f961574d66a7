// What a launch passes a kernel (src/tools/ir-sanitize-gpurun/
// LaunchArguments.cpp): the geometry, parameter bytes with the device
// addresses patched in, the grid-stride block count, and the block counts
// a grid-stride version is timed with.
#include "LaunchArguments.h"

#include "CatchCompat.h"

#include <cstring>
#include <stdexcept>

using namespace gpurun;

namespace {
uint64_t addressAt(const std::vector<uint8_t> &Bytes, size_t Offset) {
  uint64_t A;
  std::memcpy(&A, Bytes.data() + Offset, 8);
  return A;
}

/// A plan with buffers "a" and "b" and a kernel whose second parameter
/// holds \p Relocs.
RunPlan planWith(std::vector<AddressReloc> Relocs, size_t Size = 24) {
  RunPlan P;
  P.Launch.Buffers.resize(2);
  P.Launch.Buffers[0].Name = "a";
  P.Launch.Buffers[1].Name = "b";
  ParamImage Scalar;
  Scalar.Bytes = {1, 2, 3, 4};
  ParamImage Closure;
  Closure.Bytes.assign(Size, 0xAB);
  Closure.Relocs = std::move(Relocs);
  P.Kernels.resize(1);
  P.Kernels[0].Params = {Scalar, Closure};
  return P;
}

std::vector<std::vector<uint8_t>>
argumentsOf(const RunPlan &P, const std::vector<uint64_t> &Primal,
            const std::vector<uint64_t> &Shadow,
            std::optional<uint32_t> GridStrideBlocks) {
  return argumentBytes(P, P.Kernels[0], Primal, Shadow, GridStrideBlocks);
}
} // namespace

TEST_CASE("relocations become the primal or shadow address of their buffer",
          "[LaunchArguments]") {
  AddressReloc A{0, "b", false, std::nullopt}, B{16, "a", true, std::nullopt};
  std::vector<std::vector<uint8_t>> Args = argumentsOf(
      planWith({A, B}), {0x1000, 0x2000}, {0x3000, 0x4000}, std::nullopt);
  REQUIRE(Args.size() == 2);
  CHECK(Args[0] == std::vector<uint8_t>{1, 2, 3, 4});
  CHECK(addressAt(Args[1], 0) == 0x2000);
  CHECK(addressAt(Args[1], 16) == 0x3000);
  for (size_t I = 8; I < 16; ++I) // bytes between stay as the plan has them
    CHECK(Args[1][I] == 0xAB);
}

TEST_CASE("a grid-stride launch passes the blocks to cover last",
          "[LaunchArguments]") {
  std::vector<std::vector<uint8_t>> Args =
      argumentsOf(planWith({}), {}, {}, 4096u);
  REQUIRE(Args.size() == 3);
  uint32_t Blocks;
  REQUIRE(Args[2].size() == 4);
  std::memcpy(&Blocks, Args[2].data(), 4);
  CHECK(Blocks == 4096);
}

TEST_CASE("a relocation outside its parameter or buffers is refused",
          "[LaunchArguments]") {
  AddressReloc Past{17, "a", false, std::nullopt};
  CHECK_THROWS_AS(argumentsOf(planWith({Past}), {1}, {1}, std::nullopt),
                  std::out_of_range);
  AddressReloc Wrapping{UINT64_MAX - 3, "a", false, std::nullopt};
  CHECK_THROWS_AS(argumentsOf(planWith({Wrapping}), {1}, {1}, std::nullopt),
                  std::out_of_range);
  AddressReloc NoBuffer{0, "c", true, std::nullopt};
  CHECK_THROWS_AS(
      argumentsOf(planWith({NoBuffer}), {1, 2}, {1, 2}, std::nullopt),
      std::out_of_range);
}

TEST_CASE("the geometry is the plan's, or derived from its threads",
          "[LaunchArguments]") {
  RunPlan P;
  P.Launch.Grid[0] = 7;
  P.Launch.Grid[1] = P.Launch.Grid[2] = 1;
  P.Launch.Block[0] = 32;
  P.Launch.Block[1] = 2;
  P.Launch.Block[2] = 1;
  LaunchGeometry G = planGeometry(P);
  CHECK(G.Grid[0] == 7);
  CHECK(G.Block[1] == 2);
  P.Launch.Threads = 1000;
  G = planGeometry(P);
  CHECK(uint64_t(G.Grid[0]) * G.Block[0] >= 1000);
  CHECK(G.Grid[0] == irs::plan::threadsLaunchGrid(1000));
  CHECK(G.Block[0] == irs::plan::threadsLaunchBlock(1000));
  CHECK(G.Grid[1] == 1);
  P.Launch.Threads = irs::plan::MaxThreads;
  G = planGeometry(P);
  CHECK(uint64_t(G.Grid[0]) * G.Block[0] >= irs::plan::MaxThreads);
}

TEST_CASE("grid-stride versions are timed with all, half and a quarter of "
          "the resident blocks, each once",
          "[LaunchArguments]") {
  CHECK(stridedBlockCounts(1056) == std::vector<unsigned>{1056, 528, 264});
  CHECK(stridedBlockCounts(3) == std::vector<unsigned>{3, 1});
  CHECK(stridedBlockCounts(1) == std::vector<unsigned>{1});
  CHECK(stridedBlockCounts(0) == std::vector<unsigned>{1});
}
