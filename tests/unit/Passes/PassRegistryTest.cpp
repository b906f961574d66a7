#include "../TestSupport.h"
#include "PassTestSupport.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("every pass of PassRegistry.def parses by its name", "[Passes]") {
  const std::vector<RegisteredPass> &Passes = registeredPasses();
  REQUIRE(Passes.size() == 16);
  for (const RegisteredPass &P : Passes) {
    INFO(P.Name);
    std::string Text = P.Name;
    if (Text == "ir-sanitize-integer-pointer-args") // kernel= is required
      Text += "<kernel=k;arg=1>";
    if (Text == "ir-sanitize-derivative-wrapper") // and all of these
      Text += "<fn=f;mode=reverse;activity=dup.const>";
    if (Text == "ir-sanitize-noalias-version") // fn= is required
      Text += "<fn=k.rev;extent=0:1>";
    if (StringRef(P.Unit) == "function")
      CHECK(parses("function(" + Text + ")"));
    CHECK(parses(Text));
  }
}

namespace {

/// \p Text parsed with the registry and printed from the pass manager, as
/// `opt -print-pipeline-passes` prints it; the parse error's text if any.
std::string reprinted(StringRef Text) {
  Expected<std::string> Printed = printedPipeline(Text);
  return Printed ? *Printed : toString(Printed.takeError());
}

} // namespace

TEST_CASE("every pass of PassRegistry.def prints as the text it parses from",
          "[Passes]") {
  // Each text as its pass prints it: without parameters (the defaults), and
  // with every parameter set, values that need escaping among them.
  const std::vector<std::string> Texts = {
      "ir-sanitize-restore",
      "ir-sanitize-enzyme-slice",
      "ir-sanitize-warp-rules",
      "ir-sanitize-bundles",
      "ir-sanitize-bundles<gc-transition=stash;jl_roots=drop;scope=all>",
      "ir-sanitize-bundles<odd%3Dtag%3B=keep>",
      "ir-sanitize-splat",
      "ir-sanitize-splat<kernel=k.1;kernel=f%28x%29%2Cy;manifest=a%20b/m.json>",
      "ir-sanitize-grid-stride",
      "ir-sanitize-grid-stride<reassociate-fp;threads-per-multiprocessor=2048>",
      "ir-sanitize-nvptx-prepare",
      "ir-sanitize-nvptx-prepare<kernel=a;kernel=b%3Cc%3E;datalayout=e-p:64:"
      "64-i64:64>",
      "ir-sanitize-nvptx-libdevice",
      "ir-sanitize-nvptx-libdevice<path=cuda%20dir/libdevice%3B10.bc>",
      "ir-sanitize-integer-pointer-args<kernel=k>",
      "ir-sanitize-integer-pointer-args<kernel=k%3B2;arg=0;arg=3>",
      "ir-sanitize-derivative-wrapper<fn=f;mode=reverse;activity=dup.const."
      "out.dupnoneed>",
      "ir-sanitize-derivative-wrapper<fn=g%28%29;mode=forward;activity=>",
      "ir-sanitize-noalias-version<fn=k.rev>",
      "ir-sanitize-noalias-version<fn=k%3B1.rev;extent=2:3;extent=7:8>",
      "function(ir-sanitize-store-sink-versioning,ir-sanitize-invariant-"
      "division,ir-sanitize-merge-accumulations)",
      "function(ir-sanitize-merge-accumulations<reassociate-fp>)",
      "function(ir-sanitize-forward-shared-tiles)",
      "function(ir-sanitize-aggregate-accumulations,ir-sanitize-aggregate-"
      "accumulations<reassociate-fp>)",
      // Among LLVM's passes, which print by their own names.
      "ir-sanitize-bundles,function(sroa<modify-cfg>,ir-sanitize-invariant-"
      "division),globaldce",
  };
  for (const std::string &Text : Texts) {
    INFO(Text);
    CHECK(reprinted(Text) == Text);
  }
  for (const RegisteredPass &P : registeredPasses()) {
    INFO(P.Name);
    CHECK(llvm::any_of(Texts, [&](const std::string &Text) {
      return StringRef(Text).contains(P.Name);
    }));
  }
}

TEST_CASE("every pass of PassRegistry.def prints on one line", "[Passes]") {
  std::string Text;
  raw_string_ostream OS(Text);
  printRegisteredPasses(OS);
  for (const RegisteredPass &P : registeredPasses()) {
    INFO(P.Name);
    // NAME<PARAMS> is one word, so that the line reads as `WORD - TEXT`.
    CHECK(StringRef(P.Params).find_first_of(" \t") == StringRef::npos);
    CHECK_FALSE(StringRef(P.Description).empty());
    std::string Line = std::string("  ") + P.Name;
    if (*P.Params)
      Line += std::string("<") + P.Params + ">";
    Line += std::string(" - ") + P.Description + "\n";
    CHECK(Text.find(Line) != std::string::npos);
  }
  CHECK(
      StringRef(Text).starts_with("Module passes:\n  ir-sanitize-restore - "));
  CHECK(StringRef(Text).contains("\nFunction passes with params:\n  "
                                 "ir-sanitize-aggregate-accumulations<"
                                 "[reassociate-fp]> - "));
}

TEST_CASE("an invalid pass parameter is a warning and the element unknown",
          "[Passes]") {
  CollectingDiagnosticHandler Diags;
  CHECK_FALSE(parses("ir-sanitize-merge-accumulations<fast>", &Diags));
  CHECK_FALSE(parses("ir-sanitize-bundles<scope=everything>", &Diags));
  std::vector<std::string> W = Diags.of(irs::DiagnosticKind::Warning);
  REQUIRE(W.size() == 2);
  CHECK(W[0] == "ir-sanitize-merge-accumulations: unknown parameter 'fast' "
                "(expected reassociate-fp)");
  CHECK(W[1].rfind("ir-sanitize-bundles: unknown scope 'everything'", 0) == 0);
}

TEST_CASE("runPipeline hands the splat's failure back with its exit code",
          "[Passes]") {
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, R"(
define ptx_kernel void @k({ i32, float } %a) {
  ret void
}
)");
  PassResults Results;
  CHECK(test::codeOf(runPipeline(*M, "ir-sanitize-splat<kernel=nope>",
                                 &Results)) == ExitCode::Usage);
  CHECK(Results.find<LaunchManifest>() == nullptr);
  // Without a store too: the failure comes back, never to the context.
  CHECK(test::codeOf(runPipeline(*M, "ir-sanitize-splat<kernel=nope>")) ==
        ExitCode::Usage);

  REQUIRE_FALSE(
      errorToBool(runPipeline(*M, "ir-sanitize-splat<kernel=k>", &Results)));
  const LaunchManifest *Manifest = Results.find<LaunchManifest>();
  REQUIRE(Manifest);
  REQUIRE(Manifest->Kernels.size() == 1);
  CHECK(Manifest->Kernels[0].Params.size() == 2);
}

TEST_CASE("a Pipeline prints and runs the passes it parsed", "[Passes]") {
  CHECK(reprinted("ir-sanitize-nope") ==
        "unknown pass name 'ir-sanitize-nope'");
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, R"(
define ptx_kernel void @k({ i32, float } %a) {
  ret void
}
)");
  PassResults Results;
  auto P = Pipeline::parse("ir-sanitize-bundles,ir-sanitize-splat<kernel=k>",
                           &Results);
  REQUIRE(static_cast<bool>(P));
  CHECK((*P)->text() == "ir-sanitize-bundles,ir-sanitize-splat<kernel=k>");
  REQUIRE_FALSE(errorToBool((*P)->run(*M)));
  const LaunchManifest *Manifest = Results.find<LaunchManifest>();
  REQUIRE(Manifest);
  CHECK(Manifest->Kernels.size() == 1);
  // A failure comes back from run(), with its code, a store given or not.
  auto Unknown = Pipeline::parse("ir-sanitize-splat<kernel=nope>");
  REQUIRE(static_cast<bool>(Unknown));
  CHECK(test::codeOf((*Unknown)->run(*M)) == ExitCode::Usage);
}

namespace {

/// LLVM's statistics as "DEBUG_TYPE.Name" -> value, read through its JSON
/// (the form that carries each counter's DEBUG_TYPE).
std::map<std::string, int64_t> statistics() {
  std::string Text;
  raw_string_ostream OS(Text);
  PrintStatisticsJSON(OS);
  Expected<json::Value> V = json::parse(OS.str());
  REQUIRE(static_cast<bool>(V));
  std::map<std::string, int64_t> Stats;
  for (const auto &[Key, Value] : *V->getAsObject())
    if (std::optional<int64_t> N = Value.getAsInteger())
      Stats[Key.str()] = *N;
  return Stats;
}

} // namespace

TEST_CASE("every pass of PassRegistry.def counts its work under its name",
          "[Passes]") {
  // Each pass on an input of its lit tests, as they run it. Release builds
  // of LLVM (Debian's) print no statistics for `opt -stats`, so this reads
  // the counters (ALWAYS_ENABLED_STATISTIC) through LLVM's statistics API.
  const std::string Libdevice =
      "ir-sanitize-nvptx-libdevice<path=" +
      sourcePath("tests/lit/Transforms/NVPTXLibdevice/Inputs/"
                 "fake-libdevice.ll>");
  const std::pair<const char *, const char *> Runs[] = {
      {"ir-sanitize-bundles<gc-transition=stash>,ir-sanitize-restore",
       "BundleNormalize/plugin.ll"},
      {"ir-sanitize-splat", "KernelSplat/calls.ll"},
      {"ir-sanitize-enzyme-slice", "EnzymeSlice/slice.ll"},
      {"ir-sanitize-warp-rules", "WarpShuffleRules/rules.ll"},
      {"ir-sanitize-grid-stride<reassociate-fp>",
       "GridStrideCoarsening/grid-stride-coarsening.ll"},
      {"ir-sanitize-nvptx-prepare<kernel=k.1;kernel=odd%2Cname>",
       "NVPTXPrepare/basic.ll"},
      {Libdevice.c_str(), "NVPTXLibdevice/libdevice.ll"},
      {"ir-sanitize-integer-pointer-args<kernel=k;arg=0;arg=1;arg=2>",
       "IntegerPointerArguments/basic.ll"},
      {"ir-sanitize-derivative-wrapper<fn=f;mode=forward;activity=dup.const>",
       "AddDerivativeWrapper/basic.ll"},
      {"ir-sanitize-noalias-version<fn=k.rev;extent=0:1;extent=2:3>",
       "NoAliasVersioning/noalias-version.ll"},
      {"function(ir-sanitize-store-sink-versioning)",
       "StoreSinkVersioning/store-sink-versioning.ll"},
      {"function(ir-sanitize-invariant-division)",
       "InvariantDivision/invariant-division.ll"},
      {"function(ir-sanitize-merge-accumulations<reassociate-fp>)",
       "AccumulationMerging/accumulation-merging.ll"},
      {"function(ir-sanitize-aggregate-accumulations<reassociate-fp>)",
       "AccumulationAggregation/accumulation-aggregation.ll"},
      {"function(ir-sanitize-forward-shared-tiles)",
       "SharedTileForwarding/shared-tile-forwarding.ll"},
  };
  EnableStatistics(/*DoPrintOnExit=*/false);
  ResetStatistics();
  for (const auto &[Pipeline, Input] : Runs) {
    INFO(Pipeline);
    LLVMContext Ctx;
    SMDiagnostic Err;
    std::unique_ptr<Module> M =
        parseIRFile(sourcePath("tests/lit/Transforms/") + Input, Err, Ctx);
    REQUIRE(M);
    CHECK_FALSE(errorToBool(runPipeline(*M, Pipeline)));
  }
  std::map<std::string, int64_t> Stats = statistics();
  for (const RegisteredPass &P : registeredPasses()) {
    INFO(P.Name);
    std::string Prefix = std::string(P.Name) + ".";
    CHECK(llvm::any_of(Stats, [&](const auto &KV) {
      return StringRef(KV.first).starts_with(Prefix) && KV.second > 0;
    }));
  }
  CHECK(Stats["ir-sanitize-bundles.NumStashed"] == 1);
  CHECK(Stats["ir-sanitize-restore.NumRestored"] == 1);
  CHECK(Stats["ir-sanitize-enzyme-slice.NumRemoved"] == 3);
}
