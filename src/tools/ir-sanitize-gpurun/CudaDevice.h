//===- CudaDevice.h - The CUDA driver API for the runner --------*- C++ -*-===//
//
// A thin RAII layer over the driver API (libcuda.so.1, loaded at run time;
// no runtime library):
// one primary context, PTX modules loaded with the JIT log kept for errors,
// buffers, and launches timed with events. Every driver failure becomes a
// CudaError naming the call.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_CUDADEVICE_H
#define IR_SANITIZE_GPURUN_CUDADEVICE_H

#include "HostData.h"
#include "LaunchArguments.h"

#include <cuda.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpurun {

class CudaError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class CudaDevice {
public:
  /// Whether a device can be used; when not, \p Why says what is missing.
  static bool probe(std::string &Why);

  explicit CudaDevice(int Ordinal);
  ~CudaDevice();
  CudaDevice(const CudaDevice &) = delete;
  CudaDevice &operator=(const CudaDevice &) = delete;

  std::string name() const;
  /// DRAM peak in bytes per second from the memory clock and bus width the
  /// driver reports; zero when it reports neither.
  double peakMemoryBandwidth() const;
  /// Loads PTX text and returns its kernel \p Entry.
  /// Makes half the free memory the heap device-side malloc draws from
  /// (8 MiB by default); before the first launch of a kernel that calls it.
  /// Returns its size in bytes.
  uint64_t reserveMallocHeap();
  CUfunction loadKernel(const std::string &Ptx, const std::string &Entry,
                        const std::string &What);
  /// Registers per thread \p F was compiled to (0 if the driver won't say).
  unsigned registersOf(CUfunction F) const;
  CUdeviceptr allocate(size_t Bytes);
  void upload(CUdeviceptr Dst, const HostBuffer &Src);
  void download(HostBuffer &Dst, CUdeviceptr Src);
  /// Bytes of L2 cache the driver reports; zero when it does not say.
  uint64_t l2CacheBytes() const;
  /// Enqueues a kernel that reads twice the L2's size of scratch memory, so
  /// that a launch after it finds none of its own data in L2 (timing with a
  /// cold cache). Returns without waiting.
  void flushL2();
  /// Bytes per second (read plus written) a streaming copy between two
  /// buffers of four times the L2 (256 MiB at least) attains, median of
  /// \p Repeats launches: what a memory-bound kernel can reach, where the
  /// data-sheet peak is reached by none.
  double copyBandwidth(unsigned Repeats);
  /// How many blocks of \p BlockThreads threads running \p F the whole
  /// device holds at once (multiprocessors times the driver's occupancy).
  unsigned residentBlocks(CUfunction F, unsigned BlockThreads);
  /// Launches \p Count times back to back and waits; returns the mean
  /// time of one launch in milliseconds (events around the whole batch, so
  /// that short kernels are not dominated by event overhead).
  float launch(CUfunction F, const LaunchGeometry &G,
               std::vector<void *> &Params, unsigned Count = 1);

private:
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUevent Start = nullptr, Stop = nullptr;
  std::map<std::string, CUmodule> Modules; ///< By PTX text.
  std::vector<CUdeviceptr> Allocations;
  CUfunction FlushKernel = nullptr;
  CUdeviceptr FlushBuffer = 0;
  uint64_t FlushChunks = 0; ///< 16-byte chunks of FlushBuffer.
};

} // namespace gpurun

#endif
