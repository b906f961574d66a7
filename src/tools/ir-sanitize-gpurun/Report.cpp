//===- Report.cpp - The runner's table and JSON report --------------------===//
#include "Report.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

namespace gpurun {

namespace {
std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

double baselineMs(const RunResults &R) {
  for (const Timing &T : R.Timings)
    if (T.Role == KernelRole::Original)
      return T.MedianMs;
  return 0;
}

/// The project's benchmark targets (README): time relative to the original
/// primal kernel. Reported, never turned into a failed check.
double targetRatio(KernelRole Role) {
  switch (Role) {
  case KernelRole::Original:
    return 0.0;
  case KernelRole::Splat:
    return 1.02;
  case KernelRole::Forward:
    return 2.0;
  case KernelRole::Reverse:
    return 4.0;
  }
  return 0.0;
}

const char *verdict(const CheckResult &C) {
  return !C.Ran ? "SKIPPED" : C.Passed ? "PASS" : "FAIL";
}
} // namespace

void printTable(std::ostream &OS, const Plan &P, const RunResults &R) {
  OS << "kernel  " << P.Kernel << "\ndevice  " << R.Device << "\nlaunch  grid "
     << R.Grid[0] << "x" << R.Grid[1] << "x" << R.Grid[2] << ", block "
     << R.Block[0] << "x" << R.Block[1] << "x" << R.Block[2] << "\n\n";
  OS << "check     result  value       tolerance  detail\n";
  for (const CheckResult &C : R.Checks) {
    std::string Value = !C.Ran               ? "-"
                        : C.Name == "primal" ? fmt("%.0f", C.Value)
                                             : fmt("%.3e", C.Value);
    std::string Tol = !C.Ran               ? "-"
                      : C.Name == "primal" ? "0"
                                           : fmt("%.1e", C.Tolerance);
    char Line[512];
    std::snprintf(Line, sizeof(Line), "%-9s %-7s %-11s %-10s ", C.Name.c_str(),
                  verdict(C), Value.c_str(), Tol.c_str());
    OS << Line << C.Detail << "\n";
  }
  double Base = baselineMs(R);
  OS << "\nkernel    median ms  min ms     ratio   target\n";
  for (const Timing &T : R.Timings) {
    double Ratio = Base > 0 ? T.MedianMs / Base : 0.0;
    double Target = targetRatio(T.Role);
    std::string Goal = Target > 0 ? fmt("<= %.2f", Target) +
                                        (Ratio <= Target ? " met" : " MISSED")
                                  : "baseline";
    char Line[256];
    std::snprintf(Line, sizeof(Line), "%-9s %-10.4f %-10.4f %-7.3f %s\n",
                  irs::spelling(T.Role), T.MedianMs, T.MinMs, Ratio,
                  Goal.c_str());
    OS << Line;
  }
  if (!R.Timings.empty())
    OS << "(median over " << R.Timings[0].Samples << " samples of "
       << R.Timings[0].LaunchesPerSample << " back-to-back launches)\n";
  OS << "\n" << (R.allPassed() ? "all checks passed" : "CHECKS FAILED") << "\n";
}

void printJSON(std::ostream &OS, const Plan &P, const RunResults &R) {
  using nlohmann::ordered_json;
  ordered_json J;
  J["kernel"] = P.Kernel;
  J["device"] = R.Device;
  J["grid"] = {R.Grid[0], R.Grid[1], R.Grid[2]};
  J["block"] = {R.Block[0], R.Block[1], R.Block[2]};
  J["buffers"] = ordered_json::array();
  for (const Buffer &B : P.Buffers)
    J["buffers"].push_back({{"name", B.Name},
                            {"type", irs::spelling(B.Type)},
                            {"count", B.Count},
                            {"output", B.Output},
                            {"wrt", B.Wrt}});
  J["checks"] = ordered_json::array();
  for (const CheckResult &C : R.Checks)
    J["checks"].push_back({{"name", C.Name},
                           {"result", verdict(C)},
                           {"value", C.Value},
                           {"tolerance", C.Tolerance},
                           {"detail", C.Detail}});
  double Base = baselineMs(R);
  J["timings"] = ordered_json::array();
  for (const Timing &T : R.Timings) {
    double Ratio = Base > 0 ? T.MedianMs / Base : 0.0;
    ordered_json Row = {{"kernel", irs::spelling(T.Role)},
                        {"median_ms", T.MedianMs},
                        {"min_ms", T.MinMs},
                        {"samples", T.Samples},
                        {"launches_per_sample", T.LaunchesPerSample},
                        {"ratio_to_original", Ratio}};
    if (double Target = targetRatio(T.Role)) {
      Row["target_ratio"] = Target;
      Row["meets_target"] = Base > 0 && Ratio <= Target;
    }
    J["timings"].push_back(std::move(Row));
  }
  J["passed"] = R.allPassed();
  OS << J.dump(2) << "\n";
}

} // namespace gpurun
