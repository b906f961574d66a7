//===- Bandwidth.h - A kernel's traffic and the peak ------------*- C++ -*-===//
//
// How close a kernel runs to the memory-bandwidth limit: the bytes it must
// move at least, from the plan's buffers, over its median time, against the
// DRAM peak the driver's memory clock and bus width imply.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_BANDWIDTH_H
#define IR_SANITIZE_GPURUN_BANDWIDTH_H

#include "PlanTypes.h"

#include <cstdint>
#include <vector>

namespace gpurun {

/// A timing's median and fastest sample, in milliseconds.
struct SampleSummary {
  double MedianMs = 0, MinMs = 0;
};
/// The summary of \p Ms (the upper median of an even count); zeros when
/// there are no samples.
SampleSummary summarize(std::vector<float> Ms);

/// How a kernel is timed in one L2 state.
struct SamplePlan {
  unsigned LaunchesPerSample = 1;
  unsigned Samples = 0;
};
/// Launches back to back in a warm sample, where time allows: their mean
/// hides the launch overhead of a microsecond kernel.
constexpr unsigned WarmLaunchesPerSample = 20;
/// The time one kernel's timing in one L2 state may take, by default.
constexpr unsigned DefaultTimingBudgetMs = 2000;
/// The fewest samples a time budget cuts a timing down to.
constexpr unsigned MinSamples = 3;
/// Up to \p MaxSamples samples of WarmLaunchesPerSample launches (warm) or
/// of one launch after an L2 flush (cold), for a kernel whose warm-up launch
/// took \p LaunchMs. Where those would take over \p BudgetMs, a warm sample
/// has fewer launches, then there are fewer samples (MinSamples at least, or
/// MaxSamples if fewer): a reverse kernel whose Enzyme cache is device
/// malloc takes seconds a launch, and 50 x 20 of them took the runner hours.
SamplePlan planSamples(double LaunchMs, unsigned MaxSamples, bool ColdL2,
                       double BudgetMs);

/// The bytes the kernel of \p Role must move at least: each buffer one of
/// its parameters points to, as often as the plan says the kernel accesses
/// it (once to read, once to write; a buffer passed twice by the union of its
/// accesses). Where the plan does not say: once, and a reverse kernel's
/// shadows twice (read and cleared, or accumulated into).
uint64_t bytesMoved(const RunPlan &P, irs::KernelRole Role);

/// Whether the kernel of \p Role may read the buffer at \p Buffer (its
/// primal copy): a parameter points to it with a read recorded, or with no
/// access recorded (the plan does not say).
bool readsBuffer(const RunPlan &P, irs::KernelRole Role, size_t Buffer);

/// DRAM peak in bytes per second: double data rate at \p MemoryClockKHz
/// over a \p BusWidthBits wide bus (CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
/// CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH). Zero when either is unknown.
double peakBytesPerSecond(int64_t MemoryClockKHz, int64_t BusWidthBits);

/// The least time \p Bytes take at \p BytesPerSecond (what a streaming copy
/// attains), over \p BaselineMs: the lowest ratio to the original any kernel
/// that must move them can reach. Zero when a rate or the baseline is not
/// positive.
double floorRatio(uint64_t Bytes, double BytesPerSecond, double BaselineMs);

} // namespace gpurun

#endif
