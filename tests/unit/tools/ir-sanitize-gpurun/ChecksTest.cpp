// The arithmetic of the runner's checks (src/tools/ir-sanitize-gpurun/
// Checks.cpp): the primal check's bitwise comparison, the forward check's
// relative error against central differences, the reverse check's dot
// test, and what a run of passed, failed and skipped checks concludes.
// Edge cases: NaN, infinities, signed zeros, subnormals, zero norms,
// values at the tolerance, magnitudes whose squares overflow.
#include "Checks.h"

#include "CatchCompat.h"

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

using namespace gpurun;

namespace {

HostBuffer f64(std::initializer_list<double> Values) {
  HostBuffer B(ElementType::F64, Values.size());
  uint64_t I = 0;
  for (double V : Values)
    B.set(I++, V);
  return B;
}

HostBuffer f32(std::initializer_list<double> Values) {
  HostBuffer B(ElementType::F32, Values.size());
  uint64_t I = 0;
  for (double V : Values)
    B.set(I++, V);
  return B;
}

BufferSet one(HostBuffer B) { return {{0, std::move(B)}}; }

HostBuffer f64Ones(unsigned N) {
  HostBuffer B(ElementType::F64, N);
  for (unsigned K = 0; K < N; ++K)
    B.set(K, 1);
  return B;
}

/// The forward check of tangents \p Jv where f(x + hv) - f(x - hv) = 2h Fd.
CheckResult forward(HostBuffer Jv, const HostBuffer &Fd, double Step = 0.5,
                    double Tolerance = 1e-3) {
  HostBuffer Plus = Fd, Minus = Fd;
  for (uint64_t K = 0; K < Fd.count(); ++K) {
    Plus.set(K, Fd.get(K) * Step);
    Minus.set(K, -Fd.get(K) * Step);
  }
  return compareForward(one(std::move(Jv)), one(Plus), one(Minus), Step,
                        Tolerance);
}

/// The dot test with <Jv, w> = Lhs and <v, J^T w> = Rhs (one element each).
CheckResult reverse(double Lhs, double Rhs, double Tolerance = 1e-6) {
  return compareDotProducts(one(f64({Lhs})), one(f64({1})), one(f64({1})),
                            one(f64({Rhs})), Tolerance);
}

/// The primal check of \p Original against \p Splat, the guard zones
/// unread, with \p Coverage (every output fully written when empty).
CheckResult primal(const BufferSet &Original, const BufferSet &Splat,
                   std::vector<OutputCoverage> Coverage = {}) {
  PrimalEvidence E;
  E.Original = Original;
  E.Splat = Splat;
  E.OtherGuards = Original;
  if (Coverage.empty())
    for (const auto &[I, B] : Original)
      Coverage.push_back({"out" + std::to_string(I), B.count(), B.count()});
  E.Coverage = std::move(Coverage);
  return comparePrimal(E);
}

constexpr double Inf = std::numeric_limits<double>::infinity();
const double NaN = std::nan("");

} // namespace

TEST_CASE("primal: equal outputs pass where the original wrote its outputs",
          "[Checks]") {
  CheckResult C = primal(one(f64({1, 2, 3})), one(f64({1, 2, 3})));
  CHECK(C.Ran);
  CHECK(C.Passed);
  CHECK_FALSE(C.Vacuous);
  CHECK(C.Value == 0);
  CHECK(C.Detail == "0 of 3 output elements differ (bitwise); the original "
                    "wrote 3 of 3");
  // Nothing written: equal, but no evidence.
  C = primal(one(f64({0, 0, 0})), one(f64({0, 0, 0})), {{"y", 0, 3}});
  CHECK_FALSE(C.Passed);
  CHECK(C.Vacuous);
  CHECK(C.Detail.find("the original wrote 0 of 3; VACUOUS: the original wrote "
                      "only 0 of 3 elements of y") != std::string::npos);
  // No outputs at all: nothing was compared.
  CHECK_FALSE(comparePrimal(PrimalEvidence()).Passed);
  CHECK(comparePrimal(PrimalEvidence()).Vacuous);
}

TEST_CASE("primal: an idle launch is VACUOUS, per output; half is enough",
          "[Checks]") {
  // saxpy with n = 1: one element of a million written.
  CheckResult C =
      primal(one(f64({1, 2})), one(f64({1, 2})), {{"y", 1, 1048576}});
  CHECK(C.Vacuous);
  CHECK_FALSE(C.Passed);
  CHECK(C.Detail.find("only 1 of 1048576 elements of y: the launch does not "
                      "exercise the kernel") != std::string::npos);
  // Two outputs, one idle: the table lists both, the verdict names the idle.
  C = primal(one(f64({1})), one(f64({1})),
             {{"y", 1000, 1000}, {"z", 10, 1000}});
  CHECK(C.Vacuous);
  CHECK(C.Detail.find("wrote 1010 of 2000 (y 1000 of 1000, z 10 of 1000)") !=
        std::string::npos);
  CHECK(C.Detail.find("only 10 of 1000 elements of z") != std::string::npos);
  // Half an output (a triangle) is exercised; one element less is not.
  CHECK(exercised({"y", 500, 1000}));
  CHECK_FALSE(exercised({"y", 499, 1000}));
  CHECK(exercised({"y", 1, 1}));
  CHECK_FALSE(exercised({"y", 0, 0}));
  // A difference is a failure, not a vacuous check.
  C = primal(one(f64({1, 2})), one(f64({1, 3})), {{"y", 0, 2}});
  CHECK_FALSE(C.Passed);
  CHECK_FALSE(C.Vacuous);
}

TEST_CASE("primal: outputs that change with the guard zones fail: the "
          "kernel reads outside its buffers",
          "[Checks]") {
  PrimalEvidence E;
  E.Original = one(f64({1, NaN}));
  E.Splat = E.Original;
  E.OtherGuards = one(f64({1, 3.4e38})); // x[N] read the other fill
  E.Coverage = {{"y", 2, 2}};
  CheckResult C = comparePrimal(E);
  CHECK_FALSE(C.Passed);
  CHECK_FALSE(C.Vacuous);
  CHECK(C.Detail.find("1 output elements change with the guard zones' "
                      "contents: the original reads outside its buffers") !=
        std::string::npos);
}

TEST_CASE("coverage: a write seen in either of two launches from different "
          "bytes",
          "[Checks]") {
  HostBuffer A = f32({0, 0, 0, 0}), B = coverageStart(A, /*Read=*/false);
  for (uint8_t Byte : B.Bytes)
    CHECK(Byte == 0xFF);
  // Element 0 untouched, 1 written with 0 (the value A started from), 2
  // with B's bytes, 3 with a new value.
  HostBuffer AfterA = f32({0, 0, 5, 7});
  HostBuffer AfterB = B;
  AfterB.set(1, 0);
  AfterB.set(3, 7);
  std::copy(AfterA.Bytes.begin() + 8, AfterA.Bytes.begin() + 12,
            AfterB.Bytes.begin() + 8); // 2 written as 5 there too
  CHECK(countWritten(A, AfterA, B, AfterB) == 3);
  // A buffer the kernel reads starts from neighbouring floats, integers
  // unchanged (an index moved by one could leave its array).
  HostBuffer Read = coverageStart(f64({1.5, 0}), /*Read=*/true);
  CHECK(Read.get(0) != 1.5);
  CHECK(Read.get(0) == Approx(1.5).epsilon(1e-15));
  CHECK(Read.get(1) != 0);
  HostBuffer Ints(ElementType::I32, 2);
  Ints.set(0, 7);
  CHECK(coverageStart(Ints, /*Read=*/true).Bytes == Ints.Bytes);
  CHECK_THROWS_AS(countWritten(A, f32({0}), B, AfterB), std::invalid_argument);
}

TEST_CASE("primal: the comparison is bitwise (signed zeros, NaNs, "
          "subnormals)",
          "[Checks]") {
  // -0.0 == 0.0 numerically, but the bytes differ.
  CheckResult C = primal(one(f64({0.0, 2, 3})), one(f64({-0.0, 2, 3})));
  CHECK_FALSE(C.Passed);
  CHECK(C.Value == 1);
  // The same NaN is the same bytes (NaN != NaN numerically).
  CHECK(primal(one(f64({NaN, 2})), one(f64({NaN, 2}))).Passed);
  // A NaN with another payload differs.
  HostBuffer Payload = f64({NaN, 2});
  Payload.Bytes[0] ^= 1;
  CHECK(primal(one(f64({NaN, 2})), one(Payload)).Value == 1);
  // The smallest subnormal differs from zero.
  CHECK(primal(one(f32({0})), one(f32({FLT_TRUE_MIN}))).Value == 1);
  // Counts add over buffers.
  BufferSet Two = {{0, f64({1, 2})}, {3, f64({5})}};
  BufferSet Other = {{0, f64({1, 0})}, {3, f64({6})}};
  C = primal(Two, Other, {{"a", 2, 2}, {"b", 1, 1}});
  CHECK(C.Value == 2);
  CHECK(C.Detail.find("2 of 3 output elements differ") == 0);
}

TEST_CASE("primal: buffers of another shape are refused, never overread",
          "[Checks]") {
  CHECK_THROWS_AS(primal(one(f64({1, 2})), one(f64({1}))),
                  std::invalid_argument);
  CHECK_THROWS_AS(primal(one(f64({1})), one(f32({1}))), std::invalid_argument);
  CHECK_THROWS_AS(primal(one(f64({1})), {{1, f64({1})}}),
                  std::invalid_argument);
}

TEST_CASE("forward: the relative L2 error against central differences",
          "[Checks]") {
  CheckResult C = forward(f64({3, 4}), f64({3, 4}));
  CHECK(C.Passed);
  CHECK(C.Value == 0);
  CHECK(C.Detail == "relative L2 error of J v vs central differences (h = "
                    "0.5), |J v| = 5");
  // |(3, 4.05) - (3, 4)| / |(3, 4)| = 0.05 / 5 = 0.01.
  C = forward(f64({3, 4.05}), f64({3, 4}), 0.5, 1e-2);
  CHECK(C.Value == Approx(0.01).epsilon(1e-12));
  // (f(x + hv) - f(x - hv)) / 2h with h = 1e-3: 2e-3 * 7 / 2e-3 = 7.
  C = compareForward(one(f64({7})), one(f64({1 + 7e-3})), one(f64({1 - 7e-3})),
                     1e-3, 1e-9);
  CHECK(C.Value == Approx(0).margin(1e-12));
  CHECK(C.Passed);
}

TEST_CASE("forward: a value at the tolerance passes, the next one fails",
          "[Checks]") {
  // Err / |Fd| = 1 / 8 exactly.
  CheckResult C = forward(f64({9}), f64({8}), 1.0, 0.125);
  CHECK(C.Value == 0.125);
  CHECK(C.Passed);
  C = forward(f64({9}), f64({8}), 1.0, std::nextafter(0.125, 0.0));
  CHECK_FALSE(C.Passed);
}

TEST_CASE("forward: zero tangents and zero differences are no evidence",
          "[Checks]") {
  // Both zero: the error is zero but proves nothing: VACUOUS.
  CheckResult C = forward(f64({0, -0.0}), f64({0, 0}));
  CHECK_FALSE(C.Passed);
  CHECK(C.Vacuous);
  CHECK(C.Detail.find("VACUOUS: J v and the differences are zero") !=
        std::string::npos);
  // Tangents where the differences are zero: an infinite relative error.
  C = forward(f64({1e-3}), f64({0}));
  CHECK(std::isinf(C.Value));
  CHECK_FALSE(C.Passed);
  CHECK_FALSE(C.Vacuous);
  // Zero tangents where the differences are not: a wrong derivative.
  C = forward(f64({0}), f64({1}));
  CHECK_FALSE(C.Passed);
  CHECK_FALSE(C.Vacuous);
  CHECK(C.Detail.find("J v is zero where the differences are not") !=
        std::string::npos);
}

TEST_CASE("forward: NaN and infinite values fail, naming them", "[Checks]") {
  for (double Bad : {NaN, Inf, -Inf}) {
    CheckResult C = forward(f64({1, Bad}), f64({1, 1}));
    INFO(Bad);
    CHECK(std::isnan(C.Value));
    CHECK_FALSE(C.Passed);
    CHECK(
        C.Detail.find("1 elements of J v or the differences are not finite") !=
        std::string::npos);
    CHECK_FALSE(forward(f64({1, 1}), f64({1, Bad})).Passed);
  }
}

TEST_CASE("forward: huge and subnormal magnitudes are compared exactly",
          "[Checks]") {
  // Squares of 1e200 overflow a double; the scaled norm does not.
  CheckResult C = forward(f64({1e200, 1e200}), f64({1e200, 1e200}));
  CHECK(C.Value == 0);
  CHECK(C.Passed);
  C = forward(f64({1.01e200}), f64({1e200}), 0.5, 0.02);
  CHECK(C.Value == Approx(0.01).epsilon(1e-9));
  // f(x + hv) - f(x - hv) = 2 DBL_MAX overflows; the halves do not.
  C = compareForward(one(f64({DBL_MAX})), one(f64({DBL_MAX})),
                     one(f64({-DBL_MAX})), 1.0, 1e-9);
  CHECK(C.Value == 0);
  CHECK(C.Passed);
  // Subnormal tangents: relative to their own size, not to a floor (a
  // floor of 1e-300 made a 100% error look like 1e-10).
  double Tiny = 4e-320;
  C = forward(f64({2 * Tiny}), f64({Tiny}), 1.0, 1e-6);
  CHECK(C.Value == Approx(1.0).epsilon(1e-3));
  CHECK_FALSE(C.Passed);
  // f32 buffers are read back as doubles: the same arithmetic.
  C = compareForward(one(f32({2})), one(f32({1})), one(f32({-1})), 0.5, 0);
  CHECK(C.Value == 0);
  CHECK(C.Passed);
}

TEST_CASE("forward: larger steps are tried while the differences fail",
          "[Checks]") {
  std::vector<double> Steps = forwardSteps(1e-3);
  REQUIRE(Steps.size() == ForwardStepCount);
  CHECK(Steps[1] == Approx(1e-2));
  CHECK(Steps[2] == Approx(1e-1));

  // f rounded by 3e-5 (a Float32 sum): the quotient is off by 3e-5 / h.
  auto Rounded = [](double Tangent, double Step) {
    return forward(f64({Tangent}), f64({1 + 3e-5 / Step}), Step);
  };
  std::vector<CheckResult> Tries;
  for (double Step : Steps)
    Tries.push_back(Rounded(1, Step));
  CHECK_FALSE(Tries[0].Passed);
  CHECK_FALSE(Tries[1].Passed);
  CheckResult C = combineForwardSteps(Steps, Tries);
  CHECK(C.Passed);
  CHECK(C.Value == Tries[2].Value);
  CHECK(C.Detail.find("(h = 0.1)") != std::string::npos);
  CHECK(C.Detail.find("; at h = 0.001: 0.029") != std::string::npos);
  CHECK(C.Detail.find(", at h = 0.01: 0.0029") != std::string::npos);

  // A wrong tangent fails at every step: the first is reported, and the
  // errors that do not fall with h say so.
  Tries.clear();
  for (double Step : Steps)
    Tries.push_back(Rounded(2, Step));
  C = combineForwardSteps(Steps, Tries);
  CHECK_FALSE(C.Passed);
  CHECK(C.Value == Tries[0].Value);
  CHECK(C.Detail.find("(h = 0.001)") != std::string::npos);
  CHECK(C.Detail.find("at h = 0.01: ") != std::string::npos);
  CHECK(C.Detail.find("at h = 0.1: ") != std::string::npos);

  // A pass at the plan's step needs no other.
  CheckResult First = Rounded(1, 1.0);
  C = combineForwardSteps(Steps, {First});
  CHECK(C.Passed);
  CHECK(C.Detail == First.Detail);
}

TEST_CASE("reverse: the dot test, relative to the larger product", "[Checks]") {
  CheckResult C = reverse(2, 2);
  CHECK(C.Passed);
  CHECK(C.Value == 0);
  CHECK(C.Detail == "<J v, w> = 2, <v, J^T w> = 2, relative difference");
  CHECK(reverse(1, 1.25).Value == 0.2);
  CHECK(reverse(1.25, 1).Value == 0.2); // symmetric
  CHECK(reverse(-1, 1).Value == 2);
  // At the tolerance: passes; just above: fails.
  CHECK(reverse(1, 1.25, 0.2).Passed);
  CHECK_FALSE(reverse(1, 1.25, std::nextafter(0.2, 0.0)).Passed);
  // Sums over several buffers.
  BufferSet Jv = {{0, f64({1, 2})}, {1, f64({3})}};
  BufferSet W = {{0, f64({1, 1})}, {1, f64({1})}};
  BufferSet V = {{2, f64({2})}};
  BufferSet G = {{2, f64({3})}};
  C = compareDotProducts(Jv, W, V, G, 0);
  CHECK(C.Value == 0);
  CHECK(C.Passed);
}

TEST_CASE("a zero derivative the plan expects passes; nothing else changes",
          "[Checks]") {
  CheckResult C = acceptExpectedZero(forward(f64({0, 0}), f64({0, 0})));
  CHECK(C.Passed);
  CHECK_FALSE(C.Vacuous);
  CHECK(C.Detail.find("VACUOUS") == std::string::npos);
  CHECK(C.Detail.find("zero, as the plan expects (zero_derivative)") !=
        std::string::npos);
  CHECK(acceptExpectedZero(reverse(0, 0)).Passed);
  // A zero on one side only is still a wrong derivative.
  CheckResult Wrong = acceptExpectedZero(forward(f64({0}), f64({1})));
  CHECK_FALSE(Wrong.Passed);
  CHECK_FALSE(acceptExpectedZero(reverse(1e-3, 0)).Passed);
}

TEST_CASE("reverse: zero, non-finite and extreme products", "[Checks]") {
  CheckResult C = reverse(0, 0);
  CHECK_FALSE(C.Passed);
  CHECK(C.Vacuous);
  CHECK(C.Detail.find("VACUOUS: both dot products are zero") !=
        std::string::npos);
  CHECK(reverse(0, -0.0).Vacuous);
  C = reverse(1e-3, 0);
  CHECK_FALSE(C.Passed);
  CHECK_FALSE(C.Vacuous);
  CHECK(C.Detail.find("<v, J^T w> is zero where <J v, w> is not") !=
        std::string::npos);
  for (double Bad : {NaN, Inf, -Inf}) {
    INFO(Bad);
    C = reverse(Bad, 1);
    CHECK(std::isnan(C.Value));
    CHECK_FALSE(C.Passed);
    CHECK(C.Detail.find("a dot product is not finite") != std::string::npos);
    CHECK_FALSE(reverse(1, Bad).Passed);
  }
  CHECK_FALSE(reverse(Inf, Inf).Passed); // inf - inf is not agreement
  // DBL_MAX - (-DBL_MAX) overflows; the relative difference is still 2.
  CHECK(reverse(DBL_MAX, -DBL_MAX).Value == 2);
  CHECK(reverse(DBL_MAX, DBL_MAX).Passed);
  // Subnormal products: relative to their size (the old floor of 1e-300
  // passed any two of them).
  C = reverse(4e-320, 8e-320, 1e-6);
  CHECK(C.Value == Approx(0.5).epsilon(1e-3));
  CHECK_FALSE(C.Passed);
  CHECK(reverse(4e-320, 4e-320).Passed);
}

TEST_CASE("relativeError and ScaledNorm at their edges", "[Checks]") {
  CHECK(relativeError(0, 0) == 0);
  CHECK(relativeError(-0.0, 0) == 0);
  CHECK(std::isinf(relativeError(1e-300, 0)));
  CHECK(relativeError(-1, 4) == 0.25);
  CHECK(std::isnan(relativeError(NaN, 1)));
  CHECK(std::isnan(relativeError(1, Inf)));
  CHECK(std::isnan(relativeError(Inf, Inf)));
  CHECK(relativeError(DBL_TRUE_MIN, DBL_TRUE_MIN) == 1);

  ScaledNorm Empty;
  CHECK(Empty.value() == 0);
  ScaledNorm N;
  for (double X : {3.0, -4.0, 0.0, -0.0})
    N.add(X);
  CHECK(N.value() == 5);
  ScaledNorm Big;
  Big.add(3e300);
  Big.add(4e300);
  CHECK(Big.value() == Approx(5e300));
  ScaledNorm Small;
  Small.add(3 * DBL_TRUE_MIN);
  Small.add(4 * DBL_TRUE_MIN);
  CHECK(Small.value() == 5 * DBL_TRUE_MIN);
  ScaledNorm Infinite;
  Infinite.add(1);
  Infinite.add(-Inf);
  Infinite.add(Inf);
  Infinite.add(2);
  CHECK(Infinite.value() == Inf);
  ScaledNorm WithNaN;
  WithNaN.add(1);
  WithNaN.add(NaN);
  WithNaN.add(Inf);
  CHECK(std::isnan(WithNaN.value()));
}

TEST_CASE("a run passes only if every check ran and passed", "[Checks]") {
  auto Check = [](bool Ran, bool Passed) {
    CheckResult C;
    C.Name = "c";
    C.Ran = Ran;
    C.Passed = Passed;
    return C;
  };
  CheckResult Pass = Check(true, true), Fail = Check(true, false),
              Skip = Check(false, false);
  CheckTally T = tally({Pass, Pass, Pass});
  CHECK(T.Passed == 3);
  CHECK(verdict(T) == RunVerdict::Passed);
  CHECK(summaryLine(T) == "3 passed, 0 failed, 0 skipped: all checks passed");
  CHECK(exitCodeOf(verdict(T)) == irs::ExitCode::Ok);

  // The primal-only plan: a skip is never a pass.
  T = tally({Pass, Skip, Skip});
  CHECK(T.Skipped == 2);
  CHECK(verdict(T) == RunVerdict::Skipped);
  CHECK(summaryLine(T) == "1 passed, 0 failed, 2 skipped: CHECKS SKIPPED");
  CHECK(exitCodeOf(verdict(T)) == irs::ExitCode::ChecksSkipped);
  CHECK(std::string(spelling(verdict(T))) == "skipped");

  // A failure outweighs a skip.
  T = tally({Pass, Fail, Skip});
  CHECK(verdict(T) == RunVerdict::Failed);
  CHECK(summaryLine(T) == "1 passed, 1 failed, 1 skipped: CHECKS FAILED");
  CHECK(exitCodeOf(verdict(T)) == irs::ExitCode::Findings);

  // Nothing ran, or nothing at all: no evidence of anything.
  CHECK(verdict(tally({Skip, Skip})) == RunVerdict::Failed);
  CHECK(verdict(tally({})) == RunVerdict::Failed);
  CHECK(summaryLine(tally({})) ==
        "0 passed, 0 failed, 0 skipped: CHECKS FAILED");
  // A check that did not run counts as skipped whatever Passed says.
  CHECK(tally({Check(false, true)}).Skipped == 1);

  // A vacuous check is not a pass; a failure outweighs it, it outweighs a
  // skip, and it has its own exit code.
  CheckResult Vacuous = Check(true, false);
  Vacuous.Vacuous = true;
  T = tally({Pass, Vacuous, Skip});
  CHECK(T.Vacuous == 1);
  CHECK(T.Failed == 0);
  CHECK(verdict(T) == RunVerdict::Vacuous);
  CHECK(summaryLine(T) ==
        "1 passed, 0 failed, 1 vacuous, 1 skipped: CHECKS VACUOUS");
  CHECK(exitCodeOf(verdict(T)) == irs::ExitCode::ChecksVacuous);
  CHECK(std::string(spelling(verdict(T))) == "vacuous");
  CHECK(verdict(tally({Vacuous, Fail})) == RunVerdict::Failed);
  CHECK(verdict(tally({Vacuous})) == RunVerdict::Vacuous);
}

TEST_CASE("reverse: dot products that cancel by chance are judged against "
          "the size of their terms",
          "[Checks]") {
  // <J v, w> = 0.01 from terms of 1000: rounding of 1e-9 in an element of
  // J^T w is 1e-4 of the dot product, and 1e-9 of its terms' norm.
  BufferSet Jv = {{0, f64({1000, -999.99})}};
  BufferSet W = {{0, f64({1, 1})}};
  BufferSet V = {{1, f64({1, 1})}};
  CheckResult C =
      compareDotProducts(Jv, W, V, {{1, f64({1000.000001, -999.99})}}, 1e-6);
  CHECK(C.Passed);
  CHECK(C.Value < 1e-9);
  CHECK(C.Detail.find("relative difference to ||J v .* w||") !=
        std::string::npos);
  // An element off by 1e-4 still fails: it moves the dot product by 1e-4
  // of the terms' size.
  C = compareDotProducts(Jv, W, V, {{1, f64({1000.1, -999.99})}}, 1e-6);
  CHECK_FALSE(C.Passed);
  CHECK(C.Value > 5e-5);
  // A reverse kernel that did half its work fails against the terms' norm
  // as it did against the dot products: J = diag(D) with signs that make
  // <J v, w> cancel, the second half of J^T w left zero.
  const unsigned N = 1000;
  HostBuffer Dir(ElementType::F64, N), Half(ElementType::F64, N);
  for (unsigned K = 0; K < N; ++K) {
    Dir.set(K, (K % 2 ? -1.0 : 1.0) * (1 + K * K % 7));
    Half.set(K, K < N / 2 ? Dir.get(K) : 0.0);
  }
  C = compareDotProducts(one(Dir), one(f64Ones(N)), one(f64Ones(N)), one(Half),
                         1e-6);
  CHECK_FALSE(C.Passed);
  CHECK(C.Value > 0.01); // the missing half's 2 against a norm of 105
  CHECK(C.Detail.find("to ||J v .* w||") != std::string::npos);
  // Where the dot products are the larger, they are the reference.
  C = compareDotProducts(Jv, W, V, {{1, f64({1000, -999.99})}}, 1e-6);
  CHECK(C.Value == 0);
  CHECK(reverse(1, 1 + 1e-5).Value == Approx(1e-5 / (1 + 1e-5)));
}
