//===- Checks.h - The arithmetic of the runner's checks ---------*- C++ -*-===//
//
// What each check concludes from the buffers PlanRunner downloaded, and what
// the checks together conclude about the run. No CUDA here, so that every
// comparison is unit-tested on machines without a GPU.
//
//  primal   bitwise: an element differs when any of its bytes does (so -0.0
//           differs from 0.0, and a NaN equals only the same NaN); equality
//           is evidence only where the original kernel wrote its outputs
//           (at least half of each: VACUOUS otherwise) and read nothing
//           outside its buffers (its outputs do not change with the guard
//           zones' contents, GuardZones.h);
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
// fails and its detail says why, as VACUOUS where both sides are zero (no
// differentiated input reaches an output). A value equal to the tolerance
// passes.
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

/// How much of one output buffer the original kernel wrote.
struct OutputCoverage {
  std::string Name;
  uint64_t Written = 0, Total = 0;
};

/// Whether a launch exercises the output: it writes at least half of its
/// elements. Fewer is an idle launch (one thread of a million at work) or a
/// buffer larger than the launch, and shows nothing about the rest.
bool exercised(const OutputCoverage &C);

/// The elements a kernel wrote, seen in two launches that started from
/// different bytes (\p BeforeA, \p BeforeB) and ended with \p AfterA,
/// \p AfterB: an element is written where either launch changed it. (One
/// launch cannot tell a write of the value already there from no write.)
uint64_t countWritten(const HostBuffer &BeforeA, const HostBuffer &AfterA,
                      const HostBuffer &BeforeB, const HostBuffer &AfterB);

/// What the second coverage launch starts an output from, given its initial
/// contents \p Initial: every byte 0xFF (NaN, -1) where the kernel does not
/// read the buffer (\p Read false); where it does, floats with their lowest
/// bit flipped (a neighbouring value: the kernel computes as before) and
/// integers unchanged (an index moved by one could leave its array).
HostBuffer coverageStart(const HostBuffer &Initial, bool Read);

/// What the primal check compares.
struct PrimalEvidence {
  BufferSet Original; ///< The original kernel's outputs.
  BufferSet Splat;    ///< The splatted kernel's, from the same start.
  /// The original's again, with other contents in the guard zones: an
  /// element that changes was computed from memory outside the buffers.
  BufferSet OtherGuards;
  std::vector<OutputCoverage> Coverage; ///< Per output, in plan order.
};

/// The primal check.
CheckResult comparePrimal(const PrimalEvidence &E);

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

/// A derivative check that found zero on both sides, where the plan says
/// the derivative is zero (`zero_derivative`): passed, and its detail says
/// why; any other result is left as it is.
CheckResult acceptExpectedZero(CheckResult C);

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

/// How many checks passed, failed, were vacuous or did not run.
struct CheckTally {
  unsigned Passed = 0, Failed = 0, Vacuous = 0, Skipped = 0;
};
CheckTally tally(const std::vector<CheckResult> &Checks);

/// What a run concludes: a run that ran no check, or in which one failed,
/// failed; one with a vacuous check, else a skipped one, did not pass.
enum class RunVerdict { Passed, Failed, Vacuous, Skipped };
RunVerdict verdict(const CheckTally &T);
/// "3 passed, 0 failed, 0 skipped: all checks passed", "1 passed, 0 failed,
/// 2 skipped: CHECKS SKIPPED", "... : CHECKS FAILED"; "2 passed, 0 failed,
/// 1 vacuous, 0 skipped: CHECKS VACUOUS" (the vacuous count only when there
/// are some).
std::string summaryLine(const CheckTally &T);
/// "passed", "failed", "vacuous" or "skipped" (the JSON report's "result").
const char *spelling(RunVerdict V);
/// Ok, Findings, ChecksVacuous or ChecksSkipped.
irs::ExitCode exitCodeOf(RunVerdict V);

} // namespace gpurun

#endif
