#include "../TestSupport.h"
#include "GPUTestSupport.h"

#include "ir-sanitize/GPU/PTXEmitter.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/NVPTXLibdevice.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// Runs ptxas on \p PTX when the CUDA Toolkit has one; "" means it accepted
/// the PTX, "SKIPPED" that there is no ptxas.
std::string assembleWithPtxas(const std::string &PTX, StringRef Arch) {
  std::string Ptxas = "/usr/local/cuda/bin/ptxas";
  if (!sys::fs::can_execute(Ptxas))
    return "SKIPPED";
  SmallString<128> In, Out, Err;
  int FD;
  REQUIRE(!sys::fs::createTemporaryFile("irs-ptx", "ptx", FD, In));
  {
    raw_fd_ostream OS(FD, true);
    OS << PTX;
  }
  REQUIRE(!sys::fs::createTemporaryFile("irs-ptx", "cubin", Out));
  REQUIRE(!sys::fs::createTemporaryFile("irs-ptx", "log", Err));
  std::string ArchFlag = ("-arch=" + Arch).str();
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(Err),
                                          StringRef(Err)};
  int RC = sys::ExecuteAndWait(Ptxas, {Ptxas, ArchFlag, In, "-o", Out},
                               std::nullopt, Redirects);
  auto Log = MemoryBuffer::getFile(Err);
  std::string Result =
      RC == 0 ? "" : "ptxas failed: " + (Log ? (*Log)->getBuffer().str() : "");
  for (StringRef P : {StringRef(In), StringRef(Out), StringRef(Err)})
    sys::fs::remove(P);
  return Result;
}

void checkAssembles(const std::string &PTX, StringRef Arch) {
  std::string R = assembleWithPtxas(PTX, Arch);
  if (R == "SKIPPED")
    skip("no /usr/local/cuda/bin/ptxas, PTX not assembled");
  else
    CHECK(R == "");
}

} // namespace

TEST_CASE("minimum PTX versions follow the architecture", "[PTXEmitter]") {
  CHECK(minimumPTXVersion("sm_90") == 78u);
  CHECK(minimumPTXVersion("sm_80") == 70u);
  CHECK(minimumPTXVersion("sm_90a") == 80u);
  CHECK_FALSE(minimumPTXVersion("sm_91"));
  CHECK_FALSE(minimumPTXVersion("gfx90a"));
}

TEST_CASE("a broadcast kernel compiles to PTX that ptxas accepts",
          "[PTXEmitter]") {
  LLVMContext Ctx;
  auto M = loadExample("kernels/bcast_add_1d.ll", Ctx);
  uint64_t BcSize = M->getDataLayout().getTypeAllocSize(
      M->getFunction("_Z16broadcast_kernel_add_1d")->getArg(2)->getType());
  auto PTX = emitPTX(*M, PTXOptions());
  REQUIRE(static_cast<bool>(PTX));
  CHECK(PTX->find(".version 7.8") != std::string::npos);
  CHECK(PTX->find(".target sm_90") != std::string::npos);
  CHECK(PTX->find(".entry _Z16broadcast_kernel_add_1d") != std::string::npos);
  // The aggregate parameter stays one by-value .param of its full size.
  CHECK(PTX->find(".param .align 8 .b8 _Z16broadcast_kernel_add_1d_param_2[" +
                  std::to_string(BcSize) + "]") != std::string::npos);
  checkAssembles(*PTX, "sm_90");

  PTXOptions Old;
  Old.Arch = "sm_80";
  auto M2 = loadExample("kernels/bcast_add_1d.ll", Ctx);
  auto PTX80 = emitPTX(*M2, Old);
  REQUIRE(static_cast<bool>(PTX80));
  CHECK(PTX80->find(".version 7.0") != std::string::npos);
  checkAssembles(*PTX80, "sm_80");
}

TEST_CASE("libdevice calls are linked in and internalised", "[PTXEmitter]") {
  if (findLibdevice().empty())
    IRS_SKIP("libdevice.10.bc not found");
  LLVMContext Ctx;
  SMDiagnostic Diag;
  auto M = parseAssemblyString(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %x = load float, ptr addrspace(1) %p
  %t = call float @__nv_tanhf(float %x)
  store float %t, ptr addrspace(1) %p
  ret void
}
declare float @__nv_tanhf(float)
)",
                               Diag, Ctx);
  REQUIRE(M);
  REQUIRE(needsLibdevice(*M));
  auto PTX = emitPTX(*M, PTXOptions());
  REQUIRE(static_cast<bool>(PTX));
  CHECK(PTX->find("__nv_tanhf") == std::string::npos); // inlined, no extern
  CHECK(PTX->find("tanh.approx") == std::string::npos);
  checkAssembles(*PTX, "sm_90");

  PTXOptions Missing;
  Missing.LibdevicePath = "/nonexistent/libdevice.10.bc";
  auto M2 = parseAssemblyString(
      "target triple = \"nvptx64-nvidia-cuda\"\n"
      "define float @f(float %x) {\n %t = call float @__nv_expf(float %x)\n"
      " ret float %t\n}\ndeclare float @__nv_expf(float)\n",
      Diag, Ctx);
  REQUIRE(M2);
  auto Bad = emitPTX(*M2, Missing);
  REQUIRE_FALSE(static_cast<bool>(Bad));
  CHECK(toString(Bad.takeError()).find("/nonexistent/libdevice.10.bc") !=
        std::string::npos);
}

TEST_CASE("PTX generation rejects other targets and unknown architectures",
          "[PTXEmitter]") {
  LLVMContext Ctx;
  SMDiagnostic Diag;
  auto Host = parseAssemblyString(
      "target triple = \"x86_64-unknown-linux-gnu\"\ndefine void @f() {\n"
      "  ret void\n}\n",
      Diag, Ctx);
  REQUIRE(Host);
  auto E = emitPTX(*Host, PTXOptions());
  REQUIRE_FALSE(static_cast<bool>(E));
  CHECK(toString(E.takeError()).find("not NVPTX") != std::string::npos);

  auto M = loadExample("kernels/bcast_add_1d.ll", Ctx);
  PTXOptions Bad;
  Bad.Arch = "sm_91";
  auto U = emitPTX(*M, Bad);
  REQUIRE_FALSE(static_cast<bool>(U));
  CHECK(codeOf(U.takeError()) == ExitCode::Usage);
}

TEST_CASE("functions neither the module nor the driver provides are named",
          "[PTXEmitter]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModule(Ctx, R"(
target triple = "nvptx64-nvidia-cuda"
declare i32 @julia_exception_flag()
declare void @gpu_report_exception(i64)
declare void @unused_declaration()
declare ptr @malloc(i64)
declare void @free(ptr)
declare i32 @vprintf(ptr, ptr)
declare void @__assertfail(ptr, ptr, i32, ptr, i64)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %f = call i32 @julia_exception_flag()
  call void @gpu_report_exception(i64 0)
  %h = call ptr @malloc(i64 4)
  call void @free(ptr %h)
  %n = call i32 @vprintf(ptr null, ptr null)
  call void @__assertfail(ptr null, ptr null, i32 0, ptr null, i64 1)
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  store i32 %t, ptr addrspace(1) %p
  ret void
}
)");
  CHECK(
      unresolvedCallees(*M) ==
      std::vector<std::string>{"julia_exception_flag", "gpu_report_exception"});

  Expected<std::string> PTX = emitPTX(*M, PTXOptions());
  REQUIRE_FALSE(bool(PTX));
  std::string Message = toString(PTX.takeError());
  INFO(Message);
  CHECK(StringRef(Message).starts_with("PTX generation: "));
  CHECK(StringRef(Message).contains(
      "(julia_exception_flag, gpu_report_exception)"));

  // Without those calls the driver can load the module as it is.
  for (StringRef Name : {"julia_exception_flag", "gpu_report_exception"})
    for (User *U : make_early_inc_range(M->getFunction(Name)->users())) {
      auto *Call = cast<CallInst>(U);
      Call->replaceAllUsesWith(UndefValue::get(Call->getType()));
      Call->eraseFromParent();
    }
  CHECK(unresolvedCallees(*M).empty());
}

TEST_CASE("math intrinsics Enzyme writes compile through libdevice",
          "[PTXEmitter]") {
  if (findLibdevice().empty())
    IRS_SKIP("libdevice.10.bc not found, not compiled");
  LLVMContext Ctx;
  SMDiagnostic Diag;
  // Enzyme writes d tanh(x) with llvm.cosh; NVPTX has no lowering for it
  // (Transforms/NVPTXLibdeviceTest: the lowering itself).
  auto M = parseAssemblyString(R"(
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %x = load float, ptr addrspace(1) %p
  %c = call float @llvm.cosh.f32(float %x)
  store float %c, ptr addrspace(1) %p
  %y = load double, ptr addrspace(1) %q
  %e = call double @llvm.pow.f64(double %y, double %y)
  store double %e, ptr addrspace(1) %q
  ret void
}
declare float @llvm.cosh.f32(float)
declare double @llvm.pow.f64(double, double)
)",
                               Diag, Ctx);
  REQUIRE(M);
  auto PTX = emitPTX(*M, PTXOptions());
  REQUIRE(static_cast<bool>(PTX));
  CHECK(PTX->find("__nv_") == std::string::npos); // linked and inlined
  checkAssembles(*PTX, "sm_90");
}

TEST_CASE("the PTX pipeline names libdevice and the target's data layout",
          "[PTXEmitter]") {
  PTXOptions Opts;
  Opts.LibdevicePath = "/opt/cuda dir/libdevice.10.bc";
  Opts.Kernels = {"k.1"};
  CHECK(ptxPipeline(Opts, "") ==
        "ir-sanitize-nvptx-libdevice<path=/opt/cuda%20dir/libdevice.10.bc>,"
        "ir-sanitize-nvptx-prepare<kernel=k.1>,default<O2>");
  LLVMContext Ctx;
  auto M = loadExample("kernels/bcast_add_1d.ll", Ctx);
  M->setDataLayout("e-i64:64");
  Expected<std::string> Other = ptxPipelineFor(*M, Opts);
  REQUIRE(static_cast<bool>(Other));
  size_t At = Other->find("datalayout=");
  REQUIRE(At != std::string::npos);
  // A module with the target's layout needs none.
  std::string Target =
      unescapePassParameter(StringRef(*Other).substr(At + 11).split('>').first);
  CHECK(Target != "e-i64:64");
  M->setDataLayout(Target);
  Expected<std::string> Same = ptxPipelineFor(*M, Opts);
  REQUIRE(static_cast<bool>(Same));
  CHECK(Same->find("datalayout=") == std::string::npos);
  // It parses, and prints as it parsed (default<O2> expanded).
  Expected<std::string> Printed = printedPipeline(*Other);
  REQUIRE(static_cast<bool>(Printed));
  CHECK(StringRef(*Printed).starts_with(
      "ir-sanitize-nvptx-libdevice<path=/opt/cuda%20dir/libdevice.10.bc>,"
      "ir-sanitize-nvptx-prepare<kernel=k.1;datalayout=e-"));
}
