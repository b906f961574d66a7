//===- LaunchModel.h - A launch's buffers and check settings ----*- C++ -*-===//
//
// The parts of a launch that the spec (GPU/LaunchSpec.h), the run plan
// (Launch/RunPlan.h, written by gpu-check and read by ir-sanitize-gpurun)
// hold alike, defined once and without LLVM: a device buffer, the launch
// (geometry, buffers, which checks run), and the finite-difference step and
// tolerances of the derivative checks with their defaults. The words and
// limits are RunPlanSchema.h's.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_LAUNCH_LAUNCHMODEL_H
#define IR_SANITIZE_LAUNCH_LAUNCHMODEL_H

#include "ir-sanitize/Launch/RunPlanSchema.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace irs {

/// A device buffer of a launch.
struct LaunchBuffer {
  std::string Name;
  ElementType Type = ElementType::F32;
  uint64_t Count = 0;
  BufferInit Init = BufferInit::Zero;
  uint64_t Seed = 0;
  bool Output = false;
  bool Wrt = false;

  /// Count * element size; readers guarantee that it does not wrap and
  /// stays within plan::MaxTotalBufferBytes.
  uint64_t sizeInBytes() const { return Count * elementSize(Type); }
  bool differentiated() const { return Output || Wrt; }
};

/// A kernel launch: its geometry, device buffers and which checks run. A
/// launch spec is one with the values of the argument leaves; a run plan
/// holds one with the kernels it launches.
struct KernelLaunch {
  uint64_t Threads = 0; ///< Nonzero: 1-D launch, the runner picks the block.
  std::array<unsigned, 3> Grid = {0, 0, 0};
  std::array<unsigned, 3> Block = {0, 0, 0};
  std::vector<LaunchBuffer> Buffers;
  bool DerivativeChecks = true; ///< Else the primal checks only.
  /// The outputs do not depend on the differentiated inputs (a step
  /// function, a comparison): a derivative that is zero on both sides of a
  /// check passes instead of being VACUOUS.
  bool ZeroDerivativeExpected = false;

  /// The grid and block it runs: Grid and Block, or for a `threads` launch
  /// the ones the plan schema derives from the count (RunPlanSchema.h).
  std::pair<std::array<unsigned, 3>, std::array<unsigned, 3>>
  gridAndBlock() const;
};

/// The step and tolerances of the derivative checks.
struct CheckSettings {
  double FdStep = 0;
  double ForwardTolerance = 0;
  double ReverseTolerance = 0;
};

/// The defaults when a spec gives none: for Float32 data, or for data whose
/// differentiated buffers are all Float64 (\p AllDouble). Central
/// differences lose about eps/h to rounding and h^2 to truncation.
CheckSettings defaultCheckSettings(bool AllDouble);

} // namespace irs

#endif
