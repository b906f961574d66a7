//===- RunPlanFuzzer.cpp - ir-sanitize-gpurun's run plans
//------------------===//
//
// The input is a run plan, read by the runner's own (LLVM-free) reader. An
// accepted plan must keep the promises the runner then relies on without
// checking again: every relocation's 8 bytes lie inside its parameter, are
// 8-byte aligned, are the only ones at their offset and name a buffer (a
// shadow only of a wrt or output buffer); every buffer's byte size is
// representable; every kernel has an entry, only a derivative kernel a
// grid-stride version; a reason for skipped checks only in a primal plan.
//
//===----------------------------------------------------------------------===//
#include "PlanReader.h"

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

void checkParam(const gpurun::Plan &P, const gpurun::Param &Param) {
  std::set<uint64_t> Offsets;
  for (const gpurun::Reloc &R : Param.Relocs) {
    if (R.Offset > Param.Bytes.size() || Param.Bytes.size() - R.Offset < 8)
      fail("has a relocation outside its parameter");
    if (R.Offset % 8 || !Offsets.insert(R.Offset).second)
      fail("has an unaligned or overlapping relocation");
    if (R.BufferIndex >= P.Buffers.size())
      fail("has a relocation to a buffer it does not have");
    const gpurun::Buffer &B = P.Buffers[R.BufferIndex];
    if (R.Shadow && !B.Wrt && !B.Output)
      fail("has a shadow of a buffer neither wrt nor output");
  }
}

void checkPlan(const gpurun::Plan &P) {
  for (const gpurun::Buffer &B : P.Buffers)
    if (B.Count >
        std::numeric_limits<uint64_t>::max() / irs::elementSize(B.Type))
      fail("has a buffer whose byte size overflows");
  if (P.DerivativeChecks && !P.DerivativesSkipped.empty())
    fail("skips the derivative checks it runs");
  for (const auto &[Role, Launch] : P.Launches) {
    if (Launch.Entry.empty())
      fail("has a kernel without an entry");
    if (!Launch.GridStrideEntry.empty() && Role != irs::KernelRole::Forward &&
        Role != irs::KernelRole::Reverse)
      fail("has a grid-stride version of a primal kernel");
    for (const gpurun::Param &Param : Launch.Params)
      checkParam(P, Param);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  gpurun::Plan P;
  std::string Error;
  if (gpurun::parsePlan(Text, P, Error))
    checkPlan(P);
  return 0;
}
