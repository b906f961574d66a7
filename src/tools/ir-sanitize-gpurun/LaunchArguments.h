//===- LaunchArguments.h - What a launch passes a kernel --------*- C++ -*-===//
//
// The grid, the block and the parameter bytes of one launch, from the plan
// and the device addresses of its buffers. No CUDA here: PlanRunner hands
// the result to CudaDevice::launch.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_LAUNCHARGUMENTS_H
#define IR_SANITIZE_GPURUN_LAUNCHARGUMENTS_H

#include "PlanTypes.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gpurun {

struct LaunchGeometry {
  unsigned Grid[3];
  unsigned Block[3];
};

/// The plan's grid and block, or for a `threads` launch the ones the plan
/// schema derives from the thread count.
LaunchGeometry planGeometry(const RunPlan &P);

/// Each parameter's bytes of \p L, a kernel of \p P, with every
/// relocation's 8 bytes replaced by the address of its buffer (\p Primal or
/// \p Shadow, by the buffer's index in \p P); with
/// \p GridStrideBlocks, a last 4-byte parameter: the x blocks the
/// grid-stride version is to cover. A relocation outside its parameter or
/// naming a buffer without an address throws std::out_of_range.
std::vector<std::vector<uint8_t>>
argumentBytes(const RunPlan &P, const PlannedKernel &L,
              const std::vector<uint64_t> &Primal,
              const std::vector<uint64_t> &Shadow,
              std::optional<uint32_t> GridStrideBlocks);

/// The x block counts a grid-stride version is timed with: all
/// \p ResidentBlocks the device holds at once, half and a quarter of them,
/// each at least 1 and each once.
std::vector<unsigned> stridedBlockCounts(unsigned ResidentBlocks);

} // namespace gpurun

#endif
