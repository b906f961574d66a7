//===- BundlePolicyFuzzer.cpp - `--bundle` settings and pass parameters ---===//
//
// The input is read twice: as opt pass parameters
// (`ir-sanitize-bundles<...>`) and as `--bundle TAG=ACTION` settings, one
// per line. An accepted setting must be what the policy then says for its
// tag.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Support/BundlePolicy.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text = irs::fuzz::asText(Data, Size);
  if (Expected<irs::BundlePolicy> P =
          irs::BundlePolicy::fromPassParameters(Text))
    (void)P->actionFor(Text);
  else
    consumeError(P.takeError());

  irs::BundlePolicy Policy;
  SmallVector<StringRef, 8> Lines;
  Text.split(Lines, '\n');
  for (StringRef Setting : Lines) {
    if (Error E = Policy.applySetting(Setting)) {
      consumeError(std::move(E));
      continue;
    }
    auto [Tag, Action] = Setting.rsplit('=');
    if (Policy.actionFor(Tag) != irs::parseActionName(Action))
      irs::fuzz::fail("an accepted setting did not take: " + Setting);
  }
  return 0;
}
