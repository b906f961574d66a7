// runRestore and restoreModule: the `restore` command as one driver call and
// the step the C API shares.
#include "../Enzyme/EnzymeTestUtils.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/Restore.h"
#include "ir-sanitize/Driver/Sanitize.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

unsigned bundlesIn(const Module &M) {
  unsigned N = 0;
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB)
        if (const auto *CB = dyn_cast<CallBase>(&I))
          N += CB->getNumOperandBundles();
  return N;
}

} // namespace

TEST_CASE("restoreModule puts a stashed bundle back", "[Driver][Restore]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, UnknownBundleModule);
  REQUIRE(static_cast<bool>(sanitizeModule(*M, SanitizeConfig())));
  REQUIRE(bundlesIn(*M) == 0);
  RestoreStats Stats = restoreModule(*M);
  CHECK(Stats.Bundles == 1);
  CHECK(Stats.Calls == 1);
  CHECK(Stats.Lost == 0);
  CHECK(bundlesIn(*M) == 1);
}

TEST_CASE("runRestore reads, restores, writes and reports",
          "[Driver][Restore]") {
  WorkDir Dir("irs-restore-job");
  SanitizeRequest San;
  San.Input = Dir.write("in.ll", UnknownBundleModule);
  San.Output = Dir.path("clean.ll");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Ignored;
  REQUIRE(static_cast<bool>(runSanitize(San, Ctx, Ignored)));

  RestoreRequest Req;
  Req.Input = San.Output;
  Req.Output = Dir.path("back.ll");
  CollectingDiagnosticHandler Diags;
  Expected<RestoreJobResult> Job = runRestore(Req, Ctx, Diags);
  REQUIRE(static_cast<bool>(Job));
  CHECK(Job->Stats.Bundles == 1);
  REQUIRE(Job->Module);
  CHECK(bundlesIn(*Job->Module) == 1);
  CHECK(
      Diags.of(DiagnosticKind::Progress) ==
      std::vector<std::string>{Req.Input + ": restored 1 bundles on 1 calls"});
  CHECK(Diags.of(DiagnosticKind::Warning).empty());
  CHECK(sys::fs::exists(Req.Output));
}

TEST_CASE("runRestore: an unreadable input is bad input, nothing written",
          "[Driver][Restore]") {
  WorkDir Dir("irs-restore-job");
  RestoreRequest Req;
  Req.Input = Dir.path("missing.ll");
  Req.Output = Dir.path("out.ll");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  CHECK(codeOf(runRestore(Req, Ctx, Diags).takeError()) == ExitCode::BadInput);
  CHECK_FALSE(sys::fs::exists(Req.Output));
}
