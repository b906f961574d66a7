// The plan writer (src/GPU, llvm::json) and the runner's reader
// (src/tools/ir-sanitize-gpurun, nlohmann-json, no LLVM) must agree on every
// field and every word of the vocabulary, and the reader must reject every
// number out of range rather than truncate, saturate or wrap it.
#include "ir-sanitize/GPU/RunPlan.h"

#include "PlanReader.h" // the runner's reader

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <vector>

using namespace llvm;

namespace {

template <typename Enum> std::vector<Enum> allOf() {
  std::vector<Enum> All;
  for (const auto &W : irs::Vocabulary<Enum>::Words)
    All.push_back(W.Value);
  return All;
}

/// A plan that uses every element type, init kind, role and address kind,
/// with a relocation's access recorded and one's not.
irs::RunPlan samplePlan() {
  irs::RunPlan P;
  P.Kernel = "_Z16broadcast_kernel_add_1d";
  P.Spec.Threads = 1 << 20;
  std::vector<irs::ElementType> Types = allOf<irs::ElementType>();
  std::vector<irs::BufferInit> Inits = allOf<irs::BufferInit>();
  for (size_t I = 0; I < std::max(Types.size(), Inits.size()); ++I)
    P.Spec.Buffers.push_back({"b" + std::to_string(I), Types[I % Types.size()],
                              1000 + I, Inits[I % Inits.size()], UINT64_MAX - I,
                              I == 0, I == 1});
  P.Settings = {1e-3, 2e-3, 1e-5};
  irs::ParamImage State{std::vector<uint8_t>(16, 0), {}};
  irs::ParamImage Arr{{0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0xff},
                      {{0, "b0", false, irs::MemoryAccess::Read},
                       {8, "b1", true, std::nullopt}}};
  for (irs::KernelRole Role : allOf<irs::KernelRole>())
    P.Kernels.push_back({Role,
                         std::string(irs::spelling(Role)) + ".ptx",
                         "k_" + std::string(irs::spelling(Role)),
                         {State, Arr},
                         std::nullopt});
  // The reverse kernel has a grid-stride version and drops primal outputs.
  P.Kernels.back().GridStrideEntry = "k_reverse_grid_stride";
  P.Kernels.back().GradientOnly = true;
  return P;
}

std::string printed(const irs::RunPlan &P) {
  std::string Text;
  raw_string_ostream OS(Text);
  P.print(OS);
  return Text;
}

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
  gpurun::Plan R;
  std::string Error;
  CHECK_FALSE(gpurun::parsePlan(Text, R, Error));
  return Error;
}

} // namespace

TEST_CASE("every word of the plan vocabulary spells and parses back",
          "[RunPlan]") {
  auto RoundTrips = [](auto Tag) {
    using Enum = decltype(Tag);
    for (Enum E : allOf<Enum>()) {
      INFO(irs::spelling(E));
      CHECK(irs::parseSpelling<Enum>(irs::spelling(E)) == E);
    }
    CHECK_FALSE(irs::parseSpelling<Enum>("nonsense"));
  };
  RoundTrips(irs::ElementType());
  RoundTrips(irs::BufferInit());
  RoundTrips(irs::KernelRole());
  RoundTrips(irs::AddressKind());
  CHECK(allOf<irs::ElementType>().size() == 5);
  CHECK(allOf<irs::BufferInit>().size() == 4);
  CHECK(allOf<irs::KernelRole>().size() == 4);
  CHECK(irs::spellingList<irs::ElementType>() == "f32, f64, i32, i64 or u8");
}

TEST_CASE("the sample plan writes every key of the schema, and only those",
          "[RunPlan]") {
  // The reader refuses keys outside the schema's lists (the round trip
  // below); this checks that no list holds a key the writer never writes.
  std::set<std::string> Written;
  std::function<void(const json::Value &)> Collect = [&](const json::Value &V) {
    if (const json::Object *O = V.getAsObject())
      for (const auto &[Key, Child] : *O) {
        Written.insert(Key.str());
        Collect(Child);
      }
    else if (const json::Array *A = V.getAsArray())
      for (const json::Value &Child : *A)
        Collect(Child);
  };
  irs::RunPlan P = samplePlan();
  P.DerivativesSkipped = "a reason";
  Expected<json::Value> Doc = json::parse(printed(P));
  REQUIRE(static_cast<bool>(Doc));
  Collect(*Doc);
  std::set<std::string> Schema;
  for (const auto &Keys :
       {std::vector<const char *>(std::begin(irs::plan::PlanKeys),
                                  std::end(irs::plan::PlanKeys)),
        std::vector<const char *>(std::begin(irs::plan::LaunchKeys),
                                  std::end(irs::plan::LaunchKeys)),
        std::vector<const char *>(std::begin(irs::plan::ToleranceKeys),
                                  std::end(irs::plan::ToleranceKeys)),
        std::vector<const char *>(std::begin(irs::plan::BufferKeys),
                                  std::end(irs::plan::BufferKeys)),
        std::vector<const char *>(std::begin(irs::plan::KernelKeys),
                                  std::end(irs::plan::KernelKeys)),
        std::vector<const char *>(std::begin(irs::plan::ParamKeys),
                                  std::end(irs::plan::ParamKeys)),
        std::vector<const char *>(std::begin(irs::plan::RelocKeys),
                                  std::end(irs::plan::RelocKeys))})
    Schema.insert(Keys.begin(), Keys.end());
  // A launch holds threads or grid and block, never both; print the other.
  P.Spec.Threads = P.Spec.Threads ? 0 : 1000;
  Doc = json::parse(printed(P));
  REQUIRE(static_cast<bool>(Doc));
  Collect(*Doc);
  CHECK(Written == Schema);
}

TEST_CASE("a written plan reads back identically in the runner", "[RunPlan]") {
  irs::RunPlan P = samplePlan();
  std::string Text = printed(P);
  gpurun::Plan R;
  std::string Error;
  REQUIRE(gpurun::parsePlan(Text, R, Error));
  CHECK(R.Kernel == P.Kernel);
  CHECK(R.Threads == 1u << 20);
  CHECK(R.DerivativeChecks);
  CHECK(R.DerivativesSkipped.empty());
  CHECK(R.FdStep == 1e-3);
  CHECK(R.ForwardTolerance == 2e-3);
  CHECK(R.ReverseTolerance == 1e-5);
  REQUIRE(R.Buffers.size() == P.Spec.Buffers.size());
  for (size_t I = 0; I < R.Buffers.size(); ++I) {
    const irs::BufferSpec &W = P.Spec.Buffers[I];
    CHECK(R.Buffers[I].Name == W.Name);
    CHECK(R.Buffers[I].Type == W.Type);
    CHECK(R.Buffers[I].Count == W.Count);
    CHECK(R.Buffers[I].Init == W.Init);
    CHECK(R.Buffers[I].Seed == W.Seed);
    CHECK(R.Buffers[I].Output == W.Output);
    CHECK(R.Buffers[I].Wrt == W.Wrt);
  }
  REQUIRE(R.Launches.size() == P.Kernels.size());
  for (const irs::PlannedKernel &K : P.Kernels) {
    const gpurun::KernelLaunch *L = R.launch(K.Role);
    REQUIRE(L);
    CHECK(L->File == K.PTXFile);
    CHECK(L->Entry == K.Entry);
    CHECK(L->GridStrideEntry == K.GridStrideEntry.value_or(""));
    CHECK(L->GradientOnly == K.GradientOnly);
    REQUIRE(L->Params.size() == K.Params.size());
    for (size_t I = 0; I < K.Params.size(); ++I) {
      CHECK(L->Params[I].Bytes == K.Params[I].Bytes);
      REQUIRE(L->Params[I].Relocs.size() == K.Params[I].Relocs.size());
      for (size_t J = 0; J < K.Params[I].Relocs.size(); ++J) {
        CHECK(L->Params[I].Relocs[J].Offset == K.Params[I].Relocs[J].Offset);
        CHECK(R.Buffers[L->Params[I].Relocs[J].BufferIndex].Name ==
              K.Params[I].Relocs[J].Buffer);
        CHECK(L->Params[I].Relocs[J].Shadow == K.Params[I].Relocs[J].Shadow);
        CHECK(L->Params[I].Relocs[J].Access == K.Params[I].Relocs[J].Access);
      }
    }
  }
}

TEST_CASE("a grid launch and a primal-only plan with a reason read back",
          "[RunPlan]") {
  irs::RunPlan P = samplePlan();
  P.Spec.Threads = 0;
  P.Spec.Grid = {2147483647, 65535, 65535};
  P.Spec.Block = {1024, 1, 1};
  P.Spec.DerivativeChecks = false;
  P.DerivativesSkipped = "no Enzyme plugin";
  P.Kernels.resize(2);
  gpurun::Plan R;
  std::string Error;
  REQUIRE(gpurun::parsePlan(printed(P), R, Error));
  CHECK(R.Threads == 0);
  CHECK(R.Grid[0] == 2147483647u);
  CHECK(R.Grid[2] == 65535u);
  CHECK(R.Block[0] == 1024u);
  CHECK_FALSE(R.DerivativeChecks);
  CHECK(R.DerivativesSkipped == "no Enzyme plugin");
  CHECK_FALSE(R.launch(irs::KernelRole::Forward));
}

TEST_CASE("the runner rejects out-of-range plan numbers by field",
          "[RunPlan]") {
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

TEST_CASE("the runner rejects malformed plans by field", "[RunPlan]") {
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

TEST_CASE("writeRunPlan writes DIR/plan.json", "[RunPlan]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-plan", Dir));
  Error W = irs::writeRunPlan(samplePlan(), Dir);
  REQUIRE_FALSE(static_cast<bool>(W));
  CHECK(irs::runPlanPath(Dir) == (Dir + "/plan.json").str());
  auto Buf = MemoryBuffer::getFile(irs::runPlanPath(Dir));
  REQUIRE(Buf);
  CHECK((*Buf)->getBuffer().starts_with(
      "{\n  \"format\": \"ir-sanitize-gpu-plan\",\n  \"version\": 2,"));
  sys::fs::remove_directories(Dir);
  Error E = irs::writeRunPlan(samplePlan(), "/nonexistent/dir");
  CHECK(static_cast<bool>(E));
  consumeError(std::move(E));
}
