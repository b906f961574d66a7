//===- HostData.h - Host copies of device buffers ---------------*- C++ -*-===//
//
// Buffers are raw bytes of one element type; the checks read and write them
// as doubles. Initial values, tangents and cotangents come from a seeded
// generator so that every launch of a plan sees the same data.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_HOSTDATA_H
#define IR_SANITIZE_GPURUN_HOSTDATA_H

#include "PlanTypes.h"

#include <cstdint>
#include <map>
#include <vector>

namespace gpurun {

struct HostBuffer {
  ElementType Type = ElementType::F32;
  std::vector<uint8_t> Bytes;

  HostBuffer() = default;
  /// Zeros. A read plan bounds Count (plan::MaxTotalBufferBytes); a byte
  /// size that would wrap throws std::length_error.
  HostBuffer(ElementType Type, uint64_t Count);
  uint64_t count() const { return Bytes.size() / irs::elementSize(Type); }
  double get(uint64_t I) const;
  void set(uint64_t I, double V);
};

/// Buffers by their index in the plan.
using BufferSet = std::map<unsigned, HostBuffer>;

/// The buffer's initial contents as its `init` and `seed` say.
HostBuffer initialContents(const LaunchBuffer &B);

/// Directions are multiples of 2^-DirectionGridBits, exact in f32 and f64.
constexpr unsigned DirectionGridBits = 8;

/// Uniform values in [-1, 0) and (0, 1] on the direction grid, from \p Seed,
/// for tangents and cotangents.
HostBuffer randomDirection(ElementType Type, uint64_t Count, uint64_t Seed);

/// Random directions (randomDirection) for the plan's wrt buffers
/// (\p ForWrt: tangents) or its outputs (cotangents), seeded by each
/// buffer's seed and \p Salt.
BufferSet directions(const RunPlan &P, bool ForWrt, uint64_t Salt);

/// The initial contents of the buffers of \p V moved by \p Scale times
/// \p V (the points of a finite difference).
BufferSet perturbed(const RunPlan &P, const BufferSet &V, double Scale);

/// The initial contents of the plan's outputs.
BufferSet initialOutputs(const RunPlan &P);

// The functions of two buffers require the same type and count
// (std::invalid_argument otherwise): they never read past either.

/// Throws std::invalid_argument unless A and B have one type and count.
void requireSameShape(const HostBuffer &A, const HostBuffer &B);

/// Calls Visit(A[i] * B[i]), in double precision, for every i in order.
template <typename Fn>
void forEachProduct(const HostBuffer &A, const HostBuffer &B, Fn Visit) {
  requireSameShape(A, B);
  for (uint64_t I = 0; I < A.count(); ++I)
    Visit(A.get(I) * B.get(I));
}

/// X + Scale * V, element by element, rounded to X's type.
HostBuffer axpy(const HostBuffer &X, double Scale, const HostBuffer &V);

/// Number of elements whose bytes differ.
uint64_t countDifferences(const HostBuffer &A, const HostBuffer &B);

} // namespace gpurun

#endif
