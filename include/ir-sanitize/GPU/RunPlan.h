//===- RunPlan.h - The plan ir-sanitize-gpurun executes ---------*- C++ -*-===//
//
// gpu-check writes PTX files and plan.json into its --emit-dir; the runner
// (src/tools/ir-sanitize-gpurun, no LLVM) reads them back. The plan is a
// versioned JSON document; docs/run-plan.md is its schema, and its keys,
// words and limits are Launch/RunPlanSchema.h (shared with the runner's
// src/tools/ir-sanitize-gpurun/PlanReader.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_RUNPLAN_H
#define IR_SANITIZE_GPU_RUNPLAN_H

#include "ir-sanitize/GPU/ArgumentPacking.h"
#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/Launch/RunPlanSchema.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace irs {

/// One kernel the runner launches.
struct PlannedKernel {
  KernelRole Role = KernelRole::Original;
  std::string PTXFile; ///< Relative to the plan directory.
  std::string Entry;
  std::vector<ParamImage> Params;
  /// The entry, in the same PTX, of the kernel's grid-stride version
  /// (written as "grid_stride_entry"): Params and then the launch's x block
  /// count (4 bytes), run right with any number of blocks up to it.
  std::optional<std::string> GridStrideEntry;
  /// A reverse kernel that leaves the primal outputs unwritten
  /// (--drop-primal-outputs; written as "gradient_only": true).
  bool GradientOnly = false;
};

struct RunPlan {
  std::string Kernel; ///< The source kernel's name, for the report.
  LaunchSpec Spec;    ///< Geometry, buffers, checks.
  CheckSettings Settings;
  std::vector<PlannedKernel> Kernels;
  /// Why a plan has no derivative checks although the spec asked for them
  /// (written as "skipped"; the runner reports them SKIPPED with it).
  std::string DerivativesSkipped;

  void print(llvm::raw_ostream &OS) const;
};

/// DIR/plan.json.
std::string runPlanPath(llvm::StringRef Dir);

/// Writes \p Plan to runPlanPath(Dir) atomically.
llvm::Error writeRunPlan(const RunPlan &Plan, llvm::StringRef Dir);

} // namespace irs

#endif
