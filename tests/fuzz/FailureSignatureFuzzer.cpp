//===- FailureSignatureFuzzer.cpp - reduce's failure signatures -----------===//
//
// The input is a failure signature file (FailureSignatureInput), as the
// interestingness test of `reduce` reads it. An accepted signature must
// survive a round trip: printed and read back, it is the same signature.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Enzyme/FailureSignature.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Expected<irs::FailureSignature> S =
      irs::parseFailureSignature(irs::fuzz::asText(Data, Size));
  if (!S) {
    consumeError(S.takeError());
    return 0;
  }
  std::string Printed = formatv("{0}", irs::toJSON(*S)).str();
  Expected<irs::FailureSignature> Again = irs::parseFailureSignature(Printed);
  if (!Again)
    irs::fuzz::fail("a printed signature does not read back: " +
                    toString(Again.takeError()));
  if (*Again != *S)
    irs::fuzz::fail("a signature changed in a round trip: " + Printed);
  return 0;
}
