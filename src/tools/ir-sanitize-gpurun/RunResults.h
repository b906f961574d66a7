//===- RunResults.h - What one run of a plan found --------------*- C++ -*-===//
//
// The checks, grid choices and timings PlanRunner produces and Report prints.
// Nothing here needs the CUDA driver, so the report is unit-tested on
// machines without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_RUNRESULTS_H
#define IR_SANITIZE_GPURUN_RUNRESULTS_H

#include "ir-sanitize/Launch/RunPlanSchema.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpurun {

using irs::KernelRole;

struct CheckResult {
  std::string Name;
  bool Ran = false;
  bool Passed = false;
  /// Not passed because it exercised nothing: an output the launch barely
  /// wrote, derivatives that are zero on both sides (VACUOUS).
  bool Vacuous = false;
  double Value = 0;     ///< Differing elements, or a relative error.
  double Tolerance = 0; ///< The bound Value had to meet.
  std::string Detail;   ///< One line for the table.
};

/// Which cache state the timings are taken in.
enum class L2Timing { Warm, Cold, Both };

struct Timing {
  KernelRole Role = KernelRole::Original;
  bool ColdL2 = false; ///< L2 flushed before every launch.
  double MedianMs = 0;
  double MinMs = 0;
  unsigned Samples = 0; ///< Timed samples (the median is over these).
  unsigned LaunchesPerSample = 0;
  uint64_t Bytes = 0; ///< What the kernel must move at least (Bandwidth.h).
  unsigned GridX = 0; ///< Blocks launched along x (fewer for grid-stride).
  bool GridStride = false; ///< The grid-stride version was timed.
};

/// Which of a kernel and its grid-stride version was launched, and why.
struct GridChoice {
  KernelRole Role = KernelRole::Reverse;
  unsigned PlainBlocks = 0, StridedBlocks = 0;       ///< x blocks launched.
  double PlainMs = 0, StridedMs = 0;                 ///< Median warm times.
  unsigned PlainRegisters = 0, StridedRegisters = 0; ///< Per thread.
  /// Every block count the version was timed with, and its median warm time;
  /// the first is the device's resident blocks.
  std::vector<std::pair<unsigned, double>> StridedTried;
  bool Strided = false; ///< The version was faster.
};

struct RunResults {
  std::string Device;
  double PeakBytesPerSecond = 0; ///< 0: the driver did not say.
  /// What a streaming copy attains (CudaDevice::copyBandwidth).
  double AttainableBytesPerSecond = 0;
  unsigned Grid[3], Block[3];
  std::vector<CheckResult> Checks;
  std::vector<GridChoice> Grids;
  std::vector<Timing> Timings;
};

} // namespace gpurun

#endif
