//===- ProbeCacheFuzzer.cpp - Enzyme probe caches (BundleProbe.h) ---------===//
//
// The input is a probe cache file, as check and the triage read it from the
// user's cache directory (which other programs and other machines' copies
// can write). An accepted cache must survive a round trip: printed and read
// back, it prints the same.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Enzyme/BundleProbe.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  Expected<irs::ProbeCache> C = irs::parseProbeCache(Text, "cache.json");
  if (!C) {
    consumeError(C.takeError());
    return 0;
  }
  std::string First = irs::printProbeCache(*C);
  Expected<irs::ProbeCache> Again = irs::parseProbeCache(First, "cache.json");
  if (!Again)
    irs::fuzz::fail("a printed probe cache does not read back: " +
                    toString(Again.takeError()));
  if (irs::printProbeCache(*Again) != First)
    irs::fuzz::fail("a probe cache changed in a round trip");
  return 0;
}
