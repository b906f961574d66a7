#include "ir-sanitize/Transforms/Utils/BundleStash.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include "../../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {
const char *const IR = R"(
@g = global i64 0
declare i32 @cuLaunchKernel(ptr, i32)
define i32 @f(ptr %f, ptr addrspace(10) %a, ptr %ptls) {
top:
  %r = call i32 @cuLaunchKernel(ptr %f, i32 1) [ "jl_roots"(ptr addrspace(10) %a), "gc-transition"(ptr %ptls), "other"(ptr @g, i64 7) ]
  ret i32 %r
}
)";

std::unique_ptr<Module> parse(LLVMContext &Ctx, StringRef Text = IR) {
  return parseModule(Ctx, Text);
}

CallBase *firstBundledCall(Function &F) {
  return firstCallTo(F, "cuLaunchKernel");
}

std::string print(const Value &V) {
  std::string S;
  raw_string_ostream OS(S);
  V.print(OS);
  return S;
}

/// Stashes bundles 1 and 2 (gc-transition, other) of @f's call.
CallBase *stashTwo(Module &M) {
  CallBase *CB = firstBundledCall(*M.getFunction("f"));
  SmallVector<StashedBundle, 2> Stashed;
  for (unsigned I : {1u, 2u})
    Stashed.push_back({I, OperandBundleDef(CB->getOperandBundleAt(I))});
  OperandBundleDef Kept(CB->getOperandBundleAt(0));
  CallBase *New = replaceOperandBundles(*CB, {Kept});
  StashKeyAllocator Keys(M);
  recordStashedBundles(*New, Stashed, Keys);
  return New;
}
} // namespace

TEST_CASE("stash then restore gives back the same call", "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx);
  std::string Before = print(*firstBundledCall(*M->getFunction("f")));
  CallBase *CB = stashTwo(*M);
  CHECK(hasStashRecord(*CB));
  CHECK(CB->getNumOperandBundles() == 1);
  REQUIRE(M->getFunction(StashOperandsFunction)); // %ptls is local.
  REQUIRE_FALSE(verifyModule(*M, &errs()));

  RestoreOutcome Out = restoreStashedBundles(*CB);
  CHECK(Out.Restored == 2);
  CHECK(Out.Lost.size() == 0);
  CHECK(print(*Out.Call) == Before);
  CHECK_FALSE(hasStashRecord(*Out.Call));
  CHECK(eraseStashMarkers(*M) == 0);
  CHECK_FALSE(M->getFunction(StashOperandsFunction));
  CHECK_FALSE(verifyModule(*M, &errs()));
}

TEST_CASE("a record survives cloning the function", "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx);
  stashTwo(*M);
  ValueToValueMapTy VMap;
  Function *Clone = CloneFunction(M->getFunction("f"), VMap);
  RestoreOutcome Out = restoreStashedBundles(*firstBundledCall(*Clone));
  CHECK(Out.Restored == 2);
  CHECK(Out.Lost.size() == 0);
  CHECK(Out.Call->getOperandBundle("gc-transition")->Inputs[0] ==
        Clone->getArg(2));
  CHECK_FALSE(verifyModule(*M, &errs()));
}

TEST_CASE("a copy of the call in another block finds its dominating marker",
          "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx);
  CallBase *CB = stashTwo(*M);
  // Split the block right before the call: the marker stays behind.
  CB->getParent()->splitBasicBlock(CB->getIterator(), "next");
  RestoreOutcome Out = restoreStashedBundles(*CB);
  CHECK(Out.Restored == 2);
  CHECK(Out.Lost.size() == 0);
  CHECK_FALSE(verifyModule(*M, &errs()));
}

TEST_CASE("a lost marker is reported, never invented", "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx);
  CallBase *CB = stashTwo(*M);
  Function *MF = M->getFunction(StashOperandsFunction);
  REQUIRE(MF);
  cast<Instruction>(*MF->user_begin())->eraseFromParent();
  RestoreOutcome Out = restoreStashedBundles(*CB);
  // "other" has only constant operands and comes back; gc-transition's
  // %ptls was in the marker.
  CHECK(Out.Restored == 1);
  CHECK(Out.Lost.size() == 1);
  CHECK(Out.Call->getOperandBundle("other"));
  CHECK_FALSE(Out.Call->getOperandBundle("gc-transition"));
  CHECK_FALSE(verifyModule(*M, &errs()));
}

TEST_CASE("markers whose call is gone are erased", "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx);
  CallBase *CB = stashTwo(*M);
  CB->replaceAllUsesWith(PoisonValue::get(CB->getType()));
  CB->eraseFromParent();
  CHECK(eraseStashMarkers(*M) == 1);
  CHECK_FALSE(M->getFunction(StashOperandsFunction));
  CHECK_FALSE(verifyModule(*M, &errs()));
}

TEST_CASE("new keys do not collide with keys already in the module",
          "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx);
  stashTwo(*M); // Uses key 1.
  StashKeyAllocator Keys(*M);
  CHECK(Keys.next() == 2);
}

TEST_CASE("bundles with token operands cannot be stashed", "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
declare token @llvm.experimental.convergence.entry()
declare void @g()
define void @f() convergent {
  %t = call token @llvm.experimental.convergence.entry()
  call void @g() [ "convergencectrl"(token %t) ]
  ret void
}
)");
  auto *CB =
      cast<CallBase>(&*std::next(M->getFunction("f")->getEntryBlock().begin()));
  CHECK_FALSE(canStash(CB->getOperandBundleAt(0)));
}

TEST_CASE("a restored operand that is another recorded call follows its "
          "replacement",
          "[BundleStash]") {
  // %a is replaced when its own record is restored; @g's bundle, restored
  // after it, must name the new %a, also when the verifier then refuses
  // @h2's forged bundle and the function is restored call by call.
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
declare i64 @h()
declare void @g()
declare void @h2()
declare void @ir_sanitize.stashed_bundle_operands(i64, ...)
define void @f() {
  %a = call i64 @h(), !irs.stashed_bundles !0
  call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i64 %a)
  call void @g(), !irs.stashed_bundles !1
  call void @h2() [ "deopt"() ], !irs.stashed_bundles !2
  ret void
}
!0 = !{i64 0, !3}
!1 = !{i64 1, !4}
!2 = !{i64 0, !5}
!3 = !{!"a", i32 0, i64 5}
!4 = !{!"b", i32 0, !6}
!5 = !{!"deopt", i32 1, i32 7}
!6 = !{i32 1}
)");
  Function &F = *M->getFunction("f");
  SmallVector<CallBase *, 4> Recorded;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I); CB && hasStashRecord(*CB))
      Recorded.push_back(CB);
  REQUIRE(Recorded.size() == 3);
  std::vector<RestoreOutcome> Out = restoreStashedBundles(F, Recorded);
  REQUIRE(Out.size() == 3);
  CHECK(Out[0].Restored == 1);
  CHECK(Out[1].Restored == 1);
  CHECK(Out[2].Restored == 0);
  REQUIRE(Out[2].Lost.size() == 1);
  CHECK(Out[2].Lost[0].Tag == "deopt");
  CHECK(Out[1].Call->getOperandBundle("b")->Inputs[0] == Out[0].Call);
  CHECK_FALSE(M->getFunction(StashOperandsFunction)->getNumUses());
  CHECK_FALSE(verifyModule(*M, &errs()));
}

TEST_CASE("a marker with uses, or that is the recorded call itself, is no "
          "marker",
          "[BundleStash]") {
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
declare void @g()
declare i64 @ir_sanitize.stashed_bundle_operands(i64, ...)
define i64 @f(i64 %x) {
  %m = call i64 (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 1, i64 %x)
  call void @g(), !irs.stashed_bundles !0
  ret i64 %m
}
!0 = !{i64 1, !1}
!1 = !{!"a", i32 0, !2}
!2 = !{i32 1}
)");
  RestoreOutcome Out =
      restoreStashedBundles(*firstCallTo(*M->getFunction("f"), "g"));
  CHECK(Out.Restored == 0);
  CHECK(Out.Lost.size() == 1);
  CHECK(eraseStashMarkers(*M) == 0);
  CHECK(M->getFunction(StashOperandsFunction)->getNumUses() == 1);
  CHECK_FALSE(verifyModule(*M, &errs()));
}
