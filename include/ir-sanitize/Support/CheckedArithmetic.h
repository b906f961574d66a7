//===- CheckedArithmetic.h - Unsigned arithmetic that reports overflow ----===//
//
// Sizes and offsets read from files are attacker-controlled: every sum or
// product of them goes through these helpers, which never wrap. LLVM-free so
// that ir-sanitize-gpurun uses the same ones.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_CHECKEDARITHMETIC_H
#define IR_SANITIZE_SUPPORT_CHECKEDARITHMETIC_H

#include <cstdint>

namespace irs {

/// A + B in \p Out; false (and \p Out unspecified) when it would wrap.
inline bool checkedAdd(uint64_t A, uint64_t B, uint64_t &Out) {
  return !__builtin_add_overflow(A, B, &Out);
}

/// A * B in \p Out; false (and \p Out unspecified) when it would wrap.
inline bool checkedMul(uint64_t A, uint64_t B, uint64_t &Out) {
  return !__builtin_mul_overflow(A, B, &Out);
}

/// Whether [Offset, Offset + Length) lies inside [0, Size), without wrapping.
inline bool rangeFits(uint64_t Offset, uint64_t Length, uint64_t Size) {
  uint64_t End;
  return checkedAdd(Offset, Length, End) && End <= Size;
}

} // namespace irs

#endif
