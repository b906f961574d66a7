//===- Report.h - The runner's table and JSON report ------------*- C++ -*-===//
#ifndef IR_SANITIZE_GPURUN_REPORT_H
#define IR_SANITIZE_GPURUN_REPORT_H

#include "PlanTypes.h"
#include "RunResults.h"

#include <ostream>

namespace gpurun {

/// The human-readable table (stdout).
void printTable(std::ostream &OS, const RunPlan &P, const RunResults &R);
/// The JSON report (--report); timing ratios are relative to "original".
void printJSON(std::ostream &OS, const RunPlan &P, const RunResults &R);

} // namespace gpurun

#endif
