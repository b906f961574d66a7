// The runner's bandwidth figures (src/tools/ir-sanitize-gpurun/Bandwidth.cpp):
// the traffic a kernel must cause, from the plan's buffers, and the DRAM peak
// from the driver's memory clock and bus width.
#include "Bandwidth.h"

#include <catch2/catch.hpp>

using namespace gpurun;

namespace {
Param pointerTo(unsigned Buffer, bool Shadow) {
  Param P;
  P.Bytes.assign(8, 0);
  P.Relocs.push_back({0, Buffer, Shadow});
  return P;
}
} // namespace

TEST_CASE("a kernel moves each buffer it is given once, the reverse kernel "
          "its shadows twice",
          "[Bandwidth]") {
  Plan P;
  P.Buffers = {{"dest", ElemType::F32, 1000, Init::Zero, 0, true, false},
               {"x", ElemType::F64, 10, Init::Random, 1, false, false},
               {"y", ElemType::F32, 1000, Init::Random, 2, false, true}};
  P.Launches["original"].Params = {pointerTo(0, false), pointerTo(1, false),
                                   pointerTo(2, false)};
  CHECK(bytesMoved(P, "original") == 4000 + 80 + 4000);
  // x .+ x: the same buffer passed twice is read once.
  P.Launches["splat"].Params = {pointerTo(0, false), pointerTo(2, false),
                                pointerTo(2, false)};
  CHECK(bytesMoved(P, "splat") == 8000);
  const std::vector<Param> WithShadows = {
      pointerTo(0, false), pointerTo(0, true), pointerTo(1, false),
      pointerTo(2, false), pointerTo(2, true)};
  P.Launches["forward"].Params = WithShadows;
  CHECK(bytesMoved(P, "forward") == 4000 + 4000 + 80 + 4000 + 4000);
  P.Launches["reverse"].Params = WithShadows;
  CHECK(bytesMoved(P, "reverse") == 4000 + 8000 + 80 + 4000 + 8000);
  CHECK(bytesMoved(P, "absent") == 0);
}

TEST_CASE("the DRAM peak is double data rate over the bus width",
          "[Bandwidth]") {
  // An H100 SXM reports 2619 MHz and 5120 bits: 3.35 TB/s.
  CHECK(peakBytesPerSecond(2619000, 5120) == Approx(3.352e12).epsilon(1e-3));
  CHECK(peakBytesPerSecond(0, 5120) == 0);
  CHECK(peakBytesPerSecond(2619000, -1) == 0);
}
