//===- RunPlan.h - The plan ir-sanitize-gpurun executes ---------*- C++ -*-===//
//
// gpu-check writes PTX files and plan.txt into its --emit-dir; the runner
// (tools/ir-sanitize-gpurun, no LLVM) reads them back. plan.txt is line
// based; tools/ir-sanitize-gpurun/RunPlan.h documents every record.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_RUNPLAN_H
#define IR_SANITIZE_GPU_RUNPLAN_H

#include "ir-sanitize/GPU/ArgumentPacking.h"
#include "ir-sanitize/GPU/LaunchSpec.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace irs {

/// One kernel the runner launches: "original", "splat", "forward", "reverse".
struct PlannedKernel {
  std::string Role;
  std::string PTXFile; ///< Relative to the plan directory.
  std::string Entry;
  std::vector<ParamImage> Params;
};

struct RunPlan {
  std::string Kernel; ///< The source kernel's name, for the report.
  LaunchSpec Spec;    ///< Geometry, buffers, checks.
  CheckSettings Settings;
  std::vector<PlannedKernel> Kernels;

  void print(llvm::raw_ostream &OS) const;
};

/// Writes \p Plan to DIR/plan.txt atomically.
llvm::Error writeRunPlan(const RunPlan &Plan, llvm::StringRef Dir);

} // namespace irs

#endif
