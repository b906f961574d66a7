//===- HostData.h - Host copies of device buffers ---------------*- C++ -*-===//
//
// Buffers are raw bytes of one element type; the checks read and write them
// as doubles. Initial values, tangents and cotangents come from a seeded
// generator so that every launch of a plan sees the same data.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_HOSTDATA_H
#define IR_SANITIZE_GPURUN_HOSTDATA_H

#include "PlanReader.h"

#include <cstdint>
#include <vector>

namespace gpurun {

struct HostBuffer {
  ElementType Type = ElementType::F32;
  std::vector<uint8_t> Bytes;

  HostBuffer() = default;
  /// Count comes from a read plan, so Count * element size cannot wrap and
  /// is at most plan::MaxTotalBufferBytes.
  HostBuffer(ElementType Type, uint64_t Count)
      : Type(Type), Bytes(Count * irs::elementSize(Type), 0) {}
  uint64_t count() const { return Bytes.size() / irs::elementSize(Type); }
  double get(uint64_t I) const;
  void set(uint64_t I, double V);
};

/// The buffer's initial contents as its `init` and `seed` say.
HostBuffer initialContents(const Buffer &B);

/// Uniform values in [-1, 1) from \p Seed, for tangents and cotangents.
HostBuffer randomDirection(ElementType Type, uint64_t Count, uint64_t Seed);

/// X + Scale * V, element by element, rounded to X's type.
HostBuffer axpy(const HostBuffer &X, double Scale, const HostBuffer &V);

/// Number of elements whose bytes differ.
uint64_t countDifferences(const HostBuffer &A, const HostBuffer &B);

/// Sum of A[i] * B[i] in double precision.
double dot(const HostBuffer &A, const HostBuffer &B);

} // namespace gpurun

#endif
