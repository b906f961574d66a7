#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ToolError.h"

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
