//===- LaunchModel.h - A launch's buffers and check settings ----*- C++ -*-===//
//
// The parts of a launch that the spec (GPU/LaunchSpec.h), the run plan
// writer (src/GPU/RunPlan.cpp) and the runner (ir-sanitize-gpurun) hold
// alike, defined once and without LLVM: a device buffer, and the finite-
// difference step and tolerances of the derivative checks with their
// defaults. The words and limits are RunPlanSchema.h's.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_LAUNCH_LAUNCHMODEL_H
#define IR_SANITIZE_LAUNCH_LAUNCHMODEL_H

#include "ir-sanitize/Launch/RunPlanSchema.h"

#include <cstdint>
#include <string>

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
