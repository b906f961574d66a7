// ir-sanitize-gpurun --memcheck (src/tools/ir-sanitize-gpurun/Memcheck.cpp):
// what the child's buffer lines and compute-sanitizer's report say (its
// text as CUDA 13.0's prints it), read back as errors named by kernel and
// buffer.
#include "Memcheck.h"

#include "CatchCompat.h"

#include <cstdlib>
#include <string>

using namespace gpurun;

namespace {
/// What the child and memcheck print for a store one element past `out`.
std::string sampleOutput() {
  return bufferLine({"out", 0x7f0000200000, 4194300}) + "\n" +
         bufferLine({"out (shadow)", 0x7f0000600000, 4194300}) + "\n" +
         "========= COMPUTE-SANITIZER\n"
         "========= Invalid __global__ write of size 4 bytes\n"
         "=========     at scale_(Ptr<Float32>, Ptr, Int64)+0x100\n"
         "=========     by thread (255,0,0) in block (4095,0,0)\n"
         "=========     Access to 0x7f00005ffffc is out of bounds\n"
         "=========     and is 0 bytes after the nearest allocation at "
         "0x7f0000200000 of size 4,194,300 bytes\n"
         "=========     Saved host backtrace up to driver entry point\n"
         "========= Invalid __global__ read of size 8 bytes\n"
         "=========     at k_reverse+0x40\n"
         "=========     Address 0x10 is out of bounds\n"
         "=========\n"
         "========= ERROR SUMMARY: 2 errors\n";
}
} // namespace

TEST_CASE("the child's buffer lines read back", "[Memcheck]") {
  std::vector<DeviceBuffer> B = parseBuffers(sampleOutput());
  REQUIRE(B.size() == 2);
  CHECK(B[0].Name == "out");
  CHECK(B[0].Address == 0x7f0000200000);
  CHECK(B[0].Bytes == 4194300);
  CHECK(B[1].Name == "out (shadow)");
  CHECK(bufferLine(B[0]) == "memcheck-buffer 0x7f0000200000 4194300 out");
}

TEST_CASE("memcheck's errors are named by kernel and buffer", "[Memcheck]") {
  std::vector<MemcheckError> E = parseMemcheck(sampleOutput());
  REQUIRE(E.size() == 2);
  CHECK(E[0].What == "Invalid __global__ write of size 4 bytes");
  CHECK(E[0].Kernel == "scale_(Ptr<Float32>, Ptr, Int64)");
  CHECK(E[0].Buffer == "out: 0 bytes after its end");
  CHECK(E[1].Kernel == "k_reverse");
  CHECK(E[1].Buffer.empty()); // no allocation near it
  CheckResult C = memcheckCheck(E, "");
  CHECK(C.Ran);
  CHECK_FALSE(C.Passed);
  CHECK(C.Value == 2);
  CHECK(C.Detail ==
        "2 errors under compute-sanitizer --tool memcheck: Invalid __global__ "
        "write of size 4 bytes in scale_(Ptr<Float32>, Ptr, Int64) (out: 0 "
        "bytes after its end); Invalid __global__ read of size 8 bytes in "
        "k_reverse");
  // A clean run passes; one that could not run is skipped, with why.
  CHECK(memcheckCheck({}, "").Passed);
  CheckResult Skipped = memcheckCheck({}, "no compute-sanitizer");
  CHECK_FALSE(Skipped.Ran);
  CHECK(Skipped.Detail == "no compute-sanitizer");
}

TEST_CASE("compute-sanitizer is looked for where the docs say", "[Memcheck]") {
  // An explicit path that is not executable finds nothing (no fallback).
  ::setenv("IRS_COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
  CHECK_FALSE(findComputeSanitizer());
  ::setenv("IRS_COMPUTE_SANITIZER", "/bin/sh", 1);
  CHECK(findComputeSanitizer() == std::optional<std::string>("/bin/sh"));
  ::unsetenv("IRS_COMPUTE_SANITIZER");
}
