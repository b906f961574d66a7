//===- PipelineTextFuzzer.cpp - User names through pipeline text ----------===//
//
// Tags, kernel names and file names reach the passes as pipeline text, which
// the tool builds, opt replays and --print-pipeline-passes prints. Each line
// of the input is one name: a kernel name after "k:", a file after "f:",
// else a bundle tag (its action chosen by its line number). The promises:
// the policy reads back from its pass parameters as itself, and the
// pipeline text built from the names parses and prints as the same text.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/PassParameters.h"

using namespace llvm;

namespace {

struct Names {
  irs::BundlePolicy Policy;
  std::vector<std::string> Kernels;
  std::vector<std::string> Files;
};

Names namesIn(StringRef Text) {
  static const irs::BundleAction Actions[] = {irs::BundleAction::Keep,
                                              irs::BundleAction::Drop,
                                              irs::BundleAction::Stash};
  Names N;
  SmallVector<StringRef, 8> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I];
    if (Line.consume_front("k:")) {
      if (!Line.empty()) // --kernel '' is refused before any pipeline
        N.Kernels.push_back(Line.str());
    } else if (Line.consume_front("f:")) {
      if (!Line.empty())
        N.Files.push_back(Line.str());
    } else if (!Line.empty()) {
      N.Policy.setAction(Line, Actions[I % 3]);
    }
  }
  if (Lines.size() % 2)
    N.Policy.Scope = irs::BundleScope::All;
  return N;
}

/// The sanitize pipeline, then passes that take a kernel or a file.
std::string pipelineFor(const Names &N) {
  std::string Text = irs::sanitizePipeline(N.Policy, /*WarpRules=*/true,
                                           /*Splat=*/true, N.Kernels);
  for (const std::string &K : N.Kernels)
    Text += ",ir-sanitize-nvptx-prepare<kernel=" + irs::escapePassParameter(K) +
            ">";
  for (const std::string &F : N.Files)
    Text += ",ir-sanitize-nvptx-libdevice<path=" + irs::escapePassParameter(F) +
            ">";
  return Text;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Names N = namesIn(irs::fuzz::asText(Data, Size));
  std::string Params = N.Policy.toPassParameters();
  Expected<irs::BundlePolicy> Back =
      irs::BundlePolicy::fromPassParameters(Params);
  if (!Back)
    irs::fuzz::fail("a policy's parameters do not parse: " + Params + ": " +
                    toString(Back.takeError()));
  if (*Back != N.Policy)
    irs::fuzz::fail("a policy reads back as another: " + Params);
  std::string Text = pipelineFor(N);
  Expected<std::string> Printed = irs::printedPipeline(Text);
  if (!Printed)
    irs::fuzz::fail("pipeline text does not parse: " + Text + ": " +
                    toString(Printed.takeError()));
  if (*Printed != Text)
    irs::fuzz::fail("pipeline text prints as other text: " + Text + " -> " +
                    *Printed);
  return 0;
}
