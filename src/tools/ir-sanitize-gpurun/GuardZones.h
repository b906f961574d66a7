//===- GuardZones.h - Memory around every buffer, watched -------*- C++ -*-===//
//
// The runner places every device buffer (and its shadow) between two guard
// zones of GuardBytes, filled with GuardByte. After every launch of a check
// the zones are read back: a kernel that wrote outside its buffers fails
// the check, which names the kernel, the buffer, the side and the nearest
// offset. Reads outside are caught too: 0xFF reads as NaN (or -1), and the
// primal check launches the original kernel a second time with the zones
// holding OtherGuardByte; an output that changes was computed from memory
// outside the buffers. The zones also keep a read just past a buffer inside
// memory the runner owns, where compute-sanitizer's memcheck would not see
// it (it lands in the allocation's rounding).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_GUARDZONES_H
#define IR_SANITIZE_GPURUN_GUARDZONES_H

#include "PlanTypes.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpurun {

/// Bytes before and after every buffer (a multiple of CUDA's 256-byte
/// allocation alignment, so that a buffer keeps it).
constexpr uint64_t GuardBytes = 64 << 10;
/// What the zones hold during checks, and during the second primal launch.
constexpr uint8_t GuardByte = 0xFF, OtherGuardByte = 0x7F;

/// Bytes of a zone that a launch changed.
struct GuardBreach {
  bool Before = false; ///< The zone before the buffer, else after it.
  uint64_t Bytes = 0;  ///< How many bytes changed.
  /// The changed byte nearest the buffer, as its distance from the buffer's
  /// edge (0: the byte right before its start, or right at its end).
  uint64_t Nearest = 0;
};

/// The bytes of \p Zone (the zone before a buffer if \p Before, else the
/// one after it) that are not \p Fill, or nothing.
std::optional<GuardBreach> findBreach(const std::vector<uint8_t> &Zone,
                                      uint8_t Fill, bool Before);

/// "the forward kernel wrote 4 bytes after the shadow of y (the nearest 0
/// bytes past its end)".
std::string describeBreach(const GuardBreach &B, KernelRole Role,
                           const std::string &Buffer, bool Shadow);

} // namespace gpurun

#endif
