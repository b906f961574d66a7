// The plan writer (src/GPU) and the runner's own reader
// (src/tools/ir-sanitize-gpurun, no LLVM) must agree on every record.
#include "ir-sanitize/GPU/RunPlan.h"

#include "RunPlan.h" // the runner's reader

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <catch2/catch.hpp>

using namespace llvm;

namespace {

irs::RunPlan samplePlan() {
  irs::RunPlan P;
  P.Kernel = "_Z16broadcast_kernel_add_1d";
  P.Spec.Threads = 1 << 20;
  irs::BufferSpec D{
      "dest", irs::ElementType::F32, 1 << 20, irs::BufferInit::Zero, 0, true,
      false};
  irs::BufferSpec Y{
      "y", irs::ElementType::F64, 7, irs::BufferInit::Random, 42, false, true};
  P.Spec.Buffers = {D, Y};
  P.Settings = {1e-3, 2e-3, 1e-5};
  irs::ParamImage State{std::vector<uint8_t>(16, 0), {}};
  irs::ParamImage Arr{{0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0},
                      {{0, "dest", false}}};
  P.Kernels.push_back({"original", "original.ptx", "k", {State, Arr}});
  P.Kernels.push_back({"splat", "splat.ptx", "k", {Arr}});
  irs::ParamImage Shadow = Arr;
  Shadow.Relocs[0].Shadow = true;
  P.Kernels.push_back({"forward", "derivatives.ptx", "k.fwd", {Arr, Shadow}});
  P.Kernels.push_back({"reverse", "derivatives.ptx", "k.rev", {Arr, Shadow}});
  return P;
}

} // namespace

TEST_CASE("a written plan reads back identically in the runner", "[RunPlan]") {
  irs::RunPlan P = samplePlan();
  std::string Text;
  raw_string_ostream OS(Text);
  P.print(OS);
  gpurun::Plan R;
  std::string Error;
  REQUIRE(gpurun::parsePlan(Text, R, Error));
  CHECK(R.Kernel == P.Kernel);
  CHECK(R.Threads == 1u << 20);
  CHECK(R.DerivativeChecks);
  CHECK(R.FdStep == 1e-3);
  CHECK(R.ForwardTolerance == 2e-3);
  CHECK(R.ReverseTolerance == 1e-5);
  REQUIRE(R.Buffers.size() == 2);
  CHECK(R.Buffers[1].Name == "y");
  CHECK(R.Buffers[1].Type == gpurun::ElemType::F64);
  CHECK(R.Buffers[1].Count == 7);
  CHECK(R.Buffers[1].InitKind == gpurun::Init::Random);
  CHECK(R.Buffers[1].Seed == 42);
  CHECK(R.Buffers[1].Wrt);
  CHECK_FALSE(R.Buffers[1].Output);
  for (const irs::PlannedKernel &K : P.Kernels) {
    const gpurun::KernelLaunch *L = R.launch(K.Role);
    REQUIRE(L);
    CHECK(L->File == K.PTXFile);
    CHECK(L->Entry == K.Entry);
    REQUIRE(L->Params.size() == K.Params.size());
    for (size_t I = 0; I < K.Params.size(); ++I) {
      CHECK(L->Params[I].Bytes == K.Params[I].Bytes);
      REQUIRE(L->Params[I].Relocs.size() == K.Params[I].Relocs.size());
      for (size_t J = 0; J < K.Params[I].Relocs.size(); ++J) {
        CHECK(L->Params[I].Relocs[J].Offset == K.Params[I].Relocs[J].Offset);
        CHECK(R.Buffers[L->Params[I].Relocs[J].BufferIndex].Name ==
              K.Params[I].Relocs[J].Buffer);
        CHECK(L->Params[I].Relocs[J].Shadow == K.Params[I].Relocs[J].Shadow);
      }
    }
  }
}

TEST_CASE("the runner rejects broken plans with the line", "[RunPlan]") {
  auto Fails = [](const std::string &Text, const std::string &Expected) {
    gpurun::Plan R;
    std::string Error;
    REQUIRE_FALSE(gpurun::parsePlan(Text, R, Error));
    INFO(Error);
    CHECK(Error.find(Expected) == 0);
  };
  Fails("hello\n", "1: not an ir-sanitize run plan");
  Fails("irs-gpu-plan 1\nthreads 4\nbuffer a f32 4 zero 0 output\n"
        "module original o.ptx k\nparam original 8 00\n",
        "5: parameter bytes do not match");
  Fails("irs-gpu-plan 1\nthreads 4\nmodule original o.ptx k\n"
        "param original 8 -\nreloc original 0 0 nobuf primal\n",
        "5: reloc names unknown buffer 'nobuf'");
  Fails("irs-gpu-plan 1\nthreads 4\nbuffer a f32 4 zero 0 output\n"
        "module original o.ptx k\nparam original 4 -\n"
        "reloc original 0 0 a primal\n",
        "6: reloc offset 0 does not fit");
  Fails("irs-gpu-plan 1\nthreads 4\nmodule original o.ptx k\n",
        "3: plan needs 'original' and 'splat'");
  Fails("irs-gpu-plan 1\nthreads 4\nmodule original o.ptx k\n"
        "module splat s.ptx k\n",
        "4: 'checks all' needs 'forward' and 'reverse'");
}

TEST_CASE("writeRunPlan writes DIR/plan.txt", "[RunPlan]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-plan", Dir));
  Error W = irs::writeRunPlan(samplePlan(), Dir);
  REQUIRE_FALSE(static_cast<bool>(W));
  auto Buf = MemoryBuffer::getFile(Dir + "/plan.txt");
  REQUIRE(Buf);
  CHECK((*Buf)->getBuffer().starts_with("irs-gpu-plan 1\n"));
  CHECK((*Buf)->getBuffer().contains("reloc forward 1 0 dest shadow\n"));
  sys::fs::remove_directories(Dir);
  Error E = irs::writeRunPlan(samplePlan(), "/nonexistent/dir");
  CHECK(static_cast<bool>(E));
  consumeError(std::move(E));
}
