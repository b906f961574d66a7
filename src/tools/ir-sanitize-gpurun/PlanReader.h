//===- PlanReader.h - The plan as the runner reads it -----------*- C++ -*-===//
//
// ir-sanitize-gpurun runs on GPU machines that have no LLVM, so it reads the
// plan written by `ir-sanitize gpu-check` (src/GPU/RunPlan.cpp) with
// nlohmann-json. The schema is docs/run-plan.md; its keys, words, version
// and limits are include/ir-sanitize/Launch/RunPlanSchema.h, shared with
// the writer. Every number is range-checked: a value out of range is rejected,
// never truncated, saturated or wrapped.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_PLANREADER_H
#define IR_SANITIZE_GPURUN_PLANREADER_H

#include "ir-sanitize/Launch/LaunchModel.h"
#include "ir-sanitize/Launch/RunPlanSchema.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpurun {

using irs::BufferInit;
using irs::ElementType;
using irs::KernelRole;

/// A buffer of the plan: the launch model's (Launch/LaunchModel.h).
using Buffer = irs::LaunchBuffer;

/// At launch, 8 bytes at Offset of the parameter become a device address.
struct Reloc {
  uint64_t Offset = 0; ///< Offset + 8 <= the parameter's size (checked).
  unsigned BufferIndex = 0;
  bool Shadow = false;
  /// How the kernel accesses the memory; none when the plan does not say.
  std::optional<irs::MemoryAccess> Access;
};

struct Param {
  std::vector<uint8_t> Bytes;
  std::vector<Reloc> Relocs;
};

struct KernelLaunch {
  std::string File;  ///< PTX file name in the plan directory.
  std::string Entry; ///< Kernel name in that PTX.
  std::vector<Param> Params;
  /// Nonempty: the kernel's grid-stride version in the same PTX, which
  /// takes Params and then the launch's x block count (4 bytes) and runs
  /// right with any number of blocks up to it.
  std::string GridStrideEntry;
  /// A reverse kernel that leaves the primal outputs unwritten; its target
  /// is the gradient-only one.
  bool GradientOnly = false;
};

struct Plan {
  std::string Kernel;
  unsigned Grid[3] = {0, 0, 0};
  unsigned Block[3] = {0, 0, 0};
  uint64_t Threads = 0; ///< When nonzero, the runner picks grid and block.
  bool DerivativeChecks = true;
  std::string DerivativesSkipped; ///< Why there are none, when the spec
                                  ///< asked for them.
  /// Always in the plan (the writer's, from the spec or its defaults).
  irs::CheckSettings Settings;
  std::vector<Buffer> Buffers;
  std::map<KernelRole, KernelLaunch> Launches;

  const KernelLaunch *launch(KernelRole Role) const;
};

/// Parses plan text; on failure returns false with "FIELD: problem" (one
/// line, the field as a path such as "kernels[2].params[0].size") in Error.
bool parsePlan(const std::string &Text, Plan &Out, std::string &Error);

} // namespace gpurun

#endif
