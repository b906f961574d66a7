//===- PlanTypes.h - The run plan's names in the runner ---------*- C++ -*-===//
//
// The runner holds the plan as the launch library defines and reads it
// (Launch/RunPlan.h, shared with gpu-check's writer); its code names those
// types unqualified.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_PLANTYPES_H
#define IR_SANITIZE_GPURUN_PLANTYPES_H

#include "ir-sanitize/Launch/RunPlan.h"

namespace gpurun {

using irs::AddressReloc;
using irs::BufferInit;
using irs::ElementType;
using irs::KernelRole;
using irs::LaunchBuffer;
using irs::ParamImage;
using irs::PlannedKernel;
using irs::RunPlan;

} // namespace gpurun

#endif
