#include "../TestSupport.h"
#include "PassTestSupport.h"

#include "ir-sanitize/Passes/Pipelines.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("sanitizePipeline says what sanitizeModule runs", "[Pipelines]") {
  BundlePolicy Policy;
  CHECK(sanitizePipeline(Policy, false, true, {}) ==
        "ir-sanitize-bundles,ir-sanitize-splat");
  CHECK(sanitizePipeline(Policy, false, false, {}) == "ir-sanitize-bundles");
  CHECK(sanitizePipeline(Policy, true, true, {}) ==
        "ir-sanitize-bundles,ir-sanitize-warp-rules,ir-sanitize-splat");
  cantFail(Policy.applySetting("gc-transition=stash"));
  cantFail(Policy.applySetting("foo=drop"));
  Policy.Scope = BundleScope::All;
  std::string Text = sanitizePipeline(Policy, true, true, {"k", "odd;name"});
  CHECK(Text == "ir-sanitize-bundles<foo=drop;gc-transition=stash;scope=all>,"
                "ir-sanitize-warp-rules,"
                "ir-sanitize-splat<kernel=k;kernel=odd%3Bname>");
  CHECK(parses(Text));
}

TEST_CASE("derivativeWrapperPipeline names the function, mode and activities",
          "[Pipelines]") {
  std::string Text = derivativeWrapperPipeline(
      "f(x)", DiffMode::Reverse, {Activity::Dup, Activity::Const});
  CHECK(Text == "ir-sanitize-derivative-wrapper<fn=f%28x%29;mode=reverse;"
                "activity=dup.const>");
  CHECK(parses(Text));
  CHECK(derivativeWrapperPipeline("g", DiffMode::Forward, {}) ==
        "ir-sanitize-derivative-wrapper<fn=g;mode=forward;activity=>");
}

TEST_CASE("the Enzyme cleanup pipeline parses", "[Pipelines]") {
  CHECK(parses(enzymeCleanupPipeline()));
}

TEST_CASE("derivativePipeline orders the derivative passes", "[Pipelines]") {
  DerivativePipelineOptions O;
  CHECK(O.Accesses.SinkStores);
  CHECK(O.Accesses.MergeAccumulations);
  CHECK(O.Accesses.AggregateAccumulations); // --accumulation=aggregated
  CHECK(O.GridStride);                      // what gpu-check runs by default
  O.GridStride = false;
  O.Accesses.AggregateAccumulations = true;
  CHECK(derivativePipeline(O) ==
        "function(ir-sanitize-store-sink-versioning,ir-sanitize-merge-"
        "accumulations<reassociate-fp>,early-cse,ir-sanitize-aggregate-"
        "accumulations<reassociate-fp>)");
  O.Accesses.AggregateAccumulations = false;
  CHECK(derivativePipeline(O) ==
        "function(ir-sanitize-store-sink-versioning,ir-sanitize-merge-"
        "accumulations<reassociate-fp>,early-cse)");
  O.Accesses.MergeAccumulations = false;
  CHECK(derivativePipeline(O) ==
        "function(ir-sanitize-store-sink-versioning,early-cse)");
  O.Accesses.SinkStores = false;
  O.Accesses.MergeAccumulations = true;
  CHECK(derivativePipeline(O) ==
        "function(ir-sanitize-merge-accumulations<reassociate-fp>)");
  O.Accesses.SinkStores = O.Accesses.MergeAccumulations = false;
  CHECK(derivativePipeline(O).empty());
  O.GridStride = true;
  CHECK(derivativePipeline(O) == "ir-sanitize-grid-stride<reassociate-fp>,"
                                 "function(ir-sanitize-invariant-division)");
  O.ThreadsPerMultiprocessor = 1536;
  O.Accesses.AggregateAccumulations = true;
  CHECK(derivativePipeline(O) ==
        "ir-sanitize-grid-stride<reassociate-fp;threads-per-multiprocessor="
        "1536>,function(ir-sanitize-invariant-division,ir-sanitize-aggregate-"
        "accumulations<reassociate-fp>)");
  CHECK(parses(derivativePipeline(O)));
}

TEST_CASE("accumulation modes set the accumulation passes", "[Pipelines]") {
  DerivativeAccessOptions O;
  REQUIRE(setAccumulationMode(O, "separate"));
  CHECK(!O.MergeAccumulations);
  CHECK(!O.AggregateAccumulations);
  REQUIRE(setAccumulationMode(O, "merged"));
  CHECK(O.MergeAccumulations);
  CHECK(!O.AggregateAccumulations);
  REQUIRE(setAccumulationMode(O, AccumulationModes[0])); // the default
  CHECK(O.MergeAccumulations);
  CHECK(O.AggregateAccumulations);
  CHECK(!setAccumulationMode(O, "aggregate"));
  CHECK(O.AggregateAccumulations); // unchanged
}
