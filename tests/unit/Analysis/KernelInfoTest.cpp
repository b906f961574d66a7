#include "ir-sanitize/Analysis/KernelInfo.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <catch2/catch.hpp>

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
