// The runner's bandwidth figures (src/tools/ir-sanitize-gpurun/Bandwidth.cpp):
// the traffic a kernel must cause, from the plan's buffers, and the DRAM peak
// from the driver's memory clock and bus width.
#include "Bandwidth.h"

#include "../../Launch/RunPlanSample.h"

#include "CatchCompat.h"

#include <cmath>

using namespace gpurun;
using irs::BufferInit;
using irs::ElementType;
using irs::KernelRole;

namespace {
/// A parameter holding the address of the buffer named \p Buffer.
ParamImage pointerTo(const char *Buffer, bool Shadow,
                     std::optional<irs::MemoryAccess> Access = std::nullopt) {
  ParamImage P;
  P.Bytes.assign(8, 0);
  P.Relocs.push_back({0, Buffer, Shadow, Access});
  return P;
}
} // namespace

TEST_CASE("a kernel moves each buffer it is given once, the reverse kernel "
          "its shadows twice",
          "[Bandwidth]") {
  RunPlan P;
  P.Launch.Buffers = {
      {"dest", ElementType::F32, 1000, BufferInit::Zero, 0, true, false},
      {"x", ElementType::F64, 10, BufferInit::Random, 1, false, false},
      {"y", ElementType::F32, 1000, BufferInit::Random, 2, false, true}};
  irs::test::kernelOf(P, KernelRole::Original).Params = {
      pointerTo("dest", false), pointerTo("x", false), pointerTo("y", false)};
  CHECK(bytesMoved(P, KernelRole::Original) == 4000 + 80 + 4000);
  // x .+ x: the same buffer passed twice is read once.
  irs::test::kernelOf(P, KernelRole::Splat).Params = {
      pointerTo("dest", false), pointerTo("y", false), pointerTo("y", false)};
  CHECK(bytesMoved(P, KernelRole::Splat) == 8000);
  const std::vector<ParamImage> WithShadows = {
      pointerTo("dest", false), pointerTo("dest", true), pointerTo("x", false),
      pointerTo("y", false), pointerTo("y", true)};
  irs::test::kernelOf(P, KernelRole::Forward).Params = WithShadows;
  CHECK(bytesMoved(P, KernelRole::Forward) == 4000 + 4000 + 80 + 4000 + 4000);
  irs::test::kernelOf(P, KernelRole::Reverse).Params = WithShadows;
  CHECK(bytesMoved(P, KernelRole::Reverse) == 4000 + 8000 + 80 + 4000 + 8000);
  P.Kernels.pop_back(); // the reverse kernel
  CHECK(bytesMoved(P, KernelRole::Reverse) == 0);
}

TEST_CASE("where the plan records accesses, a buffer moves once per kind",
          "[Bandwidth]") {
  using irs::MemoryAccess;
  RunPlan P;
  P.Launch.Buffers = {
      {"dest", ElementType::F32, 1000, BufferInit::Zero, 0, true, false},
      {"y", ElementType::F32, 1000, BufferInit::Random, 2, false, true}};
  // A gradient-only reverse kernel of dest .= x .+ y: never touches dest or
  // y, reads and clears dest's shadow, accumulates into y's.
  irs::test::kernelOf(P, KernelRole::Reverse).Params = {
      pointerTo("dest", false, MemoryAccess::None),
      pointerTo("dest", true, MemoryAccess::ReadWrite),
      pointerTo("y", false, MemoryAccess::None),
      pointerTo("y", true, MemoryAccess::ReadWrite)};
  CHECK(bytesMoved(P, KernelRole::Reverse) == 8000 + 8000);
  // x .+ x: one buffer read through one pointer and written through the
  // other moves twice; a relocation without a record falls back to the
  // estimate for its buffer.
  irs::test::kernelOf(P, KernelRole::Splat).Params = {
      pointerTo("y", false, MemoryAccess::Read),
      pointerTo("y", false, MemoryAccess::Write),
      pointerTo("dest", false, MemoryAccess::Write), pointerTo("dest", false)};
  CHECK(bytesMoved(P, KernelRole::Splat) == 8000 + 4000);
}

TEST_CASE("the DRAM peak is double data rate over the bus width",
          "[Bandwidth]") {
  // An H100 SXM reports 2619 MHz and 5120 bits: 3.35 TB/s.
  CHECK(peakBytesPerSecond(2619000, 5120) == Approx(3.352e12).epsilon(1e-3));
  CHECK(peakBytesPerSecond(0, 5120) == 0);
  CHECK(peakBytesPerSecond(2619000, -1) == 0);
}

TEST_CASE("the floor is the ratio a kernel's bytes give at the copy's rate",
          "[Bandwidth]") {
  // z = x * y at 2^24 floats: the primal moves 3 streams of 64 MiB in
  // 0.0672 ms; the reverse kernel 9 (x, y, dz, z; dz cleared; dx, dy
  // accumulated): at 4 TB/s no kernel can take less than 2.25 times it.
  const uint64_t Stream = uint64_t(4) << 24;
  CHECK(floorRatio(3 * Stream, 4.0e12, 0.0672) == Approx(0.749).epsilon(1e-3));
  CHECK(floorRatio(9 * Stream, 4.0e12, 0.0672) == Approx(2.247).epsilon(1e-3));
  CHECK(floorRatio(Stream, 0, 0.0672) == 0);
  CHECK(floorRatio(Stream, 4.0e12, 0) == 0);
  CHECK(floorRatio(Stream, -1, 1) == 0);
}

TEST_CASE("a timing's median is the middle sample, the upper one of an even "
          "count",
          "[Bandwidth]") {
  SampleSummary S = summarize({3.0f, 1.0f, 2.0f});
  CHECK(S.MedianMs == 2.0);
  CHECK(S.MinMs == 1.0);
  S = summarize({4.0f, 1.0f, 3.0f, 2.0f});
  CHECK(S.MedianMs == 3.0);
  CHECK(S.MinMs == 1.0);
  S = summarize({});
  CHECK(S.MedianMs == 0.0);
  CHECK(S.MinMs == 0.0);
}

TEST_CASE("a timing fits its budget: fewer launches per warm sample, then "
          "fewer samples, never under three",
          "[Bandwidth]") {
  auto Is = [](SamplePlan S, unsigned Launches, unsigned Samples) {
    return S.LaunchesPerSample == Launches && S.Samples == Samples;
  };
  // A microsecond kernel: 50 samples of 20 launches, warm; 50 of 1, cold.
  CHECK(Is(planSamples(0.005, 50, false, 2000), 20, 50));
  CHECK(Is(planSamples(0.005, 50, true, 2000), 1, 50));
  // 50 x 20 x 2 ms = 2 s fits exactly; 5 ms: 8 launches a warm sample.
  CHECK(Is(planSamples(2, 50, false, 2000), 20, 50));
  CHECK(Is(planSamples(5, 50, false, 2000), 8, 50));
  CHECK(Is(planSamples(5, 50, true, 2000), 1, 50));
  // 100 ms: one launch a sample, 20 samples; 1.3 s (Enzyme's device malloc
  // in a loop): three samples, over the budget rather than fewer.
  CHECK(Is(planSamples(100, 50, false, 2000), 1, 20));
  CHECK(Is(planSamples(1300, 50, true, 2000), 1, 3));
  // Never more samples than asked for, and a zero or NaN time changes
  // nothing.
  CHECK(Is(planSamples(1300, 2, false, 2000), 1, 2));
  CHECK(Is(planSamples(0, 50, false, 2000), 20, 50));
  CHECK(Is(planSamples(std::nan(""), 50, false, 2000), 20, 50));
}

TEST_CASE("a buffer is read where the plan records a read, or nothing",
          "[Bandwidth]") {
  using irs::MemoryAccess;
  RunPlan P;
  P.Launch.Buffers = {
      {"y", ElementType::F32, 10, BufferInit::Zero, 0, true, false},
      {"x", ElementType::F32, 10, BufferInit::Random, 1, false, true},
      {"z", ElementType::F32, 10, BufferInit::Zero, 0, true, false}};
  irs::test::kernelOf(P, KernelRole::Original).Params = {
      pointerTo("y", false, MemoryAccess::Write),
      pointerTo("y", true, MemoryAccess::ReadWrite), // a shadow: not y
      pointerTo("x", false, MemoryAccess::Read), pointerTo("z", false)};
  CHECK_FALSE(readsBuffer(P, KernelRole::Original, 0));
  CHECK(readsBuffer(P, KernelRole::Original, 1));
  CHECK(readsBuffer(P, KernelRole::Original, 2));    // not recorded: maybe
  CHECK_FALSE(readsBuffer(P, KernelRole::Splat, 1)); // no such kernel
}
