// The runner's host-side data (src/tools/ir-sanitize-gpurun/HostData.cpp): the
// same plan must see the same inputs on every machine, and the comparisons
// the checks rely on must be exact.
#include "HostData.h"

#include "CatchCompat.h"

using namespace gpurun;

TEST_CASE("buffer initialisation is deterministic and as declared",
          "[HostData]") {
  Buffer B{"x", ElementType::F32, 1000, BufferInit::Random, 7, false, true};
  HostBuffer A = initialContents(B), Again = initialContents(B);
  CHECK(countDifferences(A, Again) == 0);
  B.Seed = 8;
  CHECK(countDifferences(A, initialContents(B)) > 990);
  for (uint64_t I = 0; I < A.count(); ++I) {
    CHECK(A.get(I) >= 0.5);
    CHECK(A.get(I) < 1.5);
  }
  Buffer R{"r", ElementType::I64, 5, BufferInit::Range, 0, false, false};
  CHECK(initialContents(R).get(4) == 4);
  Buffer O{"o", ElementType::F64, 3, BufferInit::Ones, 0, false, false};
  CHECK(initialContents(O).get(2) == 1.0);
  Buffer Z{"z", ElementType::U8, 3, BufferInit::Zero, 0, false, false};
  CHECK(initialContents(Z).Bytes == std::vector<uint8_t>(3, 0));
}

TEST_CASE("directions, axpy and dot behave as the checks assume",
          "[HostData]") {
  HostBuffer V = randomDirection(ElementType::F64, 4, 3);
  for (uint64_t I = 0; I < 4; ++I) {
    CHECK(V.get(I) >= -1);
    CHECK(V.get(I) < 1);
  }
  HostBuffer X(ElementType::F64, 4);
  for (uint64_t I = 0; I < 4; ++I)
    X.set(I, double(I));
  HostBuffer Y = axpy(X, 2.0, V);
  for (uint64_t I = 0; I < 4; ++I)
    CHECK(Y.get(I) == double(I) + 2.0 * V.get(I));
  CHECK(dot(X, X) == 0 + 1 + 4 + 9);
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
