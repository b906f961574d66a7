//===- Report.cpp - The runner's table and JSON report --------------------===//
#include "Report.h"

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
    if (T.Role == "original")
      return T.MedianMs;
  return 0;
}

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) < 0x20) {
      Out += fmt("\\u%04x", static_cast<unsigned char>(C));
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

/// The project's benchmark targets (README): time relative to the original
/// primal kernel. Reported, never turned into a failed check.
double targetRatio(const std::string &Role) {
  return Role == "splat"     ? 1.02
         : Role == "forward" ? 1.5
         : Role == "reverse" ? 2.0
                             : 0.0;
}

double bytesPerSecond(const Timing &T) {
  return T.MedianMs > 0 ? T.Bytes / (T.MedianMs * 1e-3) : 0.0;
}

double percentOfPeak(const Timing &T, const RunResults &R) {
  return R.PeakBytesPerSecond > 0
             ? 100.0 * bytesPerSecond(T) / R.PeakBytesPerSecond
             : 0.0;
}

const char *verdict(const CheckResult &C) {
  return !C.Ran ? "SKIP" : C.Passed ? "PASS" : "FAIL";
}
} // namespace

void printTable(std::ostream &OS, const Plan &P, const RunResults &R) {
  OS << "kernel  " << P.Kernel << "\ndevice  " << R.Device << "\nlaunch  grid "
     << R.Grid[0] << "x" << R.Grid[1] << "x" << R.Grid[2] << ", block "
     << R.Block[0] << "x" << R.Block[1] << "x" << R.Block[2] << "\n\n";
  OS << "check     result  value       tolerance  detail\n";
  for (const CheckResult &C : R.Checks) {
    std::string Value =
        C.Name == "primal" ? fmt("%.0f", C.Value) : fmt("%.3e", C.Value);
    std::string Tol = C.Name == "primal" ? "0" : fmt("%.1e", C.Tolerance);
    char Line[512];
    std::snprintf(Line, sizeof(Line), "%-9s %-7s %-11s %-10s ", C.Name.c_str(),
                  verdict(C), Value.c_str(), Tol.c_str());
    OS << Line << C.Detail << "\n";
  }
  double Base = baselineMs(R);
  OS << "\nkernel    median ms  min ms     ratio   GB/s    % peak  target\n";
  for (const Timing &T : R.Timings) {
    double Ratio = Base > 0 ? T.MedianMs / Base : 0.0;
    double Target = targetRatio(T.Role);
    std::string Goal = Target > 0 ? fmt("<= %.2f", Target) +
                                        (Ratio <= Target ? " met" : " MISSED")
                                  : "baseline";
    char Line[256];
    std::snprintf(Line, sizeof(Line),
                  "%-9s %-10.4f %-10.4f %-7.3f %-7.0f %-7.1f %s\n",
                  T.Role.c_str(), T.MedianMs, T.MinMs, Ratio,
                  bytesPerSecond(T) * 1e-9, percentOfPeak(T, R), Goal.c_str());
    OS << Line;
  }
  if (!R.Timings.empty())
    OS << "(median over " << R.Timings[0].Samples << " samples of "
       << R.Timings[0].LaunchesPerSample
       << " back-to-back launches; GB/s: bytes the kernel must move over the "
          "median, peak "
       << fmt("%.0f", R.PeakBytesPerSecond * 1e-9)
       << " GB/s from the memory clock and bus width)\n";
  OS << "\n" << (R.allPassed() ? "all checks passed" : "CHECKS FAILED") << "\n";
}

void printJSON(std::ostream &OS, const Plan &P, const RunResults &R) {
  OS << "{\n  \"kernel\": " << jsonString(P.Kernel)
     << ",\n  \"device\": " << jsonString(R.Device)
     << ",\n  \"peak_bytes_per_second\": "
     << fmt("%.6e", R.PeakBytesPerSecond) << ",\n  \"grid\": ["
     << R.Grid[0] << ", " << R.Grid[1] << ", " << R.Grid[2]
     << "],\n  \"block\": [" << R.Block[0] << ", " << R.Block[1] << ", "
     << R.Block[2] << "],\n  \"buffers\": [";
  for (size_t I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    OS << (I ? ", " : "") << "{\"name\": " << jsonString(B.Name)
       << ", \"type\": \"" << typeName(B.Type) << "\", \"count\": " << B.Count
       << ", \"output\": " << (B.Output ? "true" : "false")
       << ", \"wrt\": " << (B.Wrt ? "true" : "false") << "}";
  }
  OS << "],\n  \"checks\": [";
  for (size_t I = 0; I < R.Checks.size(); ++I) {
    const CheckResult &C = R.Checks[I];
    OS << (I ? "," : "") << "\n    {\"name\": " << jsonString(C.Name)
       << ", \"result\": \"" << verdict(C)
       << "\", \"value\": " << fmt("%.6e", C.Value)
       << ", \"tolerance\": " << fmt("%.6e", C.Tolerance)
       << ", \"detail\": " << jsonString(C.Detail) << "}";
  }
  double Base = baselineMs(R);
  OS << "\n  ],\n  \"timings\": [";
  for (size_t I = 0; I < R.Timings.size(); ++I) {
    const Timing &T = R.Timings[I];
    OS << (I ? "," : "") << "\n    {\"kernel\": " << jsonString(T.Role)
       << ", \"median_ms\": " << fmt("%.6f", T.MedianMs)
       << ", \"min_ms\": " << fmt("%.6f", T.MinMs)
       << ", \"samples\": " << T.Samples
       << ", \"launches_per_sample\": " << T.LaunchesPerSample
       << ", \"bytes\": " << T.Bytes
       << ", \"bytes_per_second\": " << fmt("%.6e", bytesPerSecond(T))
       << ", \"percent_of_peak\": " << fmt("%.2f", percentOfPeak(T, R))
       << ", \"ratio_to_original\": "
       << fmt("%.4f", Base > 0 ? T.MedianMs / Base : 0.0);
    if (double Target = targetRatio(T.Role))
      OS << ", \"target_ratio\": " << fmt("%.2f", Target)
         << ", \"meets_target\": "
         << (Base > 0 && T.MedianMs / Base <= Target ? "true" : "false");
    OS << "}";
  }
  OS << "\n  ],\n  \"passed\": " << (R.allPassed() ? "true" : "false")
     << "\n}\n";
}

} // namespace gpurun
