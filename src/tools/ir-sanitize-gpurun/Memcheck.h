//===- Memcheck.h - The checks under NVIDIA's compute-sanitizer -*- C++ -*-===//
//
// `ir-sanitize-gpurun --memcheck` runs every check once more, in a child of
// itself under `compute-sanitizer --tool memcheck`, with each buffer its own
// allocation of exactly its size (no guard zones, which would hide an access
// just past a buffer from memcheck). The child prints where its buffers lie
// (one "memcheck-buffer" line each); memcheck prints each invalid access
// with the kernel and the allocation nearest its address. This file reads
// both, so that every error is reported against the kernel and the buffer
// it hit. No CUDA here: the parsing is unit-tested without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_MEMCHECK_H
#define IR_SANITIZE_GPURUN_MEMCHECK_H

#include "RunResults.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gpurun {

/// Where compute-sanitizer is: $IRS_COMPUTE_SANITIZER, else on PATH, else
/// /usr/local/cuda/bin; nothing when none is executable.
std::optional<std::string> findComputeSanitizer();

/// A buffer of the child, as its "memcheck-buffer" line gives it.
struct DeviceBuffer {
  std::string Name; ///< "y", or "y (shadow)".
  uint64_t Address = 0, Bytes = 0;
};

/// "memcheck-buffer y 0x7f0000000000 4096": the line the child prints.
std::string bufferLine(const DeviceBuffer &B);

/// One invalid access memcheck reported.
struct MemcheckError {
  std::string What;   ///< "Invalid __global__ write of size 4 bytes".
  std::string Kernel; ///< The function it names ("at K+0x1a0").
  /// "y: 1 bytes after its end", from the nearest allocation; empty when
  /// memcheck names no allocation or none of the child's buffers.
  std::string Buffer;
};

/// The errors in memcheck's output \p Text (its "=========" lines), and the
/// buffers the child printed in it.
std::vector<MemcheckError> parseMemcheck(const std::string &Text);
std::vector<DeviceBuffer> parseBuffers(const std::string &Text);

/// The "memcheck" check: passed with no error; failed with the first errors
/// named; skipped with \p WhyNotRun (no compute-sanitizer, or the child did
/// not run under it).
CheckResult memcheckCheck(const std::vector<MemcheckError> &Errors,
                          const std::string &WhyNotRun);

} // namespace gpurun

#endif
