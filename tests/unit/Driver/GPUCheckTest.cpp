#include "../GPU/GPUTestSupport.h"

#include "ir-sanitize/Driver/GPUCheck.h"
#include "ir-sanitize/GPU/ArgumentPacking.h"
#include "ir-sanitize/GPU/PTXEmitter.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace irs::test;
using namespace irs;

TEST_CASE("a kernel without aggregates is its own manifest", "[GPUCheck]") {
  LLVMContext Ctx;
  SMDiagnostic Diag;
  auto M = parseAssemblyString(R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %out, float %a, i32 %n) {
  ret void
}
)",
                               Diag, Ctx);
  REQUIRE(M);
  KernelManifest K = describeUnsplattedKernel(*M->getFunction("k"));
  REQUIRE(K.Params.size() == 3);
  REQUIRE(K.OriginalParams.size() == 3);
  CHECK(K.Params[0].Pointer);
  CHECK(K.Params[0].AddrSpace == 1);
  CHECK(K.Params[0].pathString() == "0");
  CHECK(K.Params[1].Type == "float");
  CHECK(K.Params[2].Size == 4);
  CHECK(K.OriginalParams[2].Size == 4);

  // The same spec packs both launches identically.
  auto V = json::parse(R"({"threads": 8, "checks": "primal",
    "buffers": {"out": {"type": "f32", "count": 8, "output": true}},
    "args": {"0": "buffer:out", "1": 2.5, "2": 8}})");
  REQUIRE(static_cast<bool>(V));
  auto S = LaunchSpec::fromJSON(*V, "spec.json");
  REQUIRE(static_cast<bool>(S));
  REQUIRE(test::errorText(validateSpec(*S, K, "spec.json")) == "");
  std::vector<ParamImage> Orig = packOriginalArgs(K, *S);
  std::vector<ParamImage> Splat = sliceSplatArgs(K, Orig);
  for (size_t I = 0; I < 3; ++I)
    CHECK(Orig[I].Bytes == Splat[I].Bytes);
  float A;
  std::memcpy(&A, Orig[1].Bytes.data(), 4);
  CHECK(A == 2.5f);
  CHECK(Orig[0].Relocs.size() == 1);
}

TEST_CASE("runGPUCheck with PrintStages writes nothing and lists the stages",
          "[GPUCheck]") {
  GPUCheckRequest R;
  R.InputPath = sourcePath("examples/kernels/bcast_add_1d.ll");
  R.SpecPath = sourcePath("examples/specs/bcast_add_1d.json");
  R.PrintStages = true;
  R.PluginPath = "/nonexistent/LLVMEnzyme.so";
  CollectingDiagnosticHandler Diags;
  Expected<GPUCheckResult> Result = runGPUCheck(R, Diags);
  REQUIRE(static_cast<bool>(Result));
  CHECK(Result->Dir.empty());
  CHECK(Diags.Messages.empty());
  std::vector<std::string> Outputs;
  for (const PipelineStage &S : Result->Stages)
    Outputs.push_back(S.Output);
  CHECK(Outputs == std::vector<std::string>{"sanitize", "original.ptx",
                                            "splat.ptx", "derivatives.input.ll",
                                            "derivatives.enzyme.ll",
                                            "derivatives.ptx"});
  // libdevice as this machine has it (none: no path), and the NVPTX data
  // layout where this LLVM's differs from the example's (LLVM 22's does).
  std::string Lib = findLibdevice();
  std::string Line = Result->Stages[1].str();
  CHECK(StringRef(Line).starts_with(
      "original.ptx: INPUT | opt -mcpu=sm_90 -mattr=+ptx78 "
      "-passes='ir-sanitize-nvptx-libdevice" +
      (Lib.empty() ? "" : "<path=" + escapePassParameter(Lib) + ">") +
      ",ir-sanitize-nvptx-prepare<kernel=_Z16broadcast_kernel_add_1d"));
  CHECK(StringRef(Line).ends_with(
      ">,default<O2>' | llc -mcpu=sm_90 -mattr=+ptx78 -asm-verbose=false"));
}

TEST_CASE("runGPUCheck with PrintLaunch returns a launch it refuses, and why",
          "[GPUCheck]") {
  GPUCheckRequest R;
  R.InputPath = sourcePath("tests/lit/tools/gpu-check/Inputs/bounds/"
                           "unguarded.ll");
  R.PrintLaunch = true;
  CollectingDiagnosticHandler Diags;
  // 1,024 threads on 1,024 elements: in bounds.
  R.Launch.Dims = {1024};
  Expected<GPUCheckResult> Exact = runGPUCheck(R, Diags);
  REQUIRE(static_cast<bool>(Exact));
  CHECK(Exact->Launch);
  CHECK(!Exact->LaunchRefusal);
  CHECK(Exact->Dir.empty());
  // 1,024 threads on 1,000: the table still comes back, with the refusal.
  R.Launch.Dims = {1000};
  Expected<GPUCheckResult> Over = runGPUCheck(R, Diags);
  REQUIRE(static_cast<bool>(Over));
  REQUIRE(Over->Launch);
  REQUIRE(Over->LaunchRefusal);
  CHECK(Over->LaunchRefusal->code() == ExitCode::BadInput);
  CHECK(StringRef(Over->LaunchRefusal->message())
            .contains("the launch is not proven in bounds"));
}
