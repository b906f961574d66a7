#include "../GPU/GPUTestSupport.h"
#include "../GPU/LaunchSpecSample.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/GPUCheck.h"
#include "ir-sanitize/GPU/PTXEmitter.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "../../../src/Driver/GPUCheckStages.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace irs::test;
using namespace irs;

namespace {
const char *const CopyKernel = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %v = load float, ptr addrspace(1) %in
  store float %v, ptr addrspace(1) %out
  ret void
}
)";
} // namespace

TEST_CASE("without Enzyme the plan holds the primal check and says why",
          "[GPUCheck]") {
  LLVMContext Ctx;
  SMDiagnostic Diag;
  const char *IR = CopyKernel;
  auto Original = parseAssemblyString(IR, Diag, Ctx);
  auto Splatted = parseAssemblyString(IR, Diag, Ctx);
  REQUIRE(Original);
  REQUIRE(Splatted);
  KernelManifest K = describeUnsplattedKernel(*Original->getFunction("k"));
  auto V = json::parse(R"({"threads": 1,
    "buffers": {"out": {"type": "f32", "count": 1, "output": true},
                "in": {"type": "f32", "count": 1, "wrt": true}},
    "args": {"0": "buffer:out", "1": "buffer:in"}})");
  REQUIRE(static_cast<bool>(V));
  auto S = LaunchSpec::fromJSON(*V, "spec.json");
  REQUIRE(static_cast<bool>(S));
  REQUIRE(S->DerivativeChecks);
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-gpucheck", Dir));
  GPUCheckOptions Opts;
  Opts.EmitDir = std::string(Dir);
  Opts.PTX.Arch = "sm_80";
  CollectingDiagnosticHandler Diags;
  Opts.Diags = &Diags;
  Expected<RunPlan> P = prepareGPUCheck(*Original, *Splatted, K, *S, Opts,
                                        "no Enzyme plugin found");
  REQUIRE(static_cast<bool>(P));
  CHECK_FALSE(P->Launch.DerivativeChecks);
  CHECK(P->DerivativesSkipped == "no Enzyme plugin found");
  REQUIRE(P->Kernels.size() == 2);
  CHECK(P->Kernels[1].Role == KernelRole::Splat);
  CHECK(sys::fs::exists(Dir + "/splat.ptx"));
  CHECK_FALSE(sys::fs::exists(Dir + "/derivatives.ptx"));
  // Each step as progress, through the handler.
  std::vector<std::string> Steps = Diags.of(irs::DiagnosticKind::Progress);
  REQUIRE(Steps.size() == 3);
  CHECK(Steps[0].rfind("wrote " + std::string(Dir) + "/original.ptx (", 0) ==
        0);
  CHECK(Steps[2] == "wrote " + std::string(Dir) + "/plan.json");
  auto Text = MemoryBuffer::getFile(Dir + "/plan.json");
  REQUIRE(Text);
  CHECK((*Text)->getBuffer().contains(
      "\"checks\": \"primal\",\n  \"skipped\": \"no Enzyme plugin found\""));
  sys::fs::remove_directories(Dir);
}

TEST_CASE("the stages shown are the ones prepareGPUCheck runs, in order",
          "[GPUCheck]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, CopyKernel);
  KernelManifest K = describeUnsplattedKernel(*M->getFunction("k"));
  auto S = parse(R"({"threads": 1, "buffers": [
      {"name": "out", "type": "f32", "count": 1, "output": true},
      {"name": "in", "type": "f32", "count": 1, "wrt": true}],
      "args": {"0": "buffer:out", "1": "buffer:in"}})");
  REQUIRE(static_cast<bool>(S));
  GPUCheckOptions Opts;
  Opts.PTX.Arch = "sm_80";
  Opts.EnzymePlugin = "LLVMEnzyme-19.so";
  auto Outputs = [&](bool Derivatives) {
    auto Stages = shownCheckStages(*M, K, *S, Derivatives, Opts);
    REQUIRE(static_cast<bool>(Stages));
    std::vector<std::string> Names;
    for (const PipelineStage &Stage : *Stages)
      Names.push_back(Stage.Output);
    return Names;
  };
  CHECK(Outputs(false) ==
        std::vector<std::string>{"original.ptx", "splat.ptx"});
  CHECK(Outputs(true) == std::vector<std::string>{"original.ptx", "splat.ptx",
                                                  "derivatives.input.ll",
                                                  "derivatives.enzyme.ll",
                                                  "derivatives.ptx"});
  CHECK(kernelIn(*M, "k") == M->getFunction("k"));
  CHECK(kernelIn(*M, "nope") == nullptr);
}
