// The plan reader (src/Launch/RunPlanReader.cpp, nlohmann-json, no LLVM)
// must read back what the writer writes, every field and every word of the
// vocabulary, and must reject every number out of range rather than
// truncate, saturate or wrap it. (llvm::json edits the sample's text here:
// the test may use LLVM, the reader does not.)
#include "RunPlanSample.h"

#include "llvm/Support/JSON.h"

#include "CatchCompat.h"

#include <functional>
#include <string>

using namespace llvm;
using namespace irs::test;

namespace {

/// The sample plan's text after \p Edit changed its JSON.
std::string edited(const std::function<void(json::Object &)> &Edit) {
  Expected<json::Value> V = json::parse(printed(samplePlan()));
  REQUIRE(static_cast<bool>(V));
  Edit(*V->getAsObject());
  std::string Text;
  raw_string_ostream(Text) << *V;
  return Text;
}

json::Object &at(json::Object &O, StringRef Key, size_t I) {
  return *(*O.getArray(Key))[I].getAsObject();
}

/// The first kernel's second parameter's first relocation.
json::Object &firstReloc(json::Object &Plan) {
  json::Object &Param = at(at(Plan, "kernels", 0), "params", 1);
  return at(Param, "relocs", 0);
}

std::string replaced(std::string Text, const std::string &From,
                     const std::string &To) {
  size_t At = Text.find(From);
  REQUIRE(At != std::string::npos);
  return Text.replace(At, From.size(), To);
}

std::string rejection(const std::string &Text) {
  irs::RunPlan R;
  std::string Error;
  CHECK_FALSE(irs::parseRunPlan(Text, R, Error));
  return Error;
}

} // namespace

TEST_CASE("a written plan reads back identically in the runner",
          "[RunPlanReader]") {
  irs::RunPlan P = samplePlan();
  std::string Text = printed(P);
  irs::RunPlan R;
  std::string Error;
  REQUIRE(irs::parseRunPlan(Text, R, Error));
  CHECK(R.Kernel == P.Kernel);
  CHECK(R.Launch.Threads == 1u << 20);
  CHECK(R.Launch.DerivativeChecks);
  CHECK(R.DerivativesSkipped.empty());
  CHECK(R.Settings.FdStep == 1e-3);
  CHECK(R.Settings.ForwardTolerance == 2e-3);
  CHECK(R.Settings.ReverseTolerance == 1e-5);
  REQUIRE(R.Launch.Buffers.size() == P.Launch.Buffers.size());
  for (size_t I = 0; I < R.Launch.Buffers.size(); ++I) {
    const irs::LaunchBuffer &W = P.Launch.Buffers[I];
    CHECK(R.Launch.Buffers[I].Name == W.Name);
    CHECK(R.Launch.Buffers[I].Type == W.Type);
    CHECK(R.Launch.Buffers[I].Count == W.Count);
    CHECK(R.Launch.Buffers[I].Init == W.Init);
    CHECK(R.Launch.Buffers[I].Seed == W.Seed);
    CHECK(R.Launch.Buffers[I].Output == W.Output);
    CHECK(R.Launch.Buffers[I].Wrt == W.Wrt);
  }
  REQUIRE(R.Kernels.size() == P.Kernels.size());
  for (const irs::PlannedKernel &K : P.Kernels) {
    const irs::PlannedKernel *L = R.kernel(K.Role);
    REQUIRE(L);
    CHECK(L->PTXFile == K.PTXFile);
    CHECK(L->Entry == K.Entry);
    CHECK(L->GridStrideEntry == K.GridStrideEntry);
    CHECK(L->GradientOnly == K.GradientOnly);
    REQUIRE(L->Params.size() == K.Params.size());
    for (size_t I = 0; I < K.Params.size(); ++I) {
      CHECK(L->Params[I].Bytes == K.Params[I].Bytes);
      REQUIRE(L->Params[I].Relocs.size() == K.Params[I].Relocs.size());
      for (size_t J = 0; J < K.Params[I].Relocs.size(); ++J) {
        CHECK(L->Params[I].Relocs[J].Offset == K.Params[I].Relocs[J].Offset);
        CHECK(L->Params[I].Relocs[J].Buffer == K.Params[I].Relocs[J].Buffer);
        CHECK(R.bufferIndex(L->Params[I].Relocs[J].Buffer) <
              R.Launch.Buffers.size());
        CHECK(L->Params[I].Relocs[J].Shadow == K.Params[I].Relocs[J].Shadow);
        CHECK(L->Params[I].Relocs[J].Access == K.Params[I].Relocs[J].Access);
      }
    }
  }
}

TEST_CASE("a grid launch and a primal-only plan with a reason read back",
          "[RunPlanReader]") {
  irs::RunPlan P = samplePlan();
  P.Launch.Threads = 0;
  P.Launch.Grid = {2147483647, 65535, 65535};
  P.Launch.Block = {1024, 1, 1};
  P.Launch.DerivativeChecks = false;
  P.DerivativesSkipped = "no Enzyme plugin";
  P.Kernels.resize(2);
  irs::RunPlan R;
  std::string Error;
  REQUIRE(irs::parseRunPlan(printed(P), R, Error));
  CHECK(R.Launch.Threads == 0);
  CHECK(R.Launch.Grid[0] == 2147483647u);
  CHECK(R.Launch.Grid[2] == 65535u);
  CHECK(R.Launch.Block[0] == 1024u);
  CHECK_FALSE(R.Launch.DerivativeChecks);
  CHECK(R.DerivativesSkipped == "no Enzyme plugin");
  CHECK_FALSE(R.kernel(irs::KernelRole::Forward));
}

TEST_CASE("the runner rejects out-of-range plan numbers by field",
          "[RunPlanReader]") {
  auto Rejects = [](const std::string &Text, const std::string &Expected) {
    std::string Error = rejection(Text);
    INFO(Error);
    CHECK(Error.find(Expected) == 0);
  };
  // Offset + 8 wrapped past 2^64 and passed the bounds check.
  Rejects(edited([](json::Object &P) {
            firstReloc(P)["offset"] = uint64_t(18446744073709551608ULL);
          }),
          "kernels[0].params[1].relocs[0].offset: an 8-byte address at "
          "18446744073709551608 does not fit the 16-byte parameter");
  Rejects(edited([](json::Object &P) { firstReloc(P)["offset"] = 9; }),
          "kernels[0].params[1].relocs[0].offset: an 8-byte address at 9");
  // Grid and block sizes were truncated to 32 bits.
  auto Grid = [](std::vector<int64_t> G, std::vector<int64_t> B) {
    return edited([&](json::Object &P) {
      P["launch"] =
          json::Object{{"grid", json::Array(G)}, {"block", json::Array(B)}};
    });
  };
  Rejects(Grid({4294967296LL, 1, 1}, {1, 1, 1}),
          "launch.grid[0]: must be an integer from 1 to 2147483647, not "
          "4294967296");
  Rejects(Grid({1, 1, 1}, {4294967297LL, 1, 1}), "launch.block[0]: must be");
  Rejects(Grid({1, 65536, 1}, {1, 1, 1}), "launch: grid exceeds");
  Rejects(Grid({1, 1, 1}, {64, 32, 1}), "launch: block exceeds");
  Rejects(Grid({1, 1}, {1, 1, 1}), "launch.grid: must have 3 sizes");
  Rejects(Grid({0, 1, 1}, {1, 1, 1}), "launch.grid[0]: must be an integer");
  Rejects(edited([](json::Object &P) {
            P["launch"] = json::Object{{"threads", UINT64_MAX}};
          }),
          "launch.threads: must be an integer from 1 to 549755813632");
  // Non-finite and non-positive reals; JSON has no inf, and nlohmann refuses
  // 1e999 rather than reading it as inf.
  std::string Text = printed(samplePlan());
  Rejects(replaced(Text, "\"fd_step\": 0.001", "\"fd_step\": 1e999"),
          "fd_step: not valid JSON: [json.exception.out_of_range.406] number "
          "overflow parsing '1e999'");
  Rejects(replaced(Text, "\"offset\": 0", "\"offset\": 1e999"),
          "kernels[0].params[1].relocs[0].offset: not valid JSON");
  Rejects(replaced(Text, "\"fd_step\": 0.001", "\"fd_step\": -0.001"),
          "fd_step: must be a finite positive number");
  // Huge decimal strings become floats in the JSON reader: not integers.
  Rejects(
      replaced(Text, "\"count\": 1000", "\"count\": 1" + std::string(40, '0')),
      "buffers[0].count: must be an integer from 1 to");
  Rejects(replaced(Text, "\"count\": 1000", "\"count\": 1000.5"),
          "buffers[0].count: must be an integer");
  Rejects(replaced(Text, "\"count\": 1000", "\"count\": -1"),
          "buffers[0].count: must be an integer");
  // Count * element size wrapped (and crashed the runner).
  Rejects(replaced(Text, "\"count\": 1000", "\"count\": 4611686018427387904"),
          "buffers[0].count: 4611686018427387904 elements exceed the limit of "
          "17179869184 bytes for all buffers together");
  Rejects(edited([](json::Object &P) {
            at(at(P, "kernels", 0), "params", 0)["size"] = 4097;
          }),
          "kernels[0].params[0].size: must be an integer from 1 to 4096");
}

TEST_CASE("the runner rejects malformed plans by field", "[RunPlanReader]") {
  auto Rejects = [](const std::string &Text, const std::string &Expected) {
    std::string Error = rejection(Text);
    INFO(Error);
    CHECK(Error.find(Expected) == 0);
  };
  Rejects("irs-gpu-plan 1\n", "plan: not valid JSON");
  Rejects("[]", "plan: must be an object");
  Rejects(std::string(50000, '[') + std::string(50000, ']'),
          "plan: JSON nested deeper than 64 levels");
  Rejects(edited([](json::Object &P) { P["version"] = 1; }),
          "version: plan version 1 is not supported (this runner reads "
          "version 2)");
  Rejects(edited([](json::Object &P) { P["format"] = "something"; }),
          "format: not an ir-sanitize run plan");
  // nlohmann keeps the last of two equal keys; a plan must not mean two
  // things.
  std::string Text = printed(samplePlan());
  Rejects(replaced(Text, "\"checks\": \"all\"",
                   "\"checks\": \"all\", \"checks\": \"primal\""),
          "checks: appears twice");
  Rejects(replaced(Text, "\"offset\": 0", "\"offset\": 0, \"offset\": 8"),
          "kernels[0].params[1].relocs[0].offset: appears twice");
  Rejects(replaced(Text, "\"count\": 1000", "\"count\": 1000, \"seed\": 1"),
          "buffers[0].seed: appears twice");
  Rejects(edited([](json::Object &P) { P["extra"] = 1; }),
          "extra: unknown field");
  Rejects(edited([](json::Object &P) { P.erase("kernel"); }),
          "kernel: missing");
  Rejects(edited([](json::Object &P) { at(P, "buffers", 1)["type"] = "f16"; }),
          "buffers[1].type: unknown element type 'f16' (expected f32, f64, "
          "i32, i64 or u8)");
  Rejects(edited([](json::Object &P) { at(P, "buffers", 1)["name"] = "b0"; }),
          "buffers[1].name: 'b0' declared twice");
  Rejects(edited([](json::Object &P) { firstReloc(P)["buffer"] = "nobuf"; }),
          "kernels[0].params[1].relocs[0].buffer: unknown buffer 'nobuf'");
  Rejects(edited([](json::Object &P) { firstReloc(P)["address"] = "both"; }),
          "kernels[0].params[1].relocs[0].address: unknown address kind");
  Rejects(edited([](json::Object &P) { firstReloc(P)["access"] = "rw"; }),
          "kernels[0].params[1].relocs[0].access: unknown memory access");
  Rejects(edited([](json::Object &P) { firstReloc(P)["access"] = 3; }),
          "kernels[0].params[1].relocs[0].access: ");
  Rejects(edited([](json::Object &P) {
            at(at(P, "kernels", 0), "params", 1)["bytes"] = "00";
          }),
          "kernels[0].params[1].bytes: must be 32 lowercase hex digits");
  Rejects(
      edited([](json::Object &P) { at(P, "kernels", 1)["role"] = "original"; }),
      "kernels[1].role: role 'original' appears twice");
  Rejects(edited([](json::Object &P) {
            at(P, "kernels", 1)["ptx"] = "../../etc/passwd";
          }),
          "kernels[1].ptx: must name a file in the plan directory");
  // C APIs would stop at a NUL and open or look up another name.
  Rejects(edited([](json::Object &P) {
            at(P, "kernels", 1)["ptx"] = std::string("original.ptx\0x", 14);
          }),
          "kernels[1].ptx: contains a NUL byte");
  Rejects(edited([](json::Object &P) {
            at(P, "kernels", 0)["entry"] = std::string("k\0other", 7);
          }),
          "kernels[0].entry: contains a NUL byte");
  // A grid-stride version is a second entry, named.
  for (const char *Entry : {"", "k_reverse"})
    Rejects(edited([&](json::Object &P) {
              at(P, "kernels", 3)["grid_stride_entry"] = Entry;
            }),
            "kernels[3].grid_stride_entry: must name a second entry");
  Rejects(edited([](json::Object &P) {
            at(P, "kernels", 3)["grid_stride_entry"] = 7;
          }),
          "kernels[3].grid_stride_entry: must be a string");
  // Only a reverse kernel leaves primal outputs unwritten.
  Rejects(edited([](json::Object &P) {
            at(P, "kernels", 2)["gradient_only"] = true;
          }),
          "kernels[2].gradient_only: only a reverse kernel");
  Rejects(
      edited([](json::Object &P) { at(P, "kernels", 3)["gradient_only"] = 1; }),
      "kernels[3].gradient_only: must be");
  Rejects(edited([](json::Object &P) { P.getArray("kernels")->pop_back(); }),
          "kernels: \"checks\": \"all\" needs a 'forward' and a 'reverse'");
  Rejects(edited([](json::Object &P) {
            json::Array &Kernels = *P.getArray("kernels");
            Kernels[1] = Kernels.back(); // the splat becomes a reverse
            Kernels.pop_back();
          }),
          "kernels: the plan needs an 'original' and a 'splat' kernel");
}

TEST_CASE("the runner rejects plans it would fail on at launch",
          "[RunPlanReader]") {
  auto Rejects = [](const std::string &Text, const std::string &Expected) {
    std::string Error = rejection(Text);
    INFO(Error);
    CHECK(Error.find(Expected) == 0);
  };
  auto SecondReloc = [](json::Object &P) -> json::Object & {
    return at(at(at(P, "kernels", 0), "params", 1), "relocs", 1);
  };
  // Addresses are 8-byte words: unaligned, doubled or overlapping ones
  // overwrite each other.
  Rejects(edited([](json::Object &P) { firstReloc(P)["offset"] = 4; }),
          "kernels[0].params[1].relocs[0].offset: an address at 4 is not "
          "8-byte aligned");
  Rejects(edited([&](json::Object &P) { SecondReloc(P)["offset"] = 0; }),
          "kernels[0].params[1].relocs[1].offset: a second address at 0");
  Rejects(edited([&](json::Object &P) { SecondReloc(P)["offset"] = 3; }),
          "kernels[0].params[1].relocs[1].offset: an address at 3 is not "
          "8-byte aligned");
  // A shadow the checks neither seed nor read (b2 is neither wrt nor
  // output).
  Rejects(edited([&](json::Object &P) { SecondReloc(P)["buffer"] = "b2"; }),
          "kernels[0].params[1].relocs[1].address: the shadow of 'b2', a "
          "buffer that is neither wrt nor output");
  // An output's and a wrt buffer's shadows are fine.
  irs::RunPlan R;
  std::string Error;
  CHECK(irs::parseRunPlan(
      edited([&](json::Object &P) { SecondReloc(P)["buffer"] = "b0"; }), R,
      Error));
  // The entry to load.
  Rejects(edited([](json::Object &P) { at(P, "kernels", 2)["entry"] = ""; }),
          "kernels[2].entry: must name an entry of the PTX");
  // Grid-stride versions exist for derivative kernels only: the primal
  // ones are compared bit for bit as launched.
  for (int Kernel : {0, 1})
    Rejects(edited([&](json::Object &P) {
              at(P, "kernels", Kernel)["grid_stride_entry"] = "k_strided";
            }),
            "kernels[" + std::to_string(Kernel) +
                "].grid_stride_entry: only a forward or reverse kernel");
  irs::RunPlan Strided;
  CHECK(irs::parseRunPlan(edited([](json::Object &P) {
                            at(P, "kernels", 2)["grid_stride_entry"] = "k_g";
                          }),
                          Strided, Error));
  // A reason for skipped derivative checks in a plan that runs them.
  Rejects(edited([](json::Object &P) { P["skipped"] = "no Enzyme plugin"; }),
          "skipped: derivative checks skipped in a plan with \"checks\": "
          "\"all\"");
  Rejects(edited([](json::Object &P) { P["skipped"] = ""; }), "skipped: ");
  // A zero derivative expected of a plan that checks the primal only.
  Rejects(edited([](json::Object &P) {
            P["checks"] = "primal";
            P["zero_derivative"] = true;
          }),
          "zero_derivative: a zero derivative expected in a plan with "
          "\"checks\": \"primal\"");
  irs::RunPlan Zero;
  CHECK(irs::parseRunPlan(
      edited([](json::Object &P) { P["zero_derivative"] = true; }), Zero,
      Error));
  CHECK(Zero.Launch.ZeroDerivativeExpected);
}
