#include "ir-sanitize/Transforms/WarpShuffleRules.h"
#include "../TestSupport.h"

#include "ir-sanitize/Analysis/EnzymeCalls.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

static const char *Warp = R"(
target triple = "nvptx64-nvidia-cuda"
define float @f(float %v, double %d, i32 %off, i32 %n) {
  %a = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 1, i32 31)
  %bits = bitcast double %d to i64
  %hi64 = lshr i64 %bits, 32
  %hi = trunc i64 %hi64 to i32
  %shi = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %hi, i32 %off, i32 31)
  %zhi = zext i32 %shi to i64
  %sh = shl nuw i64 %zhi, 32
  %lo = trunc i64 %bits to i32
  %slo = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %lo, i32 %off, i32 31)
  %zlo = zext i32 %slo to i64
  %or = or i64 %sh, %zlo
  %r = bitcast i64 %or to double
  %m = call i32 @llvm.nvvm.activemask()
  %idx = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %m, i32 %n, i32 0, i32 31)
  %fb = bitcast float %v to i32
  %odd = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %fb, i32 1, i32 31)
  ret float %a
}
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.activemask()
)";

namespace {
WarpAction actionOf(const std::vector<WarpIntrinsicUse> &Uses, StringRef Name,
                    unsigned &Calls) {
  for (const WarpIntrinsicUse &U : Uses)
    if (U.Intrinsic == Name) {
      Calls = U.Calls;
      return U.Action;
    }
  FAIL("no use of " << Name.str());
  return WarpAction::Left;
}
} // namespace

TEST_CASE("findWarpIntrinsics says what the pass does with each call",
          "[WarpShuffleRules]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, Warp);
  std::vector<WarpIntrinsicUse> Uses = findWarpIntrinsics(*M);
  unsigned Calls = 0;
  CHECK(actionOf(Uses, "llvm.nvvm.shfl.sync.down.f32", Calls) ==
        WarpAction::Rule);
  // The two words of a double: one shuffle of the double.
  CHECK(actionOf(Uses, "llvm.nvvm.shfl.sync.down.i32", Calls) ==
        WarpAction::Rule);
  CHECK(Calls == 2);
  CHECK(actionOf(Uses, "llvm.nvvm.shfl.sync.idx.i32", Calls) ==
        WarpAction::Inactive);
  CHECK(actionOf(Uses, "llvm.nvvm.activemask", Calls) == WarpAction::Inactive);
  // A float's bits shuffled alone: not recognised, left for Enzyme.
  CHECK(actionOf(Uses, "llvm.nvvm.shfl.sync.bfly.i32", Calls) ==
        WarpAction::Left);
  LLVMContext Ctx2;
  CHECK(findWarpIntrinsics(*parseModule(Ctx2, "define void @g() {\n"
                                              "  ret void\n}\n"))
            .empty());
}

TEST_CASE("the pass gives helpers registered rules; finalizing undoes the "
          "registration",
          "[WarpShuffleRules]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, Warp);
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  WarpShuffleRulesPass().run(*M, MAM);
  CHECK_FALSE(verifyModule(*M, &errs()));
  CHECK(registersEnzymeRules(*M));
  // Constants are part of the helper; the variable b is passed.
  Function *F32 = M->getFunction("__irs_shfl_down_f32_m4294967295_b1_c31");
  REQUIRE(F32);
  CHECK(F32->arg_size() == 1);
  CHECK(F32->hasFnAttribute(Attribute::NoInline));
  Function *F64 = M->getFunction("__irs_shfl_down_f64_m4294967295_c31");
  REQUIRE(F64);
  CHECK(F64->arg_size() == 2);
  // Enzyme passes the variable integer twice to each rule.
  Function *Rev = M->getFunction("__irs_shfl_down_f64_m4294967295_c31_rev");
  REQUIRE(Rev);
  CHECK(Rev->arg_size() == 4); // v, off, off', the adjoint
  CHECK(M->getNamedGlobal(
      "__enzyme_register_gradient___irs_shfl_down_f64_m4294967295_c31"));
  // No integer shuffle of the double's words is left.
  CHECK(findWarpIntrinsics(*M).size() == 3); // idx, activemask, bfly
  // A second run changes nothing.
  size_t Functions = M->size();
  WarpShuffleRulesPass().run(*M, MAM);
  CHECK(M->size() == Functions);

  CHECK(finalizeWarpRules(*M));
  CHECK_FALSE(registersEnzymeRules(*M));
  CHECK_FALSE(F32->hasFnAttribute(Attribute::NoInline));
  CHECK(F32->hasInternalLinkage());
  CHECK_FALSE(verifyModule(*M, &errs()));
}
