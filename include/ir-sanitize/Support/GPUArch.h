//===- GPUArch.h - What an sm_NN name says ----------------------*- C++ -*-===//
//
// The NVIDIA architecture names the tool reads (gpu-check's --gpu-arch, a
// function's target-cpu) and the architecture facts its passes depend on.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_GPUARCH_H
#define IR_SANITIZE_SUPPORT_GPUARCH_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace irs {

/// The first architecture with match.any.sync (warp lanes grouped by value).
inline constexpr unsigned FirstSMWithMatch = 70;

/// NN of sm_NN (sm_90a: 90); nothing for another name.
inline std::optional<unsigned> smNumber(llvm::StringRef Arch) {
  unsigned N = 0;
  if (!Arch.consume_front("sm_") ||
      Arch.take_while([](char C) { return llvm::isDigit(C); })
          .getAsInteger(10, N))
    return std::nullopt;
  return N;
}

} // namespace irs

#endif
