//===- Bandwidth.cpp - Memory traffic of a kernel and the device's peak ---===//
#include "Bandwidth.h"

#include <set>
#include <utility>

namespace gpurun {

uint64_t bytesMoved(const Plan &P, irs::KernelRole Role) {
  const KernelLaunch *L = P.launch(Role);
  if (!L)
    return 0;
  std::set<std::pair<unsigned, bool>> Seen; // (buffer, shadow)
  uint64_t Bytes = 0;
  for (const Param &Par : L->Params)
    for (const Reloc &R : Par.Relocs) {
      if (R.BufferIndex >= P.Buffers.size() ||
          !Seen.insert({R.BufferIndex, R.Shadow}).second)
        continue;
      const Buffer &B = P.Buffers[R.BufferIndex];
      unsigned Passes = R.Shadow && Role == irs::KernelRole::Reverse ? 2 : 1;
      Bytes += Passes * B.Count * irs::elementSize(B.Type);
    }
  return Bytes;
}

double peakBytesPerSecond(int64_t MemoryClockKHz, int64_t BusWidthBits) {
  if (MemoryClockKHz <= 0 || BusWidthBits <= 0)
    return 0;
  return 2.0 * static_cast<double>(MemoryClockKHz) * 1e3 *
         static_cast<double>(BusWidthBits) / 8.0;
}

double floorRatio(uint64_t Bytes, double BytesPerSecond, double BaselineMs) {
  if (BytesPerSecond <= 0 || BaselineMs <= 0)
    return 0;
  return static_cast<double>(Bytes) / BytesPerSecond * 1e3 / BaselineMs;
}

} // namespace gpurun
