//===- Checks.cpp - The arithmetic of the runner's checks -----------------===//
#include "Checks.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>
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

bool exercised(const OutputCoverage &C) {
  return C.Written > 0 && C.Written >= C.Total - C.Written;
}

uint64_t countWritten(const HostBuffer &BeforeA, const HostBuffer &AfterA,
                      const HostBuffer &BeforeB, const HostBuffer &AfterB) {
  uint64_t Size = irs::elementSize(BeforeA.Type), Count = BeforeA.count();
  for (const HostBuffer *B : {&AfterA, &BeforeB, &AfterB})
    if (B->Type != BeforeA.Type || B->count() != Count)
      throw std::invalid_argument("coverage: the buffers differ in shape");
  uint64_t Written = 0;
  for (uint64_t K = 0; K < Count; ++K) {
    auto Changed = [&](const HostBuffer &Before, const HostBuffer &After) {
      return std::memcmp(Before.Bytes.data() + K * Size,
                         After.Bytes.data() + K * Size, Size) != 0;
    };
    Written += Changed(BeforeA, AfterA) || Changed(BeforeB, AfterB);
  }
  return Written;
}

HostBuffer coverageStart(const HostBuffer &Initial, bool Read) {
  HostBuffer B = Initial;
  if (!Read) {
    std::fill(B.Bytes.begin(), B.Bytes.end(), uint8_t(0xFF));
    return B;
  }
  if (irs::isFloatElement(B.Type)) // little-endian: the mantissa's last bit
    for (uint64_t K = 0; K < B.count(); ++K)
      B.Bytes[K * irs::elementSize(B.Type)] ^= 1;
  return B;
}

namespace {
/// "; only 1 of 1048576 elements of y written (and ...)": the outputs the
/// launch did not exercise, or "".
std::string idleOutputs(const std::vector<OutputCoverage> &Coverage) {
  std::string Idle;
  for (const OutputCoverage &C : Coverage)
    if (!exercised(C))
      Idle += (Idle.empty() ? "" : ", ") + std::to_string(C.Written) + " of " +
              std::to_string(C.Total) + " elements of " + C.Name;
  return Idle.empty() ? ""
                      : "; VACUOUS: the original wrote only " + Idle +
                            ": the launch does not exercise the kernel (size "
                            "the outputs to what it writes, or launch more "
                            "threads)";
}

/// " (y 1000 of 1000, z 10 of 10)" where there are two outputs or more.
std::string perOutput(const std::vector<OutputCoverage> &Coverage) {
  if (Coverage.size() < 2)
    return "";
  std::string S;
  for (const OutputCoverage &C : Coverage)
    S += (S.empty() ? " (" : ", ") + C.Name + " " + std::to_string(C.Written) +
         " of " + std::to_string(C.Total);
  return S + ")";
}
} // namespace

CheckResult comparePrimal(const PrimalEvidence &E) {
  CheckResult C = ranCheck("primal", 0);
  uint64_t Differ = 0, GuardReads = 0, Total = 0, Written = 0, Covered = 0;
  for (const auto &[I, Buf] : E.Original) {
    Differ += countDifferences(Buf, counterpart(E.Splat, I, Buf));
    GuardReads += countDifferences(Buf, counterpart(E.OtherGuards, I, Buf));
    Total += Buf.count();
  }
  bool AllExercised = true;
  for (const OutputCoverage &Cov : E.Coverage) {
    Written += Cov.Written;
    Covered += Cov.Total;
    AllExercised &= exercised(Cov);
  }
  C.Value = static_cast<double>(Differ);
  C.Passed =
      Differ == 0 && GuardReads == 0 && AllExercised && !E.Coverage.empty();
  C.Vacuous = Differ == 0 && GuardReads == 0 && !C.Passed;
  C.Detail = std::to_string(Differ) + " of " + std::to_string(Total) +
             " output elements differ (bitwise); the original wrote " +
             std::to_string(Written) + " of " + std::to_string(Covered) +
             perOutput(E.Coverage);
  if (GuardReads)
    C.Detail += "; " + std::to_string(GuardReads) +
                " output elements change with the guard zones' contents: the "
                "original reads outside its buffers";
  else
    C.Detail += idleOutputs(E.Coverage);
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
  C.Vacuous = !NonFinite && Tangent.value() == 0 && Fd.value() == 0;
  C.Detail = "relative L2 error of J v vs central differences (h = " +
             formatDouble(Step) + "), |J v| = " + formatDouble(Tangent.value());
  if (NonFinite)
    C.Detail += "; " + std::to_string(NonFinite) +
                " elements of J v or the differences are not finite";
  else if (C.Vacuous)
    C.Detail += "; VACUOUS: J v and the differences are zero (no "
                "differentiated input reaches an output)";
  else if (Tangent.value() == 0)
    C.Detail += "; J v is zero where the differences are not";
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

namespace {
/// A dot product of buffers and the norm of its terms, ||A .* B||.
struct DotTerms {
  double Sum = 0;
  ScaledNorm Terms;
  void add(const HostBuffer &A, const HostBuffer &B) {
    forEachProduct(A, B, [this](double P) {
      Sum += P;
      Terms.add(P);
    });
  }
};
} // namespace

CheckResult compareDotProducts(const BufferSet &Jv, const BufferSet &W,
                               const BufferSet &V, const BufferSet &Gradient,
                               double Tolerance) {
  CheckResult C = ranCheck("reverse", Tolerance);
  DotTerms L, R;
  for (const auto &[I, WBuf] : W)
    L.add(counterpart(Jv, I, WBuf), WBuf);
  for (const auto &[I, VBuf] : V)
    R.add(VBuf, counterpart(Gradient, I, VBuf));
  const double Lhs = L.Sum, Rhs = R.Sum;
  // Relative to the larger dot product, or to the size of a sum of its
  // terms with random signs (||J v .* w||) where both came out smaller:
  // rounding in J v or J^T w moves a dot product by about that size times
  // the relative error, and the directions' signs make the sums cancel by
  // chance (matmul_f64, 4096 terms: <J v, w> = 4.4e3 against a norm of
  // 1.3e5 gave 1.4e-12 where the elements are right to 5e-14). Halves: the
  // difference of two finite products stays finite.
  const double Dots = std::max(std::fabs(0.5 * Lhs), std::fabs(0.5 * Rhs));
  const double Terms = 0.5 * std::max(L.Terms.value(), R.Terms.value());
  C.Value = relativeError(0.5 * Lhs - 0.5 * Rhs, std::max(Dots, Terms));
  C.Passed = C.Value <= C.Tolerance && Rhs != 0;
  C.Vacuous = Lhs == 0 && Rhs == 0;
  C.Detail = "<J v, w> = " + formatDouble(Lhs) +
             ", <v, J^T w> = " + formatDouble(Rhs) + ", relative difference";
  if (Terms > Dots)
    C.Detail +=
        " to ||J v .* w||, ||v .* J^T w|| = " + formatDouble(L.Terms.value()) +
        ", " + formatDouble(R.Terms.value());
  if (!std::isfinite(Lhs) || !std::isfinite(Rhs))
    C.Detail += "; a dot product is not finite";
  else if (C.Vacuous)
    C.Detail += "; VACUOUS: both dot products are zero (no differentiated "
                "input reaches an output)";
  else if (Rhs == 0)
    C.Detail += "; <v, J^T w> is zero where <J v, w> is not";
  return C;
}

CheckResult acceptExpectedZero(CheckResult C) {
  if (!C.Vacuous)
    return C;
  C.Vacuous = false;
  C.Passed = true;
  std::string::size_type Cut = C.Detail.find("; VACUOUS: ");
  C.Detail =
      C.Detail.substr(0, Cut) + "; zero, as the plan expects (zero_derivative)";
  return C;
}

CheckTally tally(const std::vector<CheckResult> &Checks) {
  CheckTally T;
  for (const CheckResult &C : Checks)
    ++(!C.Ran      ? T.Skipped
       : C.Passed  ? T.Passed
       : C.Vacuous ? T.Vacuous
                   : T.Failed);
  return T;
}

RunVerdict verdict(const CheckTally &T) {
  if (T.Failed || (!T.Passed && !T.Vacuous))
    return RunVerdict::Failed;
  return T.Vacuous   ? RunVerdict::Vacuous
         : T.Skipped ? RunVerdict::Skipped
                     : RunVerdict::Passed;
}

std::string summaryLine(const CheckTally &T) {
  RunVerdict V = verdict(T);
  return std::to_string(T.Passed) + " passed, " + std::to_string(T.Failed) +
         " failed, " +
         (T.Vacuous ? std::to_string(T.Vacuous) + " vacuous, " : "") +
         std::to_string(T.Skipped) + " skipped: " +
         (V == RunVerdict::Passed    ? "all checks passed"
          : V == RunVerdict::Failed  ? "CHECKS FAILED"
          : V == RunVerdict::Vacuous ? "CHECKS VACUOUS"
                                     : "CHECKS SKIPPED");
}

const char *spelling(RunVerdict V) {
  switch (V) {
  case RunVerdict::Passed:
    return "passed";
  case RunVerdict::Skipped:
    return "skipped";
  case RunVerdict::Vacuous:
    return "vacuous";
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
  case RunVerdict::Vacuous:
    return irs::ExitCode::ChecksVacuous;
  case RunVerdict::Failed:
    break;
  }
  return irs::ExitCode::Findings;
}

} // namespace gpurun
