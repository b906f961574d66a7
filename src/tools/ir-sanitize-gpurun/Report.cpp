//===- Report.cpp - The runner's table and JSON report --------------------===//
#include "Report.h"
#include "Bandwidth.h"
#include "Checks.h"

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

/// The original kernel's median in the same L2 state as \p T.
double baselineMs(const RunResults &R, const Timing &T) {
  for (const Timing &B : R.Timings)
    if (B.Role == KernelRole::Original && B.ColdL2 == T.ColdL2)
      return B.MedianMs;
  return 0;
}

double ratioToOriginal(const RunResults &R, const Timing &T) {
  double Base = baselineMs(R, T);
  return Base > 0 ? T.MedianMs / Base : 0.0;
}

const char *l2State(const Timing &T) { return T.ColdL2 ? "cold" : "warm"; }

bool gradientOnly(const RunPlan &P) {
  const PlannedKernel *L = P.kernel(KernelRole::Reverse);
  return L && L->GradientOnly;
}

/// The project's benchmark targets (docs/Benchmarks.md): time relative to
/// the original primal kernel. Reported, never turned into a failed check.
double targetRatio(const RunPlan &P, KernelRole Role) {
  switch (Role) {
  case KernelRole::Original:
    return 0.0;
  case KernelRole::Splat:
    return 1.02;
  case KernelRole::Forward:
    return 1.5;
  case KernelRole::Reverse:
    return gradientOnly(P) ? 1.5 : 2.0;
  }
  return 0.0;
}

double bytesPerSecond(const Timing &T) {
  return T.MedianMs > 0 ? T.Bytes / (T.MedianMs * 1e-3) : 0.0;
}

double percentOfPeak(const Timing &T, const RunResults &R) {
  return R.PeakBytesPerSecond > 0
             ? 100.0 * bytesPerSecond(T) / R.PeakBytesPerSecond
             : 0.0;
}

double percentOfAttainable(const Timing &T, const RunResults &R) {
  return R.AttainableBytesPerSecond > 0
             ? 100.0 * bytesPerSecond(T) / R.AttainableBytesPerSecond
             : 0.0;
}

/// Bandwidth.h's floor for \p T, against the original in the same L2 state:
/// with T's bytes as the plan records its accesses, a target below it cannot
/// be met (short of the L2's help, which a cold L2 removes, or of a mix of
/// reads and writes the DRAM serves faster than a copy's).
double floorRatio(const RunResults &R, const Timing &T) {
  return gpurun::floorRatio(T.Bytes, R.AttainableBytesPerSecond,
                            baselineMs(R, T));
}

/// "<= 2.00 met", "<= 2.00 MISSED" or "baseline".
std::string goal(const RunPlan &P, const RunResults &R, const Timing &T) {
  double Target = targetRatio(P, T.Role);
  if (Target <= 0)
    return "baseline";
  return fmt("<= %.2f", Target) +
         (ratioToOriginal(R, T) <= Target ? " met" : " MISSED");
}

/// "0.0050 ms with 1056 blocks (all resident), 0.0048 with 528, ...".
std::string triedGrids(const GridChoice &G) {
  std::string Out;
  for (const auto &[Blocks, Ms] : G.StridedTried)
    Out += Out.empty() ? fmt("%.4f ms with ", Ms) + std::to_string(Blocks) +
                             " blocks (all resident)"
                       : fmt(", %.4f with ", Ms) + std::to_string(Blocks);
  return Out;
}

/// The same, for the JSON report: [{"blocks": 1056, "ms": 0.005}, ...].
nlohmann::ordered_json triedJSON(const GridChoice &G) {
  nlohmann::ordered_json Tried = nlohmann::ordered_json::array();
  for (const auto &[Blocks, Ms] : G.StridedTried)
    Tried.push_back({{"blocks", Blocks}, {"ms", Ms}});
  return Tried;
}

nlohmann::ordered_json gridChoiceJSON(const GridChoice &G) {
  return {{"kernel", irs::spelling(G.Role)},
          {"plain_blocks", G.PlainBlocks},
          {"plain_ms", G.PlainMs},
          {"plain_registers", G.PlainRegisters},
          {"grid_stride_blocks", G.StridedBlocks},
          {"grid_stride_ms", G.StridedMs},
          {"grid_stride_registers", G.StridedRegisters},
          {"grid_stride_tried", triedJSON(G)},
          {"timed", G.Strided ? "grid-stride" : "plain"}};
}

nlohmann::ordered_json timingJSON(const RunPlan &P, const RunResults &R,
                                  const Timing &T) {
  double Ratio = ratioToOriginal(R, T);
  nlohmann::ordered_json Row = {
      {"kernel", irs::spelling(T.Role)},
      {"l2", l2State(T)},
      {"median_ms", T.MedianMs},
      {"min_ms", T.MinMs},
      {"samples", T.Samples},
      {"launches_per_sample", T.LaunchesPerSample},
      {"bytes", T.Bytes},
      {"grid_x", T.GridX},
      {"grid_stride", T.GridStride},
      {"bytes_per_second", bytesPerSecond(T)},
      {"percent_of_peak", percentOfPeak(T, R)},
      {"percent_of_attainable", percentOfAttainable(T, R)},
      {"ratio_to_original", Ratio},
      {"floor_ratio", floorRatio(R, T)}};
  if (double Target = targetRatio(P, T.Role)) {
    Row["target_ratio"] = Target;
    Row["meets_target"] = Ratio > 0 && Ratio <= Target;
  }
  return Row;
}

const char *verdict(const CheckResult &C) {
  return !C.Ran      ? "SKIPPED"
         : C.Passed  ? "PASS"
         : C.Vacuous ? "VACUOUS"
                     : "FAIL";
}
} // namespace

void printTable(std::ostream &OS, const RunPlan &P, const RunResults &R) {
  OS << "kernel  " << P.Kernel << "\ndevice  " << R.Device << "\nlaunch  grid "
     << R.Grid[0] << "x" << R.Grid[1] << "x" << R.Grid[2] << ", block "
     << R.Block[0] << "x" << R.Block[1] << "x" << R.Block[2] << "\n";
  if (gradientOnly(P))
    OS << "        reverse: gradient only (leaves the primal outputs "
          "unwritten)\n";
  for (const GridChoice &G : R.Grids)
    OS << "        " << irs::spelling(G.Role) << ": warm "
       << fmt("%.4f", G.PlainMs) << " ms with " << G.PlainBlocks << " blocks ("
       << G.PlainRegisters << " registers); its grid-stride version ("
       << G.StridedRegisters << " registers) " << triedGrids(G) << "; timed: "
       << (G.Strided ? "the version with " + std::to_string(G.StridedBlocks)
                     : std::string("the kernel"))
       << "\n";
  OS << "\n";
  OS << "check     result  value       tolerance  detail\n";
  for (const CheckResult &C : R.Checks) {
    // The primal check and memcheck count elements and errors.
    bool Count = C.Name == "primal" || C.Name == "memcheck";
    std::string Value = !C.Ran  ? "-"
                        : Count ? fmt("%.0f", C.Value)
                                : fmt("%.3e", C.Value);
    std::string Tol = !C.Ran ? "-" : Count ? "0" : fmt("%.1e", C.Tolerance);
    char Line[512];
    std::snprintf(Line, sizeof(Line), "%-9s %-7s %-11s %-10s ", C.Name.c_str(),
                  verdict(C), Value.c_str(), Tol.c_str());
    OS << Line << C.Detail << "\n";
  }
  OS << "\nkernel    L2    median ms  min ms     ratio   floor   GB/s    "
        "% peak  % copy  samples  target\n";
  for (const Timing &T : R.Timings) {
    char Line[256];
    std::string Samples =
        std::to_string(T.Samples) + "x" + std::to_string(T.LaunchesPerSample);
    std::snprintf(
        Line, sizeof(Line),
        "%-9s %-5s %-10.4f %-10.4f %-7.3f %-7.3f %-7.0f %-7.1f %-7.1f %-8s "
        "%s\n",
        irs::spelling(T.Role), l2State(T), T.MedianMs, T.MinMs,
        ratioToOriginal(R, T), floorRatio(R, T), bytesPerSecond(T) * 1e-9,
        percentOfPeak(T, R), percentOfAttainable(T, R), Samples.c_str(),
        goal(P, R, T).c_str());
    OS << Line;
  }
  if (!R.Timings.empty())
    OS << "(samples: the median is over S samples of L launches, SxL; warm "
          "L2: a sample is the mean of its back-to-back launches, fewer than "
       << WarmLaunchesPerSample
       << " and fewer samples where a slow kernel would overrun the time "
          "budget; cold L2: one launch after a flush of L2; ratio: to the "
          "original in the same L2 state; GB/s: bytes the kernel must move "
          "over the median; peak "
       << fmt("%.0f", R.PeakBytesPerSecond * 1e-9)
       << " GB/s from the memory clock and bus width; copy "
       << fmt("%.0f", R.AttainableBytesPerSecond * 1e-9)
       << " GB/s attained by a streaming copy; floor: the ratio those bytes "
          "would give at the copy's rate)\n";
  OS << "\n" << summaryLine(tally(R.Checks)) << "\n";
}

void printJSON(std::ostream &OS, const RunPlan &P, const RunResults &R) {
  using nlohmann::ordered_json;
  ordered_json J;
  J["kernel"] = P.Kernel;
  J["device"] = R.Device;
  J["peak_bytes_per_second"] = R.PeakBytesPerSecond;
  J["attainable_bytes_per_second"] = R.AttainableBytesPerSecond;
  J["grid"] = {R.Grid[0], R.Grid[1], R.Grid[2]};
  J["block"] = {R.Block[0], R.Block[1], R.Block[2]};
  J["gradient_only"] = gradientOnly(P);
  J["buffers"] = ordered_json::array();
  for (const LaunchBuffer &B : P.Launch.Buffers)
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
  J["grid_stride"] = ordered_json::array();
  for (const GridChoice &G : R.Grids)
    J["grid_stride"].push_back(gridChoiceJSON(G));
  J["timings"] = ordered_json::array();
  for (const Timing &T : R.Timings)
    J["timings"].push_back(timingJSON(P, R, T));
  CheckTally T = tally(R.Checks);
  RunVerdict V = verdict(T);
  J["summary"] = {{"passed", T.Passed},
                  {"failed", T.Failed},
                  {"vacuous", T.Vacuous},
                  {"skipped", T.Skipped}};
  J["result"] = spelling(V);
  J["passed"] = V == RunVerdict::Passed;
  OS << J.dump(2) << "\n";
}

} // namespace gpurun
