//===- LaunchSpecFuzzer.cpp - `gpu-check --spec` launch specs -------------===//
//
// The input is a launch spec file, read as gpu-check reads it; an accepted
// spec is then checked against a splatted kernel whose leaves cover every
// kind (buffer pointer, integer, float) and its settings derived.
//
//===----------------------------------------------------------------------===//
#include "SplattedKernel.h"

#include "ir-sanitize/GPU/LaunchSpec.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static irs::fuzz::SplattedKernel K;
  const std::string &Path = irs::fuzz::writeScratchFile(Data, Size, ".json");
  Expected<irs::LaunchSpec> Spec = irs::LaunchSpec::readFile(Path);
  if (!Spec) {
    consumeError(Spec.takeError());
    return 0;
  }
  if (Error E = irs::validateSpec(*Spec, K.Manifest, Path)) {
    consumeError(std::move(E));
    return 0;
  }
  (void)irs::checkSettings(*Spec);
  return 0;
}
