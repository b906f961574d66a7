//===- ActivityFuzzer.cpp - `--activity KEY=ACT` items --------------------===//
//
// The input is a list of `--activity` items, one per line, parsed and then
// resolved against a splatted kernel and its manifest (so keys may name
// parameter numbers, names, manifest paths and leaf names), in both modes.
// A resolved map must have one activity per parameter.
//
//===----------------------------------------------------------------------===//
#include "SplattedKernel.h"

#include "ir-sanitize/Analysis/ActivitySpec.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static irs::fuzz::SplattedKernel K;
  SmallVector<StringRef, 8> Lines;
  irs::fuzz::asText(Data, Size).split(Lines, '\n');
  std::vector<std::string> Items(Lines.begin(), Lines.end());
  Expected<irs::ActivitySpec> Spec = irs::ActivitySpec::parse(Items);
  if (!Spec) {
    consumeError(Spec.takeError());
    return 0;
  }
  const Function &F = *K.M->getFunction("k");
  const irs::KernelManifest *WithAndWithout[] = {&K.Manifest, nullptr};
  for (irs::DiffMode Mode : {irs::DiffMode::Forward, irs::DiffMode::Reverse}) {
    for (const irs::KernelManifest *Manifest : WithAndWithout) {
      Expected<irs::ActivityMap> Map =
          irs::resolveActivities(F, Mode, *Spec, Manifest, /*IsKernel=*/true);
      if (!Map)
        consumeError(Map.takeError());
      else if (Map->size() != F.arg_size())
        irs::fuzz::fail("a resolved map does not cover the parameters");
    }
  }
  return 0;
}
