//===- RunPlanFuzzer.cpp - ir-sanitize-gpurun's run plans -----------------===//
//
// The input is a run plan, read by the launch library's (LLVM-free) reader,
// the runner's. An accepted plan must keep the promises the runner then
// relies on without checking again: every relocation's 8 bytes lie inside
// its parameter, are 8-byte aligned, are the only ones at their offset and
// name a buffer (a shadow only of a wrt or output buffer); every buffer's
// byte size is representable; every kernel has an entry, only a derivative
// kernel a grid-stride version; a reason for skipped checks only in a
// primal plan. And the codec is one: printed and read back, it prints the
// same.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Launch/RunPlan.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <string>

namespace {

[[noreturn]] void fail(const char *Why) {
  std::fprintf(stderr, "fuzz: an accepted plan %s\n", Why);
  std::abort();
}

void checkParam(const irs::RunPlan &P, const irs::ParamImage &Param) {
  std::set<uint64_t> Offsets;
  for (const irs::AddressReloc &R : Param.Relocs) {
    if (R.Offset > Param.Bytes.size() || Param.Bytes.size() - R.Offset < 8)
      fail("has a relocation outside its parameter");
    if (R.Offset % 8 || !Offsets.insert(R.Offset).second)
      fail("has an unaligned or overlapping relocation");
    size_t I = P.bufferIndex(R.Buffer);
    if (I >= P.Launch.Buffers.size())
      fail("has a relocation to a buffer it does not have");
    const irs::LaunchBuffer &B = P.Launch.Buffers[I];
    if (R.Shadow && !B.Wrt && !B.Output)
      fail("has a shadow of a buffer neither wrt nor output");
  }
}

void checkPlan(const irs::RunPlan &P) {
  for (const irs::LaunchBuffer &B : P.Launch.Buffers)
    if (B.Count >
        std::numeric_limits<uint64_t>::max() / irs::elementSize(B.Type))
      fail("has a buffer whose byte size overflows");
  if (P.Launch.DerivativeChecks && !P.DerivativesSkipped.empty())
    fail("skips the derivative checks it runs");
  for (const irs::PlannedKernel &K : P.Kernels) {
    if (K.Entry.empty())
      fail("has a kernel without an entry");
    if (!K.GridStrideEntry.empty() && K.Role != irs::KernelRole::Forward &&
        K.Role != irs::KernelRole::Reverse)
      fail("has a grid-stride version of a primal kernel");
    for (const irs::ParamImage &Param : K.Params)
      checkParam(P, Param);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  irs::RunPlan P;
  std::string Error;
  if (!irs::parseRunPlan(Text, P, Error))
    return 0;
  checkPlan(P);
  std::string Printed = irs::printRunPlan(P);
  irs::RunPlan Again;
  if (!irs::parseRunPlan(Printed, Again, Error))
    fail("does not read back once printed");
  if (irs::printRunPlan(Again) != Printed)
    fail("changes in a round trip");
  return 0;
}
