#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/GCSafeRegion.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs::test;
using namespace irs;

TEST_CASE("normalizeBundles on Julia's alloc-opt test module (corpus)",
          "[BundleNormalize]") {
  std::string Path = corpusPath("julia_alloc-opt-gcframe.ll");
  if (!sys::fs::exists(Path))
    IRS_SKIP("corpus not found at " << CorpusDir);
  LLVMContext Ctx;
  auto LM = readModule(Path, Ctx);
  REQUIRE(static_cast<bool>(LM));
  Module &M = *LM->M;
  std::string Original = printModule(M);

  BundleReport Report;
  CHECK(normalizeBundles(M, BundlePolicy(), &Report));
  CHECK_FALSE(verifyModule(M, &errs()));
  // The file has jl_roots (kept), "unknown_bundle" and "jl_not_jl_roots"
  // (stashed) on calls through function pointers.
  CHECK(Report.count(BundleAction::Stash) == 2);
  CHECK(Report.count(BundleAction::Keep) >= 1);
  CHECK(Report.count(BundleAction::Lower) == 0);
  CHECK(Report.numBundles() ==
        Report.count(BundleAction::Keep) + Report.count(BundleAction::Stash));
  for (const CallSiteRecord &S : Report.callSites())
    CHECK(S.Callee == "<indirect>");

  // A second run changes nothing. The call that kept jl_roots is visited
  // again: its stashed bundle is put back, then stashed again under the same
  // key; the call left without bundles is not visited.
  BundleReport Again;
  std::string Once = printModule(M);
  normalizeBundles(M, BundlePolicy(), &Again);
  CHECK(Again.count(BundleAction::Stash) == 1);
  CHECK(printModule(M) == Once);

  RestoreStats Stats = restoreBundles(M);
  CHECK(Stats.Bundles == 2);
  CHECK(Stats.Lost == 0);
  CHECK(printModule(M) == Original);
}

TEST_CASE("lower falls back to keep, with a note, where it cannot apply",
          "[BundleNormalize]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString(R"(
declare i32 @cuInit(i32)
define i32 @f() {
  %r = musttail call i32 @cuInit(i32 0) [ "gc-transition"() ]
  ret i32 %r
}
)",
                               Err, Ctx);
  REQUIRE(M);
  BundleReport Report;
  CHECK_FALSE(normalizeBundles(*M, BundlePolicy(), &Report));
  REQUIRE(Report.callSites().size() == 1);
  const BundleRecord &B = Report.callSites()[0].Bundles[0];
  CHECK(B.Action == BundleAction::Keep);
  CHECK(B.Note.find("musttail") != std::string::npos);
}

TEST_CASE("drop, stash and lower on one call", "[BundleNormalize]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString(R"(
declare i32 @cuInit(i32)
define i32 @f(ptr addrspace(10) %x) {
  %r = call i32 @cuInit(i32 0) [ "a"(), "jl_roots"(ptr addrspace(10) %x), "gc-transition"(), "b"(i32 1) ]
  ret i32 %r
}
)",
                               Err, Ctx);
  REQUIRE(M);
  BundlePolicy P;
  REQUIRE(succeeded(P.applySetting("a=drop")));
  BundleReport Report;
  CHECK(normalizeBundles(*M, P, &Report));
  CHECK_FALSE(verifyModule(*M, &errs()));
  CHECK(Report.count(BundleAction::Drop) == 1);
  CHECK(Report.count(BundleAction::Keep) == 1);
  CHECK(Report.count(BundleAction::Lower) == 1);
  CHECK(Report.count(BundleAction::Stash) == 1);
  Function &F = *M->getFunction("f");
  auto It = F.getEntryBlock().begin();
  auto *Enter = cast<CallInst>(&*It++);
  auto *Call = cast<CallInst>(&*It++);
  auto *Leave = cast<CallInst>(&*It++);
  CHECK(Enter->getCalledFunction()->getName() == GCSafeEnterName);
  CHECK(Leave->getCalledFunction()->getName() == GCSafeLeaveName);
  CHECK(Leave->getArgOperand(0) == Enter);
  CHECK(Call->getNumOperandBundles() == 1);
  CHECK(Call->getOperandBundle("jl_roots"));
  CHECK(Enter->getCalledFunction()->hasFnAttribute("enzyme_inactive"));
  CHECK(Enter->getCalledFunction()->hasFnAttribute(Attribute::NoFree));
  // Restoring brings back only the stashed one, at its original position
  // relative to the kept bundle.
  restoreBundles(*M);
  CallInst *Back = nullptr;
  for (Instruction &I : F.getEntryBlock())
    if (auto *CI = dyn_cast<CallInst>(&I);
        CI && CI->getCalledFunction()->getName() == "cuInit")
      Back = CI;
  REQUIRE(Back);
  REQUIRE(Back->getNumOperandBundles() == 2);
  CHECK(Back->getOperandBundleAt(0).getTagName() == "jl_roots");
  CHECK(Back->getOperandBundleAt(1).getTagName() == "b");
}
