#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

bool verifies(const Module &M) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  bool Broken = verifyModule(M, &OS);
  INFO(OS.str());
  return !Broken;
}

/// The single __enzyme_* call in \p F.
CallInst *enzymeCall(Function &F) {
  for (Instruction &I : F.getEntryBlock())
    if (auto *CI = dyn_cast<CallInst>(&I))
      return CI;
  return nullptr;
}

std::string markerAt(const CallInst &CI, unsigned Arg) {
  auto *MAV = dyn_cast<MetadataAsValue>(CI.getArgOperand(Arg));
  if (!MAV)
    return "";
  auto *S = dyn_cast<MDString>(MAV->getMetadata());
  return S ? S->getString().str() : "";
}

const char *HostIR = R"(
define double @f(double %x, ptr noalias readonly %buf, i64 %n) #0 {
  %v = load double, ptr %buf
  %y = fmul double %x, %v
  ret double %y
}
attributes #0 = { nounwind memory(argmem: read) }
)";

// Old-style NVPTX module: the kernel is marked in !nvvm.annotations only.
const char *AnnotatedKernelIR = R"(
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr addrspace(1) %dest, ptr addrspace(1) %x, float %a) {
  %v = load float, ptr addrspace(1) %x
  %w = fmul float %v, %a
  store float %w, ptr addrspace(1) %dest
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @k, !"maxntidx", i32 256}
)";

} // namespace

TEST_CASE("forward wrapper: primal params each followed by its shadow",
          "[DerivativeWrapper]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  Function &F = *M->getFunction("f");
  auto G = generateDerivativeWrapper(
      *M, F, DiffMode::Forward,
      {Activity::Dup, Activity::Dup, Activity::Const});
  REQUIRE(static_cast<bool>(G));
  CHECK(G->Wrapper->getName() == "f.fwd");
  CHECK(G->Primal->getName() == "f.primal");
  CHECK(G->Primal->hasInternalLinkage());
  REQUIRE(G->Wrapper->arg_size() == 5);
  CHECK(G->Wrapper->getArg(1)->getName() == "x.shadow");
  CHECK(G->Wrapper->getArg(3)->getName() == "buf.shadow");
  CHECK(G->Params[3].PrimalIndex == 1);
  CHECK(G->Params[3].IsShadow);
  CHECK(G->Wrapper->getReturnType()->isDoubleTy());
  // The shadow is written by the derivative: the primal's readonly and the
  // function's memory(argmem: read) must not carry over; noalias may.
  CHECK_FALSE(G->Wrapper->hasParamAttribute(3, Attribute::ReadOnly));
  CHECK(G->Wrapper->hasParamAttribute(3, Attribute::NoAlias));
  CHECK_FALSE(G->Wrapper->hasFnAttribute(Attribute::Memory));
  CHECK(G->Wrapper->hasFnAttribute(Attribute::NoUnwind));

  CallInst *CI = enzymeCall(*G->Wrapper);
  REQUIRE(CI);
  CHECK(CI->getCalledOperand()->getName() == "__enzyme_fwddiff");
  CHECK(CI->getArgOperand(0) == G->Primal);
  CHECK(markerAt(*CI, 1) == "enzyme_dup");
  CHECK(CI->getArgOperand(2) == G->Wrapper->getArg(0));
  CHECK(CI->getArgOperand(3) == G->Wrapper->getArg(1));
  CHECK(markerAt(*CI, 4) == "enzyme_dup");
  CHECK(markerAt(*CI, 7) == "enzyme_const");
  CHECK(CI->getArgOperand(8) == G->Wrapper->getArg(4));
  CHECK(verifies(*M));
}

TEST_CASE("reverse wrapper returns the gradients of the out arguments",
          "[DerivativeWrapper]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  Function &F = *M->getFunction("f");
  auto G = generateDerivativeWrapper(
      *M, F, DiffMode::Reverse,
      {Activity::Out, Activity::DupNoNeed, Activity::Const});
  REQUIRE(static_cast<bool>(G));
  CHECK(G->Wrapper->getName() == "f.rev");
  CHECK(G->Wrapper->getReturnType()->isDoubleTy());
  CHECK(G->Wrapper->arg_size() == 4);
  CallInst *CI = enzymeCall(*G->Wrapper);
  REQUIRE(CI);
  CHECK(CI->getCalledOperand()->getName() == "__enzyme_autodiff");
  CHECK(markerAt(*CI, 1) == "enzyme_out");
  CHECK(markerAt(*CI, 3) == "enzyme_dupnoneed");
  CHECK(verifies(*M));

  // Two outs: a struct of both gradients.
  auto M2 = parseModule(Ctx, "define double @g(double %a, float %b) {\n"
                             "  ret double %a\n}\n");
  auto G2 =
      generateDerivativeWrapper(*M2, *M2->getFunction("g"), DiffMode::Reverse,
                                {Activity::Out, Activity::Out});
  REQUIRE(static_cast<bool>(G2));
  auto *ST = dyn_cast<StructType>(G2->Wrapper->getReturnType());
  REQUIRE(ST);
  CHECK(ST->getNumElements() == 2);
  CHECK(ST->getElementType(1)->isFloatTy());
  CHECK(verifies(*M2));
}

TEST_CASE("kernel wrappers are kernels the way the original is",
          "[DerivativeWrapper]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, AnnotatedKernelIR);
  Function &K = *M->getFunction("k");
  auto G = generateDerivativeWrapper(
      *M, K, DiffMode::Reverse,
      {Activity::Dup, Activity::Const, Activity::Const});
  REQUIRE(static_cast<bool>(G));
  CHECK(G->Wrapper->getCallingConv() == K.getCallingConv());
  CHECK(G->Primal->getCallingConv() == CallingConv::C);
  NamedMDNode *NMD = M->getNamedMetadata("nvvm.annotations");
  if (!NMD || NMD->getNumOperands() == 0) {
    // LLVM 20+ reads the annotations as the ptx_kernel convention and a
    // "nvvm.maxntid" attribute: the wrapper has both from NAME.
    REQUIRE(K.hasFnAttribute("nvvm.maxntid"));
    CHECK(K.getCallingConv() == CallingConv::PTX_Kernel);
    CHECK(G->Wrapper->getFnAttribute("nvvm.maxntid") ==
          K.getFnAttribute("nvvm.maxntid"));
    CHECK(verifies(*M));
    return;
  }
  REQUIRE(NMD->getNumOperands() == 4);
  auto FnOf = [&](unsigned I) {
    return cast<ValueAsMetadata>(NMD->getOperand(I)->getOperand(0))->getValue();
  };
  CHECK(FnOf(2) == G->Wrapper);
  CHECK(FnOf(3) == G->Wrapper);
  CHECK(cast<MDString>(NMD->getOperand(3)->getOperand(1))->getString() ==
        "maxntidx");
  // The copy Enzyme differentiates is no kernel.
  for (unsigned I = 0; I < NMD->getNumOperands(); ++I)
    CHECK(FnOf(I) != G->Primal);
  CHECK(verifies(*M));
}

TEST_CASE("kernel wrappers keep the kernel calling convention",
          "[DerivativeWrapper]") {
  LLVMContext Ctx;
  auto PTX =
      parseModule(Ctx, "define ptx_kernel void @p(ptr %a) {\n  ret void\n}\n");
  auto GP = generateDerivativeWrapper(*PTX, *PTX->getFunction("p"),
                                      DiffMode::Forward, {Activity::Dup});
  REQUIRE(static_cast<bool>(GP));
  CHECK(GP->Wrapper->getCallingConv() == CallingConv::PTX_Kernel);
  CHECK(GP->Primal->getCallingConv() == CallingConv::C);
  CHECK(verifies(*PTX));
}

TEST_CASE("wrapper generation refuses what cannot work",
          "[DerivativeWrapper]") {
  LLVMContext Ctx;
  auto M =
      parseModule(Ctx, std::string(HostIR) + "declare double @ext(double)\n" +
                           "define double @f.fwd() {\n  ret double 0.0\n}\n");
  auto Code = [](auto &&Expected) {
    ExitCode C = ExitCode::Ok;
    handleAllErrors(Expected.takeError(),
                    [&](const ToolError &TE) { C = TE.code(); });
    return C;
  };
  CHECK(Code(generateDerivativeWrapper(*M, *M->getFunction("ext"),
                                       DiffMode::Forward, {Activity::Dup})) ==
        ExitCode::Usage);
  CHECK(Code(generateDerivativeWrapper(*M, *M->getFunction("f"),
                                       DiffMode::Reverse, {Activity::Dup})) ==
        ExitCode::Usage);
  // f.fwd is taken.
  CHECK(Code(generateDerivativeWrapper(
            *M, *M->getFunction("f"), DiffMode::Forward,
            {Activity::Dup, Activity::Dup, Activity::Const})) ==
        ExitCode::Usage);
  CHECK(Code(generateDerivativeWrapper(
            *M, *M->getFunction("f"), DiffMode::Forward,
            {Activity::Out, Activity::Dup, Activity::Const})) ==
        ExitCode::Usage);
}

TEST_CASE("messages name the function, not its internal copy",
          "[DerivativeWrapper]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  auto G = generateDerivativeWrapper(
      *M, *M->getFunction("f"), DiffMode::Forward,
      {Activity::Dup, Activity::Dup, Activity::Const});
  REQUIRE(static_cast<bool>(G));
  CHECK(G->Primal->getName() == primalCopyName("f"));
  CHECK(userFacingName(*M, G->Primal->getName()) == "f");
  CHECK(userFacingName(*M, "f") == "f");
  // Only a copy of a function the module defines is renamed.
  CHECK(userFacingName(*M, "g.primal") == "g.primal");
}
