//===- Checks.cpp - The arithmetic of the runner's checks -----------------===//
#include "Checks.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gpurun {

namespace {
std::string formatDouble(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  return Buf;
}

/// The buffer of \p Set that corresponds to \p Like (same index), which
/// must have as many elements of the same type.
const HostBuffer &counterpart(const BufferSet &Set, unsigned Index,
                              const HostBuffer &Like) {
  auto It = Set.find(Index);
  if (It == Set.end() || It->second.Type != Like.Type ||
      It->second.count() != Like.count())
    throw std::invalid_argument("buffer " + std::to_string(Index) +
                                ": the compared buffers differ in shape");
  return It->second;
}

CheckResult ranCheck(const char *Name, double Tolerance) {
  CheckResult C;
  C.Name = Name;
  C.Ran = true;
  C.Tolerance = Tolerance;
  return C;
}
} // namespace

double relativeError(double Diff, double Reference) {
  if (!std::isfinite(Diff) || !std::isfinite(Reference))
    return NAN;
  Diff = std::fabs(Diff);
  Reference = std::fabs(Reference);
  if (Reference == 0)
    return Diff == 0 ? 0 : INFINITY;
  return Diff / Reference;
}

void ScaledNorm::add(double X) {
  double A = std::fabs(X);
  if (std::isnan(A)) {
    SumOfSquares = NAN;
    return;
  }
  if (A == 0)
    return;
  if (Scale < A) {
    double R = Scale / A;
    SumOfSquares = 1 + SumOfSquares * R * R;
    Scale = A;
  } else {
    double R = A / Scale; // NaN for a second infinity, which adds nothing
    SumOfSquares += std::isnan(R) ? 0 : R * R;
  }
}

double ScaledNorm::value() const {
  return Scale == 0 ? 0 : Scale * std::sqrt(SumOfSquares);
}

CheckResult comparePrimal(const BufferSet &Original, const BufferSet &Splat,
                          const BufferSet &Initial) {
  CheckResult C = ranCheck("primal", 0);
  uint64_t Differ = 0, Written = 0, Total = 0;
  for (const auto &[I, Buf] : Original) {
    Differ += countDifferences(Buf, counterpart(Splat, I, Buf));
    Written += countDifferences(Buf, counterpart(Initial, I, Buf));
    Total += Buf.count();
  }
  C.Value = static_cast<double>(Differ);
  // Equality is only evidence when the kernel wrote something.
  C.Passed = Differ == 0 && Written > 0;
  C.Detail = std::to_string(Differ) + " of " + std::to_string(Total) +
             " output elements differ (bitwise); the original changed " +
             std::to_string(Written);
  return C;
}

CheckResult compareForward(const BufferSet &Jv, const BufferSet &Plus,
                           const BufferSet &Minus, double Step,
                           double Tolerance) {
  CheckResult C = ranCheck("forward", Tolerance);
  ScaledNorm Err, Fd, Tangent;
  uint64_t NonFinite = 0;
  for (const auto &[I, T] : Jv) {
    const HostBuffer &P = counterpart(Plus, I, T),
                     &M = counterpart(Minus, I, T);
    for (uint64_t K = 0; K < T.count(); ++K) {
      // Halves first: P - M may overflow where the quotient does not.
      double D = (0.5 * P.get(K) - 0.5 * M.get(K)) / Step;
      NonFinite += !std::isfinite(D) || !std::isfinite(T.get(K));
      // Halved alike, so that T - D cannot overflow either; the ratio is
      // the same.
      Err.add(0.5 * T.get(K) - 0.5 * D);
      Fd.add(0.5 * D);
      Tangent.add(T.get(K));
    }
  }
  C.Value = NonFinite ? NAN : relativeError(Err.value(), Fd.value());
  C.Passed = C.Value <= C.Tolerance && Tangent.value() > 0;
  C.Detail = "relative L2 error of J v vs central differences (h = " +
             formatDouble(Step) + "), |J v| = " + formatDouble(Tangent.value());
  if (NonFinite)
    C.Detail += "; " + std::to_string(NonFinite) +
                " elements of J v or the differences are not finite";
  else if (Tangent.value() == 0)
    C.Detail += "; J v is zero, no evidence";
  return C;
}

std::vector<double> forwardSteps(double Step) {
  std::vector<double> Steps{Step};
  while (Steps.size() < ForwardStepCount)
    Steps.push_back(Steps.back() * ForwardStepGrowth);
  return Steps;
}

CheckResult combineForwardSteps(const std::vector<double> &Steps,
                                const std::vector<CheckResult> &Tries) {
  assert(!Tries.empty() && Tries.size() <= Steps.size());
  size_t Chosen = 0;
  while (Chosen < Tries.size() && !Tries[Chosen].Passed)
    ++Chosen;
  if (Chosen == Tries.size())
    Chosen = 0;
  CheckResult C = Tries[Chosen];
  std::string Others;
  for (size_t I = 0; I < Tries.size(); ++I)
    if (I != Chosen)
      Others += (Others.empty() ? "" : ", ") + std::string("at h = ") +
                formatDouble(Steps[I]) + ": " + formatDouble(Tries[I].Value);
  if (!Others.empty())
    C.Detail += "; " + Others;
  return C;
}

CheckResult compareDotProducts(const BufferSet &Jv, const BufferSet &W,
                               const BufferSet &V, const BufferSet &Gradient,
                               double Tolerance) {
  CheckResult C = ranCheck("reverse", Tolerance);
  double Lhs = 0, Rhs = 0;
  for (const auto &[I, WBuf] : W)
    Lhs += dot(counterpart(Jv, I, WBuf), WBuf);
  for (const auto &[I, VBuf] : V)
    Rhs += dot(VBuf, counterpart(Gradient, I, VBuf));
  // Halves: the difference of two finite products stays finite.
  C.Value = relativeError(0.5 * Lhs - 0.5 * Rhs,
                          std::max(std::fabs(0.5 * Lhs), std::fabs(0.5 * Rhs)));
  C.Passed = C.Value <= C.Tolerance && Rhs != 0;
  C.Detail = "<J v, w> = " + formatDouble(Lhs) +
             ", <v, J^T w> = " + formatDouble(Rhs) + ", relative difference";
  if (!std::isfinite(Lhs) || !std::isfinite(Rhs))
    C.Detail += "; a dot product is not finite";
  else if (Rhs == 0)
    C.Detail += "; <v, J^T w> is zero, no evidence";
  return C;
}

CheckTally tally(const std::vector<CheckResult> &Checks) {
  CheckTally T;
  for (const CheckResult &C : Checks)
    ++(!C.Ran ? T.Skipped : C.Passed ? T.Passed : T.Failed);
  return T;
}

RunVerdict verdict(const CheckTally &T) {
  if (T.Failed || !T.Passed)
    return RunVerdict::Failed;
  return T.Skipped ? RunVerdict::Skipped : RunVerdict::Passed;
}

std::string summaryLine(const CheckTally &T) {
  RunVerdict V = verdict(T);
  return std::to_string(T.Passed) + " passed, " + std::to_string(T.Failed) +
         " failed, " + std::to_string(T.Skipped) + " skipped: " +
         (V == RunVerdict::Passed   ? "all checks passed"
          : V == RunVerdict::Failed ? "CHECKS FAILED"
                                    : "CHECKS SKIPPED");
}

const char *spelling(RunVerdict V) {
  switch (V) {
  case RunVerdict::Passed:
    return "passed";
  case RunVerdict::Skipped:
    return "skipped";
  case RunVerdict::Failed:
    break;
  }
  return "failed";
}

irs::ExitCode exitCodeOf(RunVerdict V) {
  switch (V) {
  case RunVerdict::Passed:
    return irs::ExitCode::Ok;
  case RunVerdict::Skipped:
    return irs::ExitCode::ChecksSkipped;
  case RunVerdict::Failed:
    break;
  }
  return irs::ExitCode::Findings;
}

} // namespace gpurun
