//===- RunPlan.h - The plan ir-sanitize-gpurun executes ---------*- C++ -*-===//
//
// gpu-check writes PTX files and plan.json into its --emit-dir;
// ir-sanitize-gpurun (no LLVM) reads them back. The plan is one type and
// one codec, LLVM-free, linked by both: printRunPlan writes the versioned
// JSON document, parseRunPlan reads it (nlohmann-json) and range-checks
// every number. docs/run-plan.md is the schema; the keys, words, version and
// limits are RunPlanSchema.h's.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_LAUNCH_RUNPLAN_H
#define IR_SANITIZE_LAUNCH_RUNPLAN_H

#include "ir-sanitize/Launch/LaunchModel.h"
#include "ir-sanitize/Launch/RunPlanSchema.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irs {

/// At launch, the device address of a buffer (or of its shadow) is written
/// as 8 bytes at Offset of a parameter.
struct AddressReloc {
  uint64_t Offset = 0; ///< Offset + 8 <= the parameter's size (read: checked).
  std::string Buffer;
  bool Shadow = false; ///< The buffer's shadow rather than the buffer.
  /// How the kernel accesses that memory, where gpu-check could tell.
  std::optional<MemoryAccess> Access;
};

/// A parameter's bytes, in the C layout cuLaunchKernel takes, and the
/// addresses written into them at launch.
struct ParamImage {
  std::vector<uint8_t> Bytes;
  std::vector<AddressReloc> Relocs;
};

/// One kernel the runner launches.
struct PlannedKernel {
  KernelRole Role = KernelRole::Original;
  std::string PTXFile; ///< A file name in the plan directory.
  std::string Entry;   ///< The kernel's name in that PTX.
  std::vector<ParamImage> Params;
  /// Nonempty: the entry, in the same PTX, of the kernel's grid-stride
  /// version, which takes Params and then the launch's x block count (4
  /// bytes) and runs right with any number of blocks up to it.
  std::string GridStrideEntry;
  /// A reverse kernel that leaves the primal outputs unwritten
  /// (--drop-primal-outputs).
  bool GradientOnly = false;
};

struct RunPlan {
  std::string Kernel; ///< The source kernel's name, for the report.
  KernelLaunch Launch;
  /// Always in the plan (the writer's, from the spec or its defaults).
  CheckSettings Settings;
  std::vector<PlannedKernel> Kernels;
  /// Why a plan has no derivative checks although the spec asked for them
  /// (the runner reports them SKIPPED with it).
  std::string DerivativesSkipped;

  /// The kernel in \p Role, or null.
  const PlannedKernel *kernel(KernelRole Role) const;
  /// The index in Launch.Buffers of the buffer named \p Name; its size for
  /// none (a plan parseRunPlan read names only its own buffers).
  size_t bufferIndex(const std::string &Name) const;
};

/// The plan as JSON, indented by two, ending in a newline.
std::string printRunPlan(const RunPlan &Plan);

/// Parses plan text; on failure returns false with "FIELD: problem" (one
/// line, the field as a path such as "kernels[2].params[0].size") in Error.
bool parseRunPlan(const std::string &Text, RunPlan &Out, std::string &Error);

} // namespace irs

#endif
