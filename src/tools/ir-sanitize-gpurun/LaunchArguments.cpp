//===- LaunchArguments.cpp - What a launch passes a kernel ----------------===//
#include "LaunchArguments.h"

#include "ir-sanitize/Support/CheckedArithmetic.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gpurun {

LaunchGeometry planGeometry(const Plan &P) {
  LaunchGeometry G{{P.Grid[0], P.Grid[1], P.Grid[2]},
                   {P.Block[0], P.Block[1], P.Block[2]}};
  if (P.Threads) {
    // The plan reader bounds Threads, so the grid fits CUDA's limit.
    G = {{static_cast<unsigned>(irs::plan::threadsLaunchGrid(P.Threads)), 1, 1},
         {static_cast<unsigned>(irs::plan::threadsLaunchBlock(P.Threads)), 1,
          1}};
  }
  return G;
}

std::vector<std::vector<uint8_t>>
argumentBytes(const KernelLaunch &L, const std::vector<uint64_t> &Primal,
              const std::vector<uint64_t> &Shadow,
              std::optional<uint32_t> GridStrideBlocks) {
  std::vector<std::vector<uint8_t>> Args;
  for (const Param &Par : L.Params) {
    Args.push_back(Par.Bytes);
    for (const Reloc &R : Par.Relocs) {
      uint64_t Addr = (R.Shadow ? Shadow : Primal).at(R.BufferIndex);
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
