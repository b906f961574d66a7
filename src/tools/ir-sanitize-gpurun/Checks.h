//===- Checks.h - The arithmetic of the runner's checks ---------*- C++ -*-===//
//
// What each check concludes from the buffers PlanRunner downloaded, and what
// the checks together conclude about the run. No CUDA here, so that every
// comparison is unit-tested on machines without a GPU.
//
//  primal   bitwise: an element differs when any of its bytes does (so -0.0
//           differs from 0.0, and a NaN equals only the same NaN); equality
//           is evidence only if the original kernel wrote something;
//  forward  relative L2 error |J v - FD| / |FD| of the forward tangents
//           against central differences (f(x + h v) - f(x - h v)) / 2h, at
//           the plan's h and, while that fails, at 10h and 100h: rounding
//           in Float32 differences of long sums grows as 1/h (a matmul's
//           error is 1e-2 at h = 1e-3, 1e-4 at h = 0.1), truncation as
//           h^2, and a wrong tangent's error stays at every h;
//  reverse  the dot-product test: |<J v, w> - <v, J^T w>| over the larger
//           of the two.
//
// Norms are scaled (no overflow or underflow of the squares); a non-finite
// value, a zero tangent or a zero dot product is never evidence: the check
// fails and its detail says why. A value equal to the tolerance passes.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_CHECKS_H
#define IR_SANITIZE_GPURUN_CHECKS_H

#include "HostData.h"
#include "RunResults.h"

#include "ir-sanitize/Support/ExitCode.h"

#include <string>
#include <vector>

namespace gpurun {

/// The outputs of one launch, the original outputs' initial contents and the
/// original kernel's outputs after it ran: the primal check.
CheckResult comparePrimal(const BufferSet &Original, const BufferSet &Splat,
                          const BufferSet &Initial);

/// The forward check: tangents \p Jv against central differences of the
/// outputs after launches at x + \p Step v (\p Plus) and x - \p Step v
/// (\p Minus).
CheckResult compareForward(const BufferSet &Jv, const BufferSet &Plus,
                           const BufferSet &Minus, double Step,
                           double Tolerance);

/// The steps the forward check tries, in order: the plan's \p Step, then
/// ForwardStepGrowth times the one before, ForwardStepCount in all.
constexpr double ForwardStepGrowth = 10;
constexpr unsigned ForwardStepCount = 3;
std::vector<double> forwardSteps(double Step);

/// One forward check from those at forwardSteps (\p Tries, in that order,
/// as many as were run): the first that passed, else the first; its detail
/// adds the relative errors at the other steps tried.
CheckResult combineForwardSteps(const std::vector<double> &Steps,
                                const std::vector<CheckResult> &Tries);

/// The reverse check: <\p Jv, \p W> against <\p V, \p Gradient>, where
/// \p Gradient is J^T w, the reverse kernel's shadows of the wrt buffers.
CheckResult compareDotProducts(const BufferSet &Jv, const BufferSet &W,
                               const BufferSet &V, const BufferSet &Gradient,
                               double Tolerance);

/// |Diff| / |Reference|, exactly: infinite when only the reference is zero,
/// NaN when either is not finite (a NaN never meets a tolerance).
double relativeError(double Diff, double Reference);

/// The Euclidean norm of the values added, without overflow or underflow of
/// their squares (LAPACK's dlassq): Scale * sqrt(SumOfSquares).
class ScaledNorm {
public:
  void add(double X);
  double value() const;

private:
  double Scale = 0, SumOfSquares = 1;
};

/// How many checks passed, failed or did not run.
struct CheckTally {
  unsigned Passed = 0, Failed = 0, Skipped = 0;
};
CheckTally tally(const std::vector<CheckResult> &Checks);

/// What a run concludes: a run that ran no check, or in which one failed,
/// failed; one with a skipped check did not pass.
enum class RunVerdict { Passed, Failed, Skipped };
RunVerdict verdict(const CheckTally &T);
/// "3 passed, 0 failed, 0 skipped: all checks passed", "1 passed, 0 failed,
/// 2 skipped: CHECKS SKIPPED", "... : CHECKS FAILED".
std::string summaryLine(const CheckTally &T);
/// "passed", "failed" or "skipped" (the JSON report's "result").
const char *spelling(RunVerdict V);
/// Ok, Findings or ChecksSkipped.
irs::ExitCode exitCodeOf(RunVerdict V);

} // namespace gpurun

#endif
