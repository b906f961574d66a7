//===- HostData.cpp - Host copies of device buffers -----------------------===//
#include "HostData.h"

#include "ir-sanitize/Support/CheckedArithmetic.h"

#include <cstring>
#include <stdexcept>

namespace gpurun {

HostBuffer::HostBuffer(ElementType Type, uint64_t Count) : Type(Type) {
  uint64_t Size;
  if (!irs::checkedMul(Count, irs::elementSize(Type), Size) ||
      Size > Bytes.max_size())
    throw std::length_error(std::to_string(Count) +
                            " elements: the byte size does not fit");
  Bytes.assign(Size, 0);
}

double HostBuffer::get(uint64_t I) const {
  const uint8_t *P = Bytes.data() + I * irs::elementSize(Type);
  switch (Type) {
  case ElementType::F32: {
    float V;
    std::memcpy(&V, P, 4);
    return V;
  }
  case ElementType::F64: {
    double V;
    std::memcpy(&V, P, 8);
    return V;
  }
  case ElementType::I32: {
    int32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  case ElementType::I64: {
    int64_t V;
    std::memcpy(&V, P, 8);
    return static_cast<double>(V);
  }
  case ElementType::U8:
    return *P;
  }
  return 0;
}

void HostBuffer::set(uint64_t I, double V) {
  uint8_t *P = Bytes.data() + I * irs::elementSize(Type);
  switch (Type) {
  case ElementType::F32: {
    float F = static_cast<float>(V);
    std::memcpy(P, &F, 4);
    return;
  }
  case ElementType::F64:
    std::memcpy(P, &V, 8);
    return;
  case ElementType::I32: {
    int32_t N = static_cast<int32_t>(V);
    std::memcpy(P, &N, 4);
    return;
  }
  case ElementType::I64: {
    int64_t N = static_cast<int64_t>(V);
    std::memcpy(P, &N, 8);
    return;
  }
  case ElementType::U8:
    *P = static_cast<uint8_t>(V);
    return;
  }
}

namespace {
/// SplitMix64: small, seedable, and the same on every machine.
uint64_t nextRandom(uint64_t &State) {
  uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
  Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
  return Z ^ (Z >> 31);
}

double unitRandom(uint64_t &State) {
  return static_cast<double>(nextRandom(State) >> 11) * 0x1.0p-53;
}
} // namespace

HostBuffer initialContents(const LaunchBuffer &B) {
  HostBuffer H(B.Type, B.Count);
  uint64_t State = B.Seed;
  uint64_t Segment = 0, SegmentLeft = 0;
  for (uint64_t I = 0; I < B.Count; ++I) {
    switch (B.Init) {
    case BufferInit::Zero:
      break;
    case BufferInit::Ones:
      H.set(I, 1);
      break;
    case BufferInit::Range:
      H.set(I, static_cast<double>(I));
      break;
    case BufferInit::Range1:
      H.set(I, static_cast<double>(I) + 1);
      break;
    case BufferInit::Segments:
      // Sorted indices, each repeated 4 to 64 times (an embedding's tokens
      // sorted, a CSR matrix's row of each entry): 0 first, each value at
      // most its position, so in [0, count).
      if (!SegmentLeft) {
        Segment += I != 0;
        SegmentLeft = 4 + nextRandom(State) % 61;
      }
      --SegmentLeft;
      H.set(I, static_cast<double>(Segment));
      break;
    case BufferInit::Random:
      // Floats in [0.5, 1.5) stay away from zero (log, division); integers
      // in [0, 100).
      H.set(I, irs::isFloatElement(B.Type)
                   ? 0.5 + unitRandom(State)
                   : static_cast<double>(nextRandom(State) % 100));
      break;
    }
  }
  return H;
}

HostBuffer randomDirection(ElementType Type, uint64_t Count, uint64_t Seed) {
  // Multiples of 2^-DirectionGridBits: a sum of them in any order is exact
  // while its partial sums stay below 2^(24 - DirectionGridBits) in Float32,
  // so a reverse kernel that adds 2^24 cotangents into one element (a
  // gather of one index, the bias of W .+ b) is compared with <J v, w> without
  // the rounding of its atomics' order, which was 1e-5 relative there.
  constexpr unsigned Steps = 1u << DirectionGridBits;
  HostBuffer H(Type, Count);
  uint64_t State = Seed ^ 0x5DEECE66DULL;
  for (uint64_t I = 0; I < Count; ++I) {
    uint64_t R = nextRandom(State);
    double Magnitude = static_cast<double>(1 + (R >> 1) % Steps) / Steps;
    H.set(I, (R & 1) ? -Magnitude : Magnitude);
  }
  return H;
}

void requireSameShape(const HostBuffer &A, const HostBuffer &B) {
  if (A.Type != B.Type || A.Bytes.size() != B.Bytes.size())
    throw std::invalid_argument("buffers of different types or sizes");
}

BufferSet directions(const RunPlan &P, bool ForWrt, uint64_t Salt) {
  BufferSet Dirs;
  for (unsigned I = 0; I < P.Launch.Buffers.size(); ++I) {
    const LaunchBuffer &B = P.Launch.Buffers[I];
    if (ForWrt ? B.Wrt : B.Output)
      Dirs.emplace(I, randomDirection(B.Type, B.Count, B.Seed * 31 + Salt));
  }
  return Dirs;
}

BufferSet perturbed(const RunPlan &P, const BufferSet &V, double Scale) {
  BufferSet Points;
  for (const auto &[I, Dir] : V)
    Points.emplace(I,
                   axpy(initialContents(P.Launch.Buffers.at(I)), Scale, Dir));
  return Points;
}

BufferSet initialOutputs(const RunPlan &P) {
  BufferSet Out;
  for (unsigned I = 0; I < P.Launch.Buffers.size(); ++I)
    if (P.Launch.Buffers[I].Output)
      Out.emplace(I, initialContents(P.Launch.Buffers[I]));
  return Out;
}

HostBuffer axpy(const HostBuffer &X, double Scale, const HostBuffer &V) {
  requireSameShape(X, V);
  HostBuffer R(X.Type, X.count());
  for (uint64_t I = 0; I < X.count(); ++I)
    R.set(I, X.get(I) + Scale * V.get(I));
  return R;
}

uint64_t countDifferences(const HostBuffer &A, const HostBuffer &B) {
  requireSameShape(A, B);
  size_t Size = irs::elementSize(A.Type);
  uint64_t N = 0;
  for (uint64_t I = 0; I < A.count(); ++I)
    N += std::memcmp(&A.Bytes[I * Size], &B.Bytes[I * Size], Size) != 0;
  return N;
}

} // namespace gpurun
