// The runner's host-side data (src/tools/ir-sanitize-gpurun/HostData.cpp): the
// same plan must see the same inputs on every machine, and the comparisons
// the checks rely on must be exact.
#include "HostData.h"

#include "CatchCompat.h"

#include <cmath>
#include <stdexcept>

using namespace gpurun;

TEST_CASE("buffer initialisation is deterministic and as declared",
          "[HostData]") {
  LaunchBuffer B{"x", ElementType::F32, 1000, BufferInit::Random, 7, false,
                 true};
  HostBuffer A = initialContents(B), Again = initialContents(B);
  CHECK(countDifferences(A, Again) == 0);
  B.Seed = 8;
  CHECK(countDifferences(A, initialContents(B)) > 990);
  for (uint64_t I = 0; I < A.count(); ++I) {
    CHECK(A.get(I) >= 0.5);
    CHECK(A.get(I) < 1.5);
  }
  LaunchBuffer R{"r", ElementType::I64, 5, BufferInit::Range, 0, false, false};
  CHECK(initialContents(R).get(4) == 4);
  R.Init = BufferInit::Range1;
  CHECK(initialContents(R).get(0) == 1);
  CHECK(initialContents(R).get(4) == 5);
  LaunchBuffer S{"s",  ElementType::I64, 5000, BufferInit::Segments, 2, false,
                 false};
  HostBuffer Seg = initialContents(S);
  CHECK(Seg.get(0) == 0);
  uint64_t Run = 1;
  for (uint64_t I = 1; I < Seg.count(); ++I) {
    double Step = Seg.get(I) - Seg.get(I - 1);
    REQUIRE((Step == 0 || Step == 1));
    if (Step == 1) {
      CHECK(Run >= 4);
      CHECK(Run <= 64);
      Run = 0;
    }
    ++Run;
  }
  CHECK(Seg.get(Seg.count() - 1) > 5000 / 64);
  LaunchBuffer O{"o", ElementType::F64, 3, BufferInit::Ones, 0, false, false};
  CHECK(initialContents(O).get(2) == 1.0);
  LaunchBuffer Z{"z", ElementType::U8, 3, BufferInit::Zero, 0, false, false};
  CHECK(initialContents(Z).Bytes == std::vector<uint8_t>(3, 0));
}

TEST_CASE("directions, axpy and dot behave as the checks assume",
          "[HostData]") {
  HostBuffer V = randomDirection(ElementType::F64, 4, 3);
  for (uint64_t I = 0; I < 4; ++I) {
    CHECK(V.get(I) >= -1);
    CHECK(V.get(I) <= 1);
    CHECK(V.get(I) != 0);
    double Steps = V.get(I) * (1 << DirectionGridBits);
    CHECK(Steps == std::trunc(Steps));
  }
  HostBuffer X(ElementType::F64, 4);
  for (uint64_t I = 0; I < 4; ++I)
    X.set(I, double(I));
  HostBuffer Y = axpy(X, 2.0, V);
  for (uint64_t I = 0; I < 4; ++I)
    CHECK(Y.get(I) == double(I) + 2.0 * V.get(I));
  double Sum = 0;
  forEachProduct(X, X, [&Sum](double P) { Sum += P; });
  CHECK(Sum == 0 + 1 + 4 + 9);
  // f32 rounding happens in axpy, in the buffer's type.
  HostBuffer F(ElementType::F32, 1);
  F.set(0, 1.0);
  HostBuffer G(ElementType::F32, 1);
  G.set(0, 1.0);
  CHECK(axpy(F, 1e-9, G).get(0) == 1.0);
  // A single flipped bit is a difference.
  HostBuffer H = F;
  H.Bytes[0] ^= 1;
  CHECK(countDifferences(F, H) == 1);
}

TEST_CASE("a buffer whose byte size would wrap is refused", "[HostData]") {
  CHECK_THROWS_AS(HostBuffer(ElementType::F64, UINT64_MAX / 4),
                  std::length_error);
  CHECK_THROWS_AS(HostBuffer(ElementType::F32, (UINT64_MAX >> 2) + 1),
                  std::length_error);
  CHECK(HostBuffer(ElementType::U8, 0).count() == 0);
}

TEST_CASE("functions of two buffers refuse different shapes", "[HostData]") {
  HostBuffer A(ElementType::F64, 4), Shorter(ElementType::F64, 3),
      Narrower(ElementType::F32, 4);
  auto Ignore = [](double) {};
  CHECK_THROWS_AS(forEachProduct(A, Shorter, Ignore), std::invalid_argument);
  CHECK_THROWS_AS(forEachProduct(Shorter, A, Ignore), std::invalid_argument);
  CHECK_THROWS_AS(countDifferences(A, Narrower), std::invalid_argument);
  CHECK_THROWS_AS(axpy(A, 1.0, Shorter), std::invalid_argument);
  // Same bytes, other type: still refused (element boundaries differ).
  HostBuffer Eight(ElementType::U8, 32);
  CHECK_THROWS_AS(countDifferences(A, Eight), std::invalid_argument);
}

TEST_CASE("directions, finite-difference points and initial outputs follow "
          "the plan's buffers",
          "[HostData]") {
  RunPlan P;
  P.Launch.Buffers = {
      {"x", ElementType::F64, 3, BufferInit::Range, 1, false, true},
      {"y", ElementType::F64, 2, BufferInit::Ones, 2, true, false},
      {"z", ElementType::F32, 2, BufferInit::Zero, 3, true, true}};
  BufferSet V = directions(P, /*ForWrt=*/true, 1);
  REQUIRE(V.size() == 2);
  CHECK(V.count(0));
  CHECK(V.count(2));
  CHECK(countDifferences(
            V.at(0), randomDirection(ElementType::F64, 3, 1 * 31 + 1)) == 0);
  BufferSet W = directions(P, /*ForWrt=*/false, 2);
  CHECK(W.size() == 2);
  CHECK(W.count(1));
  // Another salt, other directions.
  CHECK(countDifferences(V.at(2), directions(P, true, 2).at(2)) == 2);
  BufferSet Plus = perturbed(P, V, 0.5);
  REQUIRE(Plus.size() == 2);
  for (uint64_t I = 0; I < 3; ++I)
    CHECK(Plus.at(0).get(I) == double(I) + 0.5 * V.at(0).get(I));
  BufferSet Out = initialOutputs(P);
  REQUIRE(Out.size() == 2);
  CHECK(Out.at(1).get(1) == 1.0);
  CHECK(Out.at(2).Type == ElementType::F32);
}

TEST_CASE("a Float32 sum of directions does not depend on its order",
          "[HostData]") {
  // What a reverse kernel's atomics do with the cotangents of 2^20 outputs
  // gathered from one element: any order, one result.
  HostBuffer W = randomDirection(ElementType::F32, 1 << 20, 7);
  float Forward = 0, Backward = 0, Pairs = 0;
  for (uint64_t I = 0; I < W.count(); ++I) {
    Forward += static_cast<float>(W.get(I));
    Backward += static_cast<float>(W.get(W.count() - 1 - I));
  }
  for (uint64_t I = 0; I < W.count(); I += 2)
    Pairs += static_cast<float>(W.get(I)) + static_cast<float>(W.get(I + 1));
  CHECK(Forward == Backward);
  CHECK(Forward == Pairs);
  CHECK(Forward != 0);
}
