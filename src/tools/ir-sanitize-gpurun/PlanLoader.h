//===- PlanLoader.h - A plan directory, checked first -----------*- C++ -*-===//
//
// What the runner relies on before it launches anything, checked in one
// place, for `--validate-only` and for a run alike: the plan
// (irs::parseRunPlan), and each PTX file it names: a regular file within the
// limit, not empty, declaring every entry the plan launches with the parameters
// the plan passes (count and byte sizes; a grid-stride version has one 4-byte
// parameter more). The runner then loads the PTX text read here.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_PLANLOADER_H
#define IR_SANITIZE_GPURUN_PLANLOADER_H

#include "PlanTypes.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpurun {

struct LoadedPlan {
  RunPlan P;
  std::map<std::string, std::string> PTX; ///< Text by file name.
};

/// DIR/plan.json and its PTX files; on failure false with one line naming
/// the file and the problem in \p Error.
bool loadPlan(const std::string &Dir, LoadedPlan &Out, std::string &Error);

/// The byte sizes of the parameters that \p PTX declares for the kernel
/// \p Entry (`.entry NAME(.param .u64 NAME_param_0, .param .align 8 .b8
/// NAME_param_1[32])`); nothing when it declares no such entry, or a
/// parameter this reader does not understand (then \p Problem says which).
std::optional<std::vector<uint64_t>> ptxEntryParams(const std::string &PTX,
                                                    const std::string &Entry,
                                                    std::string &Problem);

} // namespace gpurun

#endif
