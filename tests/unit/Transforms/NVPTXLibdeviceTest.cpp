#include "ir-sanitize/Transforms/NVPTXLibdevice.h"
#include "../TestSupport.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

// Enzyme writes d tanh(x) with llvm.cosh; NVPTX has no lowering for it.
static const char *Kernel = R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %x = load float, ptr addrspace(1) %p
  %c = call float @llvm.cosh.f32(float %x)
  %s = call float @llvm.sqrt.f32(float %c)
  store float %s, ptr addrspace(1) %p
  %y = load double, ptr addrspace(1) %q
  %e = call double @llvm.pow.f64(double %y, double %y)
  store double %e, ptr addrspace(1) %q
  ret void
}
declare float @llvm.cosh.f32(float)
declare float @llvm.sqrt.f32(float)
declare double @llvm.pow.f64(double, double)
)";

// A libdevice of three functions, one the kernel does not call.
static const char *FakeLibdevice = R"(
target triple = "nvptx64-nvidia-gpulibs"
define float @__nv_coshf(float %x) {
  ret float %x
}
define double @__nv_pow(double %x, double %y) {
  ret double %y
}
define float @__nv_unused(float %x) {
  ret float %x
}
)";

TEST_CASE("math intrinsics NVPTX cannot lower become libdevice calls",
          "[NVPTXLibdevice]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, Kernel);
  REQUIRE(M);
  CHECK_FALSE(needsLibdevice(*M));
  CHECK(lowerMathIntrinsics(*M) == 2);
  CHECK(needsLibdevice(*M));
  CHECK(M->getFunction("__nv_coshf"));
  CHECK(M->getFunction("__nv_pow"));
  CHECK_FALSE(M->getFunction("llvm.cosh.f32"));
  CHECK(M->getFunction("llvm.sqrt.f32")); // NVPTX has sqrt
  CHECK(lowerMathIntrinsics(*M) == 0);
}

TEST_CASE("the pass links what the module calls from the file it names",
          "[NVPTXLibdevice]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> Lib = parseModule(Ctx, FakeLibdevice);
  REQUIRE(Lib);
  SmallString<128> LibPath;
  int FD;
  REQUIRE_FALSE(
      sys::fs::createTemporaryFile("irs-libdevice", "bc", FD, LibPath));
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    WriteBitcodeToFile(*Lib, OS);
  }
  std::unique_ptr<Module> M = parseModule(Ctx, Kernel);
  REQUIRE(M);
  std::string Text =
      "ir-sanitize-nvptx-libdevice<path=" + escapePassParameter(LibPath) + ">";
  CHECK_FALSE(errorToBool(runPipeline(*M, Text)));
  sys::fs::remove(LibPath);
  CHECK_FALSE(verifyModule(*M, &errs()));
  for (const char *Name : {"__nv_coshf", "__nv_pow"}) {
    INFO(Name);
    Function *F = M->getFunction(Name);
    REQUIRE(F);
    CHECK_FALSE(F->isDeclaration());
    CHECK(F->hasInternalLinkage()); // so that default<On> inlines it
  }
  CHECK_FALSE(M->getFunction("__nv_unused"));
  CHECK(compat::moduleTriple(*M).str() == "nvptx64-nvidia-cuda");
}

TEST_CASE("a module that needs libdevice fails without it, naming the file",
          "[NVPTXLibdevice]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, Kernel);
  REQUIRE(M);
  std::string Message =
      toString(runPipeline(*M, "ir-sanitize-nvptx-libdevice"));
  CHECK(Message.find("libdevice.10.bc was not found") != std::string::npos);

  std::unique_ptr<Module> M2 = parseModule(Ctx, Kernel);
  REQUIRE(M2);
  Message = toString(runPipeline(
      *M2, "ir-sanitize-nvptx-libdevice<path=/nonexistent/libdevice.10.bc>"));
  CHECK(Message.find("/nonexistent/libdevice.10.bc") != std::string::npos);

  // Nothing to lower, nothing to link: no file needed.
  std::unique_ptr<Module> Plain =
      parseModule(Ctx, "define float @f(float %x) {\n  ret float %x\n}\n");
  REQUIRE(Plain);
  CHECK_FALSE(errorToBool(runPipeline(*Plain, "ir-sanitize-nvptx-libdevice")));
}
