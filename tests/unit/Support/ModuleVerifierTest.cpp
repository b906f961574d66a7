#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("verifierProblem is one line, or none for a valid module",
          "[ModuleVerifier]") {
  LLVMContext Ctx;
  auto Good = parseModule(Ctx, "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n");
  CHECK_FALSE(verifierProblem(*Good));
  CHECK_FALSE(errorToBool(verifyModuleOrError(*Good, "the module")));
  // A block without a terminator, made after parsing (the parser refuses it).
  auto Bad = parseModule(Ctx, "define void @g() {\n  ret void\n}\n");
  Bad->getFunction("g")->getEntryBlock().getTerminator()->eraseFromParent();
  std::optional<std::string> Problem = verifierProblem(*Bad);
  REQUIRE(Problem);
  CHECK(Problem->find('\n') == std::string::npos);
  Error E = verifyModuleOrError(*Bad, "the rewritten module");
  std::string Msg;
  handleAllErrors(std::move(E), [&](const ToolError &TE) {
    CHECK(TE.code() == ExitCode::VerifierFailed);
    Msg = TE.message();
  });
  CHECK(Msg.find("the rewritten module failed the LLVM verifier") == 0);
}

TEST_CASE("verifierProblem names a !tbaa tag LLVM's verifier would crash on",
          "[ModuleVerifier]") {
  LLVMContext Ctx;
  // Attached after parsing: the parser's !tbaa upgrade crashes on it.
  auto M = parseModule(Ctx, "define void @f(ptr %p) {\n"
                            "  %x = load i32, ptr %p\n"
                            "  ret void\n}\n");
  auto &Load = cast<LoadInst>(M->getFunction("f")->front().front());
  Load.setMetadata(LLVMContext::MD_tbaa, MDNode::get(Ctx, {nullptr}));
  std::optional<std::string> Problem = verifierProblem(*M);
  REQUIRE(Problem);
  CHECK(*Problem == "a !tbaa tag in @f has no first operand, or reaches a "
                    "null one");
  CHECK(crashesTBAAUpgrade(*Load.getMetadata(LLVMContext::MD_tbaa)));
}

TEST_CASE("a gc.relocate indexing past its statepoint's live values is named, "
          "not verified",
          "[ModuleVerifier]") {
  LLVMContext Ctx;
  auto M = parseModule(
      Ctx,
      "declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, "
      "i32, ...)\n"
      "declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, "
      "i32)\n"
      "declare void @foo()\n"
      "define ptr addrspace(1) @f(ptr addrspace(1) %a) gc "
      "\"statepoint-example\" {\n"
      "  %t = call token (i64, i32, ptr, i32, i32, ...) "
      "@llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void "
      "()) @foo, i32 0, i32 0, i32 0, i32 0) [ \"gc-live\"(ptr addrspace(1) "
      "%a) ]\n"
      "  %r = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token "
      "%t, i32 0, i32 0)\n"
      "  ret ptr addrspace(1) %r\n}\n");
  Function &F = *M->getFunction("f");
  CHECK(functionVerifies(F));
  CHECK_FALSE(verifierProblem(*M));
  // Made after parsing, the way a rewrite could: one past the live values.
  auto &Relocate = cast<CallInst>(*std::next(F.front().begin()));
  Relocate.setArgOperand(2, ConstantInt::get(Type::getInt32Ty(Ctx), 1));
  CHECK_FALSE(functionVerifies(F));
  std::optional<std::string> Problem = verifierProblem(*M);
  REQUIRE(Problem);
  CHECK(*Problem == "a gc.relocate in @f is not tied to a statepoint, or "
                    "indexes past its live values");
}
