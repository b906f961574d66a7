//===- LaunchArguments.cpp - What a launch passes a kernel ----------------===//
#include "LaunchArguments.h"

#include "ir-sanitize/Support/CheckedArithmetic.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpurun {

LaunchGeometry planGeometry(const RunPlan &P) {
  auto [Grid, Block] = P.Launch.gridAndBlock();
  LaunchGeometry G;
  std::copy(Grid.begin(), Grid.end(), G.Grid);
  std::copy(Block.begin(), Block.end(), G.Block);
  return G;
}

std::vector<std::vector<uint8_t>>
argumentBytes(const RunPlan &P, const PlannedKernel &L,
              const std::vector<uint64_t> &Primal,
              const std::vector<uint64_t> &Shadow,
              std::optional<uint32_t> GridStrideBlocks) {
  std::vector<std::vector<uint8_t>> Args;
  for (const ParamImage &Par : L.Params) {
    Args.push_back(Par.Bytes);
    for (const AddressReloc &R : Par.Relocs) {
      uint64_t Addr = (R.Shadow ? Shadow : Primal).at(P.bufferIndex(R.Buffer));
      if (!irs::rangeFits(R.Offset, sizeof(Addr), Par.Bytes.size()))
        throw std::out_of_range("a relocation outside its parameter");
      std::memcpy(Args.back().data() + R.Offset, &Addr, sizeof(Addr));
    }
  }
  if (GridStrideBlocks) {
    Args.emplace_back(sizeof(uint32_t));
    std::memcpy(Args.back().data(), &*GridStrideBlocks, sizeof(uint32_t));
  }
  return Args;
}

std::vector<unsigned> stridedBlockCounts(unsigned ResidentBlocks) {
  std::vector<unsigned> Counts;
  for (unsigned Divisor : {1u, 2u, 4u}) {
    unsigned Blocks = std::max(1u, ResidentBlocks / Divisor);
    if (Counts.empty() || Counts.back() != Blocks)
      Counts.push_back(Blocks);
  }
  return Counts;
}

} // namespace gpurun
