//===- CudaDevice.cpp - The CUDA driver API, as the runner uses it --------===//
#include "CudaDevice.h"
#include "Bandwidth.h"

namespace gpurun {

namespace {
std::string describe(CUresult R) {
  const char *Name = nullptr, *Text = nullptr;
  cuGetErrorName(R, &Name);
  cuGetErrorString(R, &Text);
  return std::string(Name ? Name : "CUDA_ERROR_?") + " (" +
         (Text ? Text : "unknown") + ")";
}

void check(CUresult R, const char *Call) {
  if (R != CUDA_SUCCESS)
    throw CudaError(std::string(Call) + " failed: " + describe(R));
}
} // namespace

bool CudaDevice::probe(std::string &Why) {
  CUresult R = cuInit(0);
  int Count = 0;
  if (R == CUDA_SUCCESS)
    R = cuDeviceGetCount(&Count);
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
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&Dev, Ordinal), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
  check(cuEventCreate(&Start, CU_EVENT_DEFAULT), "cuEventCreate");
  check(cuEventCreate(&Stop, CU_EVENT_DEFAULT), "cuEventCreate");
}

CudaDevice::~CudaDevice() {
  for (CUdeviceptr P : Allocations)
    cuMemFree(P);
  for (CUmodule M : Modules)
    cuModuleUnload(M);
  if (Start)
    cuEventDestroy(Start);
  if (Stop)
    cuEventDestroy(Stop);
  if (Ctx)
    cuDevicePrimaryCtxRelease(Dev);
}

std::string CudaDevice::name() const {
  char Name[256] = {0};
  cuDeviceGetName(Name, sizeof(Name) - 1, Dev);
  int Major = 0, Minor = 0, Driver = 0;
  cuDeviceGetAttribute(&Major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       Dev);
  cuDeviceGetAttribute(&Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       Dev);
  cuDriverGetVersion(&Driver);
  return std::string(Name) + " (sm_" + std::to_string(Major) +
         std::to_string(Minor) + ", CUDA driver " +
         std::to_string(Driver / 1000) + "." +
         std::to_string(Driver % 1000 / 10) + ")";
}

double CudaDevice::peakMemoryBandwidth() const {
  int ClockKHz = 0, BusBits = 0;
  if (cuDeviceGetAttribute(&ClockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                           Dev) != CUDA_SUCCESS ||
      cuDeviceGetAttribute(&BusBits,
                           CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                           Dev) != CUDA_SUCCESS)
    return 0;
  return peakBytesPerSecond(ClockKHz, BusBits);
}

CUfunction CudaDevice::loadKernel(const std::string &Ptx,
                                  const std::string &Entry,
                                  const std::string &What) {
  // Keep the JIT's error log: it names the PTX line ptxas rejected.
  char Log[4096] = {0};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Vals[] = {Log, reinterpret_cast<void *>(sizeof(Log) - 1)};
  CUmodule M;
  CUresult R = cuModuleLoadDataEx(&M, Ptx.c_str(), 2, Opts, Vals);
  if (R != CUDA_SUCCESS)
    throw CudaError(What + ": cuModuleLoadDataEx failed: " + describe(R) +
                    (Log[0] ? std::string(": ") + Log : ""));
  Modules.push_back(M);
  CUfunction F;
  R = cuModuleGetFunction(&F, M, Entry.c_str());
  if (R != CUDA_SUCCESS)
    throw CudaError(What + ": no kernel '" + Entry + "': " + describe(R));
  return F;
}

CUdeviceptr CudaDevice::allocate(size_t Bytes) {
  CUdeviceptr P;
  check(cuMemAlloc(&P, Bytes), "cuMemAlloc");
  Allocations.push_back(P);
  return P;
}

void CudaDevice::upload(CUdeviceptr Dst, const HostBuffer &Src) {
  check(cuMemcpyHtoD(Dst, Src.Bytes.data(), Src.Bytes.size()), "cuMemcpyHtoD");
}

void CudaDevice::download(HostBuffer &Dst, CUdeviceptr Src) {
  check(cuMemcpyDtoH(Dst.Bytes.data(), Src, Dst.Bytes.size()), "cuMemcpyDtoH");
}

float CudaDevice::launch(CUfunction F, const LaunchGeometry &G,
                         std::vector<void *> &Params, unsigned Count) {
  check(cuEventRecord(Start, nullptr), "cuEventRecord");
  for (unsigned I = 0; I < Count; ++I)
    check(cuLaunchKernel(F, G.Grid[0], G.Grid[1], G.Grid[2], G.Block[0],
                         G.Block[1], G.Block[2], 0, nullptr, Params.data(),
                         nullptr),
          "cuLaunchKernel");
  check(cuEventRecord(Stop, nullptr), "cuEventRecord");
  check(cuEventSynchronize(Stop), "kernel execution (cuEventSynchronize)");
  float Ms = 0;
  check(cuEventElapsedTime(&Ms, Start, Stop), "cuEventElapsedTime");
  return Ms / Count;
}

} // namespace gpurun
