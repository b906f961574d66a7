//===- Bandwidth.cpp - Memory traffic of a kernel and the device's peak ---===//
#include "Bandwidth.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace gpurun {

SampleSummary summarize(std::vector<float> Ms) {
  if (Ms.empty())
    return {};
  std::sort(Ms.begin(), Ms.end());
  return {Ms[Ms.size() / 2], Ms.front()};
}

SamplePlan planSamples(double LaunchMs, unsigned MaxSamples, bool ColdL2,
                       double BudgetMs) {
  SamplePlan S{ColdL2 ? 1u : WarmLaunchesPerSample, MaxSamples};
  if (!(LaunchMs > 0) ||
      LaunchMs * S.LaunchesPerSample * MaxSamples <= BudgetMs)
    return S;
  // How many launches the budget holds, at least one per sample.
  double Launches = std::max(BudgetMs / LaunchMs, 1.0);
  if (Launches >= MaxSamples) {
    S.LaunchesPerSample = static_cast<unsigned>(Launches / MaxSamples);
    return S;
  }
  S.LaunchesPerSample = 1;
  S.Samples = std::max(std::min(MaxSamples, MinSamples),
                       static_cast<unsigned>(Launches));
  return S;
}

namespace {
/// How often the kernel moves a buffer's memory: as the plan records it (a
/// buffer passed twice, by the union of its accesses), else the estimate
/// (once; a reverse kernel's shadows twice: read, then cleared or
/// accumulated into).
unsigned passesOver(const std::vector<const AddressReloc *> &Relocs,
                    irs::KernelRole Role) {
  irs::MemoryAccess Union = irs::MemoryAccess::None;
  for (const AddressReloc *R : Relocs) {
    if (!R->Access)
      return Relocs.front()->Shadow && Role == irs::KernelRole::Reverse ? 2 : 1;
    Union = Union | *R->Access;
  }
  return irs::passes(Union);
}
} // namespace

uint64_t bytesMoved(const RunPlan &P, irs::KernelRole Role) {
  const PlannedKernel *L = P.kernel(Role);
  if (!L)
    return 0;
  std::map<std::pair<size_t, bool>, std::vector<const AddressReloc *>> ByBuffer;
  for (const ParamImage &Par : L->Params)
    for (const AddressReloc &R : Par.Relocs)
      if (size_t I = P.bufferIndex(R.Buffer); I < P.Launch.Buffers.size())
        ByBuffer[{I, R.Shadow}].push_back(&R);
  uint64_t Bytes = 0;
  for (const auto &[Key, Relocs] : ByBuffer) {
    const LaunchBuffer &B = P.Launch.Buffers[Key.first];
    Bytes += passesOver(Relocs, Role) * B.Count * irs::elementSize(B.Type);
  }
  return Bytes;
}

bool readsBuffer(const RunPlan &P, irs::KernelRole Role, size_t Buffer) {
  const PlannedKernel *L = P.kernel(Role);
  if (!L)
    return false;
  for (const ParamImage &Par : L->Params)
    for (const AddressReloc &R : Par.Relocs)
      if (!R.Shadow && P.bufferIndex(R.Buffer) == Buffer &&
          (!R.Access || (static_cast<uint8_t>(*R.Access) &
                         static_cast<uint8_t>(irs::MemoryAccess::Read))))
        return true;
  return false;
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
