#include "ir-sanitize/Analysis/KernelInfo.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

TEST_CASE("Kernels are found by calling convention and nvvm.annotations",
          "[KernelInfo]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString(R"(
define ptx_kernel void @ptx() { ret void }
define amdgpu_kernel void @amd() { ret void }
define spir_kernel void @spir() { ret void }
define void @annotated() { ret void }
define void @bounds_only() { ret void }
define void @plain() { ret void }
declare ptx_kernel void @declared()
!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @annotated, !"maxntidx", i32 64, !"kernel", i32 1}
!1 = !{ptr @bounds_only, !"maxntidx", i32 64}
!2 = !{ptr @plain, !"kernel", i32 0}
)",
                               Err, Ctx);
  REQUIRE(M);
  SmallVector<std::string> Names;
  for (Function *F : findKernels(*M))
    Names.push_back(F->getName().str());
  CHECK(Names == SmallVector<std::string>{"ptx", "amd", "spir", "annotated"});
  CHECK(isKernel(*M->getFunction("annotated")));
  CHECK(isKernel(*M->getFunction("declared")));
  CHECK_FALSE(isKernel(*M->getFunction("bounds_only")));
  CHECK_FALSE(isKernel(*M->getFunction("plain")));
}

TEST_CASE("nvvm.annotations values are read, malformed pairs skipped",
          "[KernelInfo]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString("define void @k() { ret void }\n"
                               "define void @other() { ret void }\n",
                               Err, Ctx);
  REQUIRE(M);
  // Built here, not parsed: LLVM 21+ upgrades parsed launch bounds into
  // attributes.
  Function *K = M->getFunction("k");
  auto I32 = [&](uint64_t V) -> Metadata * {
    return ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), V));
  };
  auto Key = [&](StringRef S) -> Metadata * { return MDString::get(Ctx, S); };
  auto Fn = [&](StringRef Name) -> Metadata * {
    return ValueAsMetadata::get(M->getFunction(Name));
  };
  NamedMDNode *NMD = M->getOrInsertNamedMetadata("nvvm.annotations");
  NMD->addOperand(
      MDNode::get(Ctx, {Fn("k"), nullptr, I32(7), Key("maxntidx"), Key("x")}));
  NMD->addOperand(MDNode::get(Ctx, {nullptr, Key("maxntidx"), I32(9)}));
  NMD->addOperand(MDNode::get(
      Ctx, {Fn("k"), Key("maxntidx"), I32(256), Key("minctasm"), I32(2)}));
  NMD->addOperand(MDNode::get(Ctx, {Fn("other"), Key("maxntidx"), I32(64)}));
  CHECK(nvvmAnnotation(*K, "maxntidx") == 256u);
  CHECK(nvvmAnnotation(*K, "minctasm") == 2u);
  CHECK_FALSE(nvvmAnnotation(*K, "maxntidy"));
  CHECK(nvvmAnnotation(*M->getFunction("other"), "maxntidx") == 64u);
  CHECK_FALSE(isKernel(*K));
}

TEST_CASE("nvvm.annotations entries of a function are listed, copied, dropped",
          "[KernelInfo]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString("define void @k() { ret void }\n"
                               "define void @other() { ret void }\n"
                               "define void @copy() { ret void }\n",
                               Err, Ctx);
  REQUIRE(M);
  // Added here, not parsed: LLVM 21+ upgrades parsed entries into the
  // ptx_kernel calling convention and attributes.
  Function &K = *M->getFunction("k");
  Function &Copy = *M->getFunction("copy");
  addNVVMAnnotation(K, "kernel", 1);
  addNVVMAnnotation(*M->getFunction("other"), "kernel", 1);
  addNVVMAnnotation(K, "maxntidx", 256);
  M->getNamedMetadata("nvvm.annotations")->addOperand(MDNode::get(Ctx, {}));
  CHECK(nvvmAnnotationsOf(K).size() == 2);
  CHECK(nvvmAnnotationsOf(Copy).empty());
  CHECK(isKernel(K));

  copyNVVMAnnotations(K, Copy);
  CHECK(isKernel(Copy));
  CHECK(nvvmAnnotation(Copy, "maxntidx") == 256u);

  dropNVVMAnnotations(K);
  CHECK(nvvmAnnotationsOf(K).empty());
  CHECK_FALSE(isKernel(K));
  CHECK(isKernel(*M->getFunction("other")));
  // The other function's entries, the copies and the malformed entry stay.
  CHECK(M->getNamedMetadata("nvvm.annotations")->getNumOperands() == 4);
}

TEST_CASE("looksLikeNVPTX: a ptx_kernel, an nvvm intrinsic or annotations",
          "[KernelInfo]") {
  LLVMContext Ctx;
  auto Has = [&](const char *IR) {
    SMDiagnostic Err;
    std::unique_ptr<Module> M = parseAssemblyString(IR, Err, Ctx);
    REQUIRE(M);
    return looksLikeNVPTX(*M);
  };
  CHECK(Has("define ptx_kernel void @k() { ret void }"));
  CHECK(Has("declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()"));
  CHECK(Has("define void @k() { ret void }\n"
            "!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !\"kernel\", i32 1}"));
  CHECK_FALSE(Has("define void @f() { ret void }"));
  CHECK_FALSE(Has("define amdgpu_kernel void @k() { ret void }"));
}
