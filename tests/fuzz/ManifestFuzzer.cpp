//===- ManifestFuzzer.cpp - Launch manifests (`--manifest` files) ---------===//
//
// The input is a manifest file, read as gpu-check and `enzyme --manifest`
// read it. An accepted manifest must survive a round trip: printed and read
// back, it prints the same.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Support/LaunchManifest.h"

#include "llvm/Support/JSON.h"

using namespace llvm;

namespace {

std::string printed(const irs::LaunchManifest &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.printFile(OS);
  return S;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Path = irs::fuzz::writeScratchFile(Data, Size, ".json");
  Expected<irs::LaunchManifest> M = irs::LaunchManifest::readFile(Path);
  if (!M) {
    consumeError(M.takeError());
    return 0;
  }
  std::string First = printed(*M);
  Expected<json::Value> V = json::parse(First);
  if (!V)
    irs::fuzz::fail("a printed manifest is not JSON: " +
                    toString(V.takeError()));
  Expected<irs::LaunchManifest> Again = irs::LaunchManifest::fromJSON(*V);
  if (!Again)
    irs::fuzz::fail("a printed manifest does not read back: " +
                    toString(Again.takeError()));
  if (printed(*Again) != First)
    irs::fuzz::fail("a manifest changed in a round trip");
  return 0;
}
