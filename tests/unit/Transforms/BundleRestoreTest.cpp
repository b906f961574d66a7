#include "ir-sanitize/Transforms/BundleRestore.h"
#include "../TestSupport.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// A call with a bundle of an unknown tag, which the default policy stashes,
/// with and without operands.
constexpr const char *Stashable = R"(
declare i32 @cuInit(i32)
define i32 @f(i32 %n) {
  %r = call i32 @cuInit(i32 0) [ "unknown_a"(), "unknown_b"(i32 %n) ]
  ret i32 %r
}
)";

/// \p M with its bundles stashed by the default policy.
void stash(Module &M) {
  BundleReport Report;
  normalizeBundles(M, BundlePolicy(), &Report);
  REQUIRE(Report.count(BundleAction::Stash) == 2);
  REQUIRE_FALSE(verifyModule(M, &errs()));
}

} // namespace

TEST_CASE("restoring stashed bundles gives back the module",
          "[BundleRestore]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, Stashable);
  std::string Original = printModule(*M);
  stash(*M);
  CHECK(printModule(*M) != Original);
  RestoreStats Stats = restoreBundles(*M);
  CHECK(Stats.Calls == 1);
  CHECK(Stats.Bundles == 2);
  CHECK(Stats.Lost == 0);
  CHECK(Stats.OrphanMarkers == 0);
  CHECK_FALSE(verifyModule(*M, &errs()));
  CHECK(printModule(*M) == Original);
}

TEST_CASE("a module without stash records is left as it was",
          "[BundleRestore]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, Stashable);
  std::string Original = printModule(*M);
  RestoreStats Stats = restoreBundles(*M);
  CHECK(Stats.Calls == 0);
  CHECK(Stats.Bundles == 0);
  CHECK(printModule(*M) == Original);
}

TEST_CASE("the pass restores and reports into the run's results",
          "[BundleRestore]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, Stashable);
  std::string Original = printModule(*M);
  stash(*M);
  PassResults Results;
  REQUIRE_FALSE(errorToBool(runPipeline(*M, "ir-sanitize-restore", &Results)));
  const RestoreStats &Stats = Results.get<RestoreStats>();
  CHECK(Stats.Calls == 1);
  CHECK(Stats.Bundles == 2);
  CHECK(printModule(*M) == Original);
}
