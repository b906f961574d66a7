#include "ir-sanitize/Transforms/GCSafeRegion.h"
#include "../TestSupport.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("a call is wrapped in jl_gc_safe_enter/leave", "[GCSafeRegion]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
declare i32 @cuInit(i32)
define i32 @f() {
  %r = call i32 @cuInit(i32 0)
  ret i32 %r
}
)");
  CallBase *Call = firstCallTo(*M->getFunction("f"), "cuInit");
  REQUIRE(Call);
  CHECK(whyCannotWrapInGCSafeRegion(*Call).empty());
  wrapInGCSafeRegion(*Call);
  CHECK_FALSE(verifyModule(*M, &errs()));
  auto *Enter = dyn_cast_or_null<CallInst>(Call->getPrevNode());
  auto *Leave = dyn_cast_or_null<CallInst>(Call->getNextNode());
  REQUIRE(Enter);
  REQUIRE(Leave);
  CHECK(Enter->getCalledFunction()->getName() == GCSafeEnterName);
  CHECK(Leave->getCalledFunction()->getName() == GCSafeLeaveName);
  CHECK(Leave->getArgOperand(0) == Enter);
  // Declared so that Enzyme and the optimiser leave them alone.
  for (Function *Fn :
       {Enter->getCalledFunction(), Leave->getCalledFunction()}) {
    CHECK(Fn->isDeclaration());
    CHECK(Fn->hasFnAttribute("enzyme_inactive"));
    CHECK(Fn->hasFnAttribute(Attribute::NoFree));
    CHECK(Fn->hasFnAttribute(Attribute::NoUnwind));
  }
}

TEST_CASE("an invoke leaves the region on both edges", "[GCSafeRegion]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
declare i32 @cuInit(i32)
declare i32 @__gxx_personality_v0(...)
define i32 @f() personality ptr @__gxx_personality_v0 {
entry:
  %r = invoke i32 @cuInit(i32 0) to label %ok unwind label %bad
ok:
  ret i32 %r
bad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
)");
  Function &F = *M->getFunction("f");
  CallBase *Invoke = firstCallTo(F, "cuInit");
  REQUIRE(Invoke);
  CHECK(whyCannotWrapInGCSafeRegion(*Invoke).empty());
  wrapInGCSafeRegion(*Invoke);
  CHECK_FALSE(verifyModule(*M, &errs()));
  auto *II = cast<InvokeInst>(Invoke);
  auto *NormalLeave = dyn_cast<CallInst>(&II->getNormalDest()->front());
  REQUIRE(NormalLeave);
  CHECK(NormalLeave->getCalledFunction()->getName() == GCSafeLeaveName);
  Instruction *AfterPad = II->getUnwindDest()->getFirstNonPHI()->getNextNode();
  auto *UnwindLeave = dyn_cast_or_null<CallInst>(AfterPad);
  REQUIRE(UnwindLeave);
  CHECK(UnwindLeave->getCalledFunction()->getName() == GCSafeLeaveName);
  CHECK(NormalLeave->getArgOperand(0) == UnwindLeave->getArgOperand(0));
}

TEST_CASE("a musttail call cannot be wrapped", "[GCSafeRegion]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
declare i32 @cuInit(i32)
define i32 @f() {
  %r = musttail call i32 @cuInit(i32 0)
  ret i32 %r
}
)");
  CallBase *Call = firstCallTo(*M->getFunction("f"), "cuInit");
  REQUIRE(Call);
  CHECK(whyCannotWrapInGCSafeRegion(*Call).find("musttail") !=
        std::string::npos);
}

TEST_CASE("the enter/leave declarations are made once per module",
          "[GCSafeRegion]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
declare i32 @cuInit(i32)
define void @f() {
  %a = call i32 @cuInit(i32 0)
  %b = call i32 @cuInit(i32 1)
  ret void
}
)");
  GCSafeFunctions Fns = GCSafeFunctions::getOrInsert(*M);
  GCSafeFunctions Again = GCSafeFunctions::getOrInsert(*M);
  CHECK(Fns.Enter.getCallee() == Again.Enter.getCallee());
  CHECK(Fns.Leave.getCallee() == Again.Leave.getCallee());
  std::vector<CallBase *> Calls;
  for (Instruction &I : instructions(*M->getFunction("f")))
    if (auto *CB = dyn_cast<CallBase>(&I))
      Calls.push_back(CB);
  for (CallBase *CB : Calls)
    wrapInGCSafeRegion(*CB, Fns);
  CHECK_FALSE(verifyModule(*M, &errs()));
  CHECK(M->getFunction(GCSafeEnterName)->getNumUses() == 2);
  CHECK(M->getFunction(GCSafeLeaveName)->getNumUses() == 2);
}
