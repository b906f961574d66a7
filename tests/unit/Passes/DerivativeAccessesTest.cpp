#include "../TestSupport.h"

#include "ir-sanitize/Passes/DerivativeAccesses.h"

using namespace llvm;
using namespace irs;

TEST_CASE("derivativeAccessPipeline: sinking, merging, then aggregating",
          "[Passes]") {
  DerivativeAccessOptions O;
  O.AggregateAccumulations = true;
  CHECK(derivativeAccessPipeline(O) ==
        "function(ir-sanitize-store-sink-versioning,ir-sanitize-merge-"
        "accumulations<reassociate-fp>,early-cse,ir-sanitize-aggregate-"
        "accumulations<reassociate-fp>)");
  O.SinkStores = false;
  O.AggregateAccumulations = false;
  CHECK(derivativeAccessPipeline(O) ==
        "function(ir-sanitize-merge-accumulations<reassociate-fp>)");
  O.MergeAccumulations = false;
  CHECK(derivativeAccessPipeline(O).empty());
}
