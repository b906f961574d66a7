//===- CudaDevice.cpp - The CUDA driver API, as the runner uses it --------===//
//
// libcuda.so.1 is loaded with dlopen on first use rather than linked, so the
// runner starts (and validates plans) on machines without an NVIDIA driver.
//
//===----------------------------------------------------------------------===//
#include "CudaDevice.h"
#include "Bandwidth.h"

#include <dlfcn.h>

#include <algorithm>

namespace gpurun {

namespace {

// Every driver entry point the runner calls. cuda.h maps some names to
// versioned symbols (cuMemAlloc -> cuMemAlloc_v2); the members below go
// through the same macros, and IRS_CUDA_SYMBOL spells the symbol they name.
#define IRS_CUDA_FUNCTIONS(X)                                                  \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleUnload)                                                            \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuFuncGetAttribute)                                                        \
  X(cuMemGetInfo)                                                              \
  X(cuCtxSetLimit)
#define IRS_CUDA_STRINGIFY(Name) #Name
#define IRS_CUDA_SYMBOL(Name) IRS_CUDA_STRINGIFY(Name)

struct DriverAPI {
#define IRS_CUDA_MEMBER(Name) decltype(&::Name) Name = nullptr;
  IRS_CUDA_FUNCTIONS(IRS_CUDA_MEMBER)
#undef IRS_CUDA_MEMBER
  bool Loaded = false;
  std::string LoadError; ///< Why the driver could not be loaded.
};

DriverAPI loadDriverAPI() {
  DriverAPI API;
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *Why = dlerror();
    // dlerror() names the library: "libcuda.so.1: cannot open ...".
    API.LoadError = Why ? Why : "cannot load libcuda.so.1";
    return API;
  }
#define IRS_CUDA_RESOLVE(Name)                                                 \
  API.Name =                                                                   \
      reinterpret_cast<decltype(API.Name)>(dlsym(Lib, IRS_CUDA_SYMBOL(Name))); \
  if (!API.Name) {                                                             \
    API.LoadError = "libcuda.so.1 lacks " IRS_CUDA_SYMBOL(Name);               \
    return API;                                                                \
  }
  IRS_CUDA_FUNCTIONS(IRS_CUDA_RESOLVE)
#undef IRS_CUDA_RESOLVE
  API.Loaded = true;
  return API; // the library stays loaded for the life of the process
}

/// The driver, loaded on first use. Its entry points are only called once
/// probe() or the CudaDevice constructor found them loaded.
const DriverAPI &cu() {
  static const DriverAPI API = loadDriverAPI();
  return API;
}

std::string describe(CUresult R) {
  const char *Name = nullptr, *Text = nullptr;
  cu().cuGetErrorName(R, &Name);
  cu().cuGetErrorString(R, &Text);
  return std::string(Name ? Name : "CUDA_ERROR_?") + " (" +
         (Text ? Text : "unknown") + ")";
}

void check(CUresult R, const char *Call) {
  if (R != CUDA_SUCCESS)
    throw CudaError(std::string(Call) + " failed: " + describe(R));
}

/// The runner's own kernels, one thread per 16 bytes.
/// irs_l2_flush reads through L2 (.cg: not kept in L1). The buffer is zero,
/// so the store never happens; it keeps ptxas from dropping the load.
/// Reading rather than writing (nvbench memsets) leaves clean lines, so the
/// timed kernel pays no write-back of the flush's data.
/// irs_copy copies src to dst, the STREAM copy measure.
const char *const RunnerPtx = R"(.version 6.0
.target sm_50
.address_size 64
.visible .entry irs_copy(.param .u64 src, .param .u64 dst, .param .u64 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  ld.param.u64 %rd3, [n];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  cvt.u64.u32 %rd4, %r3;
  mad.wide.u32 %rd5, %r1, %r2, %rd4;
  setp.ge.u64 %p1, %rd5, %rd3;
  @%p1 bra DONE;
  shl.b64 %rd6, %rd5, 4;
  add.s64 %rd7, %rd1, %rd6;
  add.s64 %rd8, %rd2, %rd6;
  ld.global.v4.u32 {%r4, %r5, %r6, %r7}, [%rd7];
  st.global.v4.u32 [%rd8], {%r4, %r5, %r6, %r7};
DONE:
  ret;
}
.visible .entry irs_l2_flush(.param .u64 buf, .param .u64 n, .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [n];
  ld.param.u64 %rd3, [sink];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  cvt.u64.u32 %rd4, %r3;
  mad.wide.u32 %rd5, %r1, %r2, %rd4;
  setp.ge.u64 %p1, %rd5, %rd2;
  @%p1 bra DONE;
  shl.b64 %rd6, %rd5, 4;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.cg.v4.u32 {%r4, %r5, %r6, %r7}, [%rd7];
  setp.eq.u32 %p2, %r4, 1;
  @%p2 st.global.u32 [%rd3], %r5;
DONE:
  ret;
}
)";
} // namespace

bool CudaDevice::probe(std::string &Why) {
  if (!cu().Loaded) {
    Why = "no usable CUDA driver: " + cu().LoadError;
    return false;
  }
  CUresult R = cu().cuInit(0);
  int Count = 0;
  if (R == CUDA_SUCCESS)
    R = cu().cuDeviceGetCount(&Count);
  if (R != CUDA_SUCCESS) {
    Why = "no usable CUDA driver: " + describe(R);
    return false;
  }
  if (Count == 0) {
    Why = "the CUDA driver reports no device";
    return false;
  }
  return true;
}

CudaDevice::CudaDevice(int Ordinal) {
  if (!cu().Loaded)
    throw CudaError("no usable CUDA driver: " + cu().LoadError);
  check(cu().cuInit(0), "cuInit");
  check(cu().cuDeviceGet(&Dev, Ordinal), "cuDeviceGet");
  check(cu().cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  check(cu().cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
  check(cu().cuEventCreate(&Start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cu().cuEventCreate(&Stop, CU_EVENT_DEFAULT), "cuEventCreate");
}

CudaDevice::~CudaDevice() {
  for (CUdeviceptr P : Allocations)
    cu().cuMemFree(P);
  for (const auto &[Ptx, M] : Modules)
    cu().cuModuleUnload(M);
  if (Start)
    cu().cuEventDestroy(Start);
  if (Stop)
    cu().cuEventDestroy(Stop);
  if (Ctx)
    cu().cuDevicePrimaryCtxRelease(Dev);
}

std::string CudaDevice::name() const {
  char Name[256] = {0};
  cu().cuDeviceGetName(Name, sizeof(Name) - 1, Dev);
  int Major = 0, Minor = 0, Driver = 0;
  cu().cuDeviceGetAttribute(&Major,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev);
  cu().cuDeviceGetAttribute(&Minor,
                            CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev);
  cu().cuDriverGetVersion(&Driver);
  return std::string(Name) + " (sm_" + std::to_string(Major) +
         std::to_string(Minor) + ", CUDA driver " +
         std::to_string(Driver / 1000) + "." +
         std::to_string(Driver % 1000 / 10) + ")";
}

double CudaDevice::peakMemoryBandwidth() const {
  int ClockKHz = 0, BusBits = 0;
  if (cu().cuDeviceGetAttribute(&ClockKHz,
                                CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                                Dev) != CUDA_SUCCESS ||
      cu().cuDeviceGetAttribute(&BusBits,
                                CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                                Dev) != CUDA_SUCCESS)
    return 0;
  return peakBytesPerSecond(ClockKHz, BusBits);
}

uint64_t CudaDevice::l2CacheBytes() const {
  int Bytes = 0;
  if (cu().cuDeviceGetAttribute(&Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE,
                                Dev) != CUDA_SUCCESS)
    return 0;
  return static_cast<uint64_t>(std::max(Bytes, 0));
}

void CudaDevice::flushL2() {
  if (!FlushKernel) {
    // Twice the cache: its replacement is not strictly LRU. A driver that
    // does not say gets 512 MiB, more than any L2 so far.
    uint64_t L2 = l2CacheBytes();
    FlushChunks = (L2 ? 2 * L2 : uint64_t(512) << 20) / 16;
    FlushBuffer = allocate(FlushChunks * 16);
    check(cu().cuMemsetD8(FlushBuffer, 0, FlushChunks * 16), "cuMemsetD8");
    FlushKernel = loadKernel(RunnerPtx, "irs_l2_flush", "the L2 flush kernel");
  }
  CUdeviceptr Sink = FlushBuffer;
  std::vector<void *> Params = {&FlushBuffer, &FlushChunks, &Sink};
  constexpr unsigned Block = 256;
  auto Grid = static_cast<unsigned>((FlushChunks + Block - 1) / Block);
  check(cu().cuLaunchKernel(FlushKernel, Grid, 1, 1, Block, 1, 1, 0, nullptr,
                            Params.data(), nullptr),
        "cuLaunchKernel (L2 flush)");
}

double CudaDevice::copyBandwidth(unsigned Repeats) {
  constexpr unsigned Block = 256;
  uint64_t Bytes = std::max(4 * l2CacheBytes(), uint64_t(256) << 20) /
                   (16 * Block) * (16 * Block);
  CUdeviceptr Src = allocate(Bytes), Dst = allocate(Bytes);
  check(cu().cuMemsetD8(Src, 0, Bytes), "cuMemsetD8");
  CUfunction Copy = loadKernel(RunnerPtx, "irs_copy", "the copy kernel");
  uint64_t Chunks = Bytes / 16;
  std::vector<void *> Params = {&Src, &Dst, &Chunks};
  LaunchGeometry G = {{static_cast<unsigned>(Chunks / Block), 1, 1},
                      {Block, 1, 1}};
  launch(Copy, G, Params); // warm-up: JIT, clocks
  std::vector<float> Ms;
  for (unsigned I = 0; I < std::max(Repeats, 1u); ++I)
    Ms.push_back(launch(Copy, G, Params));
  double Median = summarize(std::move(Ms)).MedianMs;
  return Median > 0 ? 2.0 * Bytes / (Median * 1e-3) : 0.0;
}

CUfunction CudaDevice::loadKernel(const std::string &Ptx,
                                  const std::string &Entry,
                                  const std::string &What) {
  // One JIT per PTX text: a file's several entries share its module.
  auto [It, New] = Modules.try_emplace(Ptx, nullptr);
  if (New) {
    // Keep the JIT's error log: it names the PTX line ptxas rejected.
    char Log[4096] = {0};
    CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                           CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *Vals[] = {Log, reinterpret_cast<void *>(sizeof(Log) - 1)};
    CUresult R =
        cu().cuModuleLoadDataEx(&It->second, Ptx.c_str(), 2, Opts, Vals);
    if (R != CUDA_SUCCESS) {
      Modules.erase(It);
      throw CudaError(What + ": cuModuleLoadDataEx failed: " + describe(R) +
                      (Log[0] ? std::string(": ") + Log : ""));
    }
  }
  CUfunction F;
  CUresult R = cu().cuModuleGetFunction(&F, It->second, Entry.c_str());
  if (R != CUDA_SUCCESS)
    throw CudaError(What + ": no kernel '" + Entry + "': " + describe(R));
  return F;
}

uint64_t CudaDevice::reserveMallocHeap() {
  size_t Free = 0, Total = 0;
  check(cu().cuMemGetInfo(&Free, &Total), "cuMemGetInfo");
  size_t Bytes = Free / 2;
  check(cu().cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, Bytes),
        "cuCtxSetLimit (malloc heap)");
  return Bytes;
}

CUdeviceptr CudaDevice::allocate(size_t Bytes) {
  CUdeviceptr P;
  check(cu().cuMemAlloc(&P, Bytes), "cuMemAlloc");
  Allocations.push_back(P);
  return P;
}

void CudaDevice::upload(CUdeviceptr Dst, const HostBuffer &Src) {
  check(cu().cuMemcpyHtoD(Dst, Src.Bytes.data(), Src.Bytes.size()),
        "cuMemcpyHtoD");
}

void CudaDevice::download(HostBuffer &Dst, CUdeviceptr Src) {
  check(cu().cuMemcpyDtoH(Dst.Bytes.data(), Src, Dst.Bytes.size()),
        "cuMemcpyDtoH");
}

unsigned CudaDevice::registersOf(CUfunction F) const {
  int N = 0;
  cu().cuFuncGetAttribute(&N, CU_FUNC_ATTRIBUTE_NUM_REGS, F);
  return static_cast<unsigned>(std::max(N, 0));
}

unsigned CudaDevice::residentBlocks(CUfunction F, unsigned BlockThreads) {
  int SMs = 0, PerSM = 0;
  check(cu().cuDeviceGetAttribute(
            &SMs, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev),
        "cuDeviceGetAttribute (multiprocessors)");
  check(cu().cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &PerSM, F, static_cast<int>(BlockThreads), 0),
        "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  return static_cast<unsigned>(std::max(1, SMs) * std::max(1, PerSM));
}

float CudaDevice::launch(CUfunction F, const LaunchGeometry &G,
                         std::vector<void *> &Params, unsigned Count) {
  check(cu().cuEventRecord(Start, nullptr), "cuEventRecord");
  for (unsigned I = 0; I < Count; ++I)
    check(cu().cuLaunchKernel(F, G.Grid[0], G.Grid[1], G.Grid[2], G.Block[0],
                              G.Block[1], G.Block[2], 0, nullptr, Params.data(),
                              nullptr),
          "cuLaunchKernel");
  check(cu().cuEventRecord(Stop, nullptr), "cuEventRecord");
  check(cu().cuEventSynchronize(Stop), "kernel execution (cuEventSynchronize)");
  float Ms = 0;
  check(cu().cuEventElapsedTime(&Ms, Start, Stop), "cuEventElapsedTime");
  return Ms / Count;
}

} // namespace gpurun
