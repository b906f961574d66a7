//===- RunPlanFuzzer.cpp - ir-sanitize-gpurun's run plans
//------------------===//
//
// The input is a run plan, read by the runner's own (LLVM-free) reader. An
// accepted plan must keep the promises the runner then relies on without
// checking again: every relocation's 8 bytes lie inside its parameter and
// name a buffer, and every buffer's byte size is representable.
//
//===----------------------------------------------------------------------===//
#include "PlanReader.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace {

[[noreturn]] void fail(const char *Why) {
  std::fprintf(stderr, "fuzz: an accepted plan %s\n", Why);
  std::abort();
}

void checkPlan(const gpurun::Plan &P) {
  for (const gpurun::Buffer &B : P.Buffers)
    if (B.Count >
        std::numeric_limits<uint64_t>::max() / irs::elementSize(B.Type))
      fail("has a buffer whose byte size overflows");
  for (const auto &[Role, Launch] : P.Launches)
    for (const gpurun::Param &Param : Launch.Params)
      for (const gpurun::Reloc &R : Param.Relocs) {
        if (R.Offset > Param.Bytes.size() || Param.Bytes.size() - R.Offset < 8)
          fail("has a relocation outside its parameter");
        if (R.BufferIndex >= P.Buffers.size())
          fail("has a relocation to a buffer it does not have");
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
