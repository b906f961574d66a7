#include "../TestSupport.h"
#include "GPUTestSupport.h"

#include "ir-sanitize/GPU/LaunchSpec.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

/// x .+ y over n elements with x const, y wrt, on bcast_add_1d.ll.
std::string addSpec(uint64_t N, uint64_t YCount) {
  std::string NS = std::to_string(N);
  return R"({"threads": )" + NS + R"(,
    "buffers": {
      "dest": {"type": "f32", "count": )" +
         NS + R"(, "output": true},
      "x": {"type": "f32", "count": )" +
         NS + R"(, "init": "random", "seed": 1},
      "y": {"type": "f32", "count": )" +
         std::to_string(YCount) +
         R"(, "init": "random", "seed": 2, "wrt": true}},
    "args": {"1.0": "buffer:dest", "1.1": )" +
         std::to_string(4 * N) + R"(, "1.2.0": )" + NS + R"(, "1.3": )" + NS +
         R"(,
      "2.0.0.0.0": "buffer:x", "2.0.0.0.2.0": )" +
         NS + R"(, "2.0.0.1.0": 1,
      "2.0.1.0.0": "buffer:y", "2.0.1.0.2.0": )" +
         NS + R"(, "2.0.1.1.0": 1}})";
}

Expected<LaunchSpec> parse(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  REQUIRE(static_cast<bool>(V));
  return LaunchSpec::fromJSON(*V, "spec.json");
}

std::string errorOf(Error E) {
  REQUIRE(static_cast<bool>(E));
  return toString(std::move(E));
}

struct AddKernel {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = loadExample("kernels/bcast_add_1d.ll", Ctx);
  KernelManifest K =
      manifestFor(*M->getFunction("_Z16broadcast_kernel_add_1d"));
};

} // namespace

TEST_CASE("a launch spec parses buffers, args and defaults", "[LaunchSpec]") {
  auto S = parse(addSpec(1 << 20, 1 << 20));
  REQUIRE(static_cast<bool>(S));
  CHECK(S->Threads == 1u << 20);
  REQUIRE(S->Buffers.size() == 3);
  CHECK(S->Buffers[0].Name == "dest"); // sorted by name
  CHECK(S->Buffers[0].Output);
  CHECK(S->Buffers[0].Init == BufferInit::Zero);
  CHECK(S->findBuffer("y")->Wrt);
  CHECK(S->findBuffer("y")->Seed == 2);
  const LeafValue *X = S->findArg("2.0.0.0.0");
  REQUIRE(X);
  CHECK(X->K == LeafValue::Buffer);
  CHECK(X->BufferName == "x");
  CHECK(S->findArg("1.3")->Int == 1 << 20);
  CHECK(S->DerivativeChecks);
  CheckSettings C = checkSettings(*S);
  CHECK(C.FdStep == 1e-3); // f32 defaults
  CHECK(C.ForwardTolerance == 1e-3);
}

TEST_CASE("a launch spec rejects malformed fields by name", "[LaunchSpec]") {
  CHECK(errorOf(parse(R"({"buffers": {"a": {"type": "f32", "count": 1}}})")
                    .takeError())
            .find("either 'threads' or 'grid'") != std::string::npos);
  CHECK(
      errorOf(
          parse(
              R"({"threads": 4, "buffers": {"a": {"type": "f16", "count": 1}}})")
              .takeError())
          .find("buffer 'a': 'type'") != std::string::npos);
  CHECK(
      errorOf(
          parse(
              R"({"threads": 4, "buffers": {"a": {"type": "f32", "count": 0}}})")
              .takeError())
          .find("'count'") != std::string::npos);
  CHECK(
      errorOf(
          parse(R"({"threads": 4, "buffers": {"a": {"type": "f32", "count": 1}},
                         "args": {"0": "a"}})")
              .takeError())
          .find("buffer:NAME") != std::string::npos);
  CHECK(
      errorOf(
          parse(
              R"({"grid": [1], "block": [64, 32], "buffers": {"a": {"type": "f32", "count": 1}}})")
              .takeError())
          .find("block exceeds CUDA's limits") != std::string::npos);
  CHECK(
      errorOf(
          parse(
              R"({"threads": 1, "thread": 2, "buffers": {"a": {"type": "f32", "count": 1}}})")
              .takeError())
          .find("unknown field 'thread'") != std::string::npos);
  std::string E =
      errorOf(LaunchSpec::readFile("/nonexistent/spec.json").takeError());
  CHECK(E.find("/nonexistent/spec.json: cannot read") == 0);
}

TEST_CASE("a spec that fits the kernel validates; activities follow buffers",
          "[LaunchSpec]") {
  AddKernel A;
  auto S = parse(addSpec(1024, 1024));
  REQUIRE(static_cast<bool>(S));
  REQUIRE(errorText(validateSpec(*S, A.K, "spec.json")) == "");
  unsigned Dup = 0;
  for (const ManifestParam &P : A.K.Params)
    Dup += isDupLeaf(*S, P);
  CHECK(Dup == 2); // dest and y; x is const
  CHECK(isDupLeaf(*S, *A.K.findByPath("2.0.1.0.0")));
  CHECK_FALSE(isDupLeaf(*S, *A.K.findByPath("2.0.0.0.0")));
  // Only dest is an output that is not differentiated itself.
  CHECK(isOutputOnlyLeaf(*S, *A.K.findByPath("1.0")));
  CHECK_FALSE(isOutputOnlyLeaf(*S, *A.K.findByPath("2.0.1.0.0")));
  CHECK_FALSE(isOutputOnlyLeaf(*S, *A.K.findByPath("2.0.0.0.0")));
  CHECK_FALSE(isOutputOnlyLeaf(*S, *A.K.findByPath("1.3")));
}

TEST_CASE("a spec that does not fit the kernel is rejected before running",
          "[LaunchSpec]") {
  AddKernel A;
  auto Check = [&](std::string Text, StringRef Expected) {
    auto S = parse(Text);
    REQUIRE(static_cast<bool>(S));
    std::string Msg = errorOf(validateSpec(*S, A.K, "spec.json"));
    INFO(Msg);
    CHECK(Msg.find("spec.json: ") == 0);
    CHECK(Msg.find(Expected.str()) != std::string::npos);
  };
  std::string Good = addSpec(1024, 1024);
  auto Replace = [&](StringRef From, StringRef To) {
    std::string S = Good;
    size_t At = S.find(From.str());
    REQUIRE(At != std::string::npos);
    return S.replace(At, From.size(), To.str());
  };
  // Unknown leaf path, listing the kernel's.
  Check(Replace("\"2.0.1.1.0\"", "\"2.0.9\""), "unknown leaf path '2.0.9'");
  // A buffer smaller than its array's dims say.
  Check(addSpec(1024, 1000), "buffer 'y' has 1000 elements but leaf 2.0.1.0.0 "
                             "declares an array of 1024");
  // Type mismatches between a value and its leaf.
  Check(Replace("\"1.3\": 1024", "\"1.3\": 1.5"),
        "(i64): 1.5 is not an integer the leaf can hold");
  // Beyond int64: llvm::json holds it as a double that getAsInteger() would
  // round to INT64_MIN; it must be rejected, not saturated.
  Check(Replace("\"1.3\": 1024", "\"1.3\": -9223372036854775809"),
        "(i64): -9.2233720368547758e+18 is not an integer the leaf can hold");
  Check(Replace("\"1.3\": 1024", "\"1.3\": 18446744073709551616"),
        "is not an integer the leaf can hold");
  Check(Replace("\"2.0.0.0.0\": \"buffer:x\"", "\"2.0.0.0.0\": 1.5"),
        "a float value needs a float leaf");
  Check(Replace("\"2.0.0.1.0\": 1", "\"2.0.0.1.0\": \"buffer:x\""),
        "a buffer address needs a pointer leaf");
  Check(Replace("\"2.0.0.1.0\": 1", "\"2.0.0.1.0\": 300"), "300 does not fit");
  Check(Replace("\"buffer:y\"", "\"buffer:z\""), "no buffer named 'z'");
  Check(Replace("\"2.0.0.0.0\": \"buffer:x\"", "\"2.0.0.0.0\": 0"),
        "buffer 'x' is not bound");
  Check(Replace("\"wrt\": true", "\"wrt\": false"), "need at least one 'wrt'");
}

TEST_CASE("CUDAnative arrays ({dims, {i64 ptr}}) declare their extent too",
          "[LaunchSpec]") {
  std::string Path =
      std::string(IRS_CORPUS_DIR) + "/mmba_broadcast.repaired.ll";
  if (!sys::fs::exists(Path))
    IRS_SKIP("corpus not found at " << IRS_CORPUS_DIR);
  LLVMContext Ctx;
  auto L = readModule(Path, Ctx);
  REQUIRE(static_cast<bool>(L));
  KernelManifest K = manifestFor(*L->M->getFunction("ptxcall_Kernel_3"));
  auto Spec = [](unsigned XCount) {
    return R"({"threads": 64, "buffers": {
      "d": {"type": "f32", "count": 64, "output": true},
      "x": {"type": "f32", "count": )" +
           std::to_string(XCount) + R"(, "wrt": true}},
      "args": {"0.0.0": 8, "0.0.1": 8, "0.1.0": "buffer:d",
               "1.0.0.0": 8, "1.0.0.1": 8, "1.0.1.0": "buffer:x"}})";
  };
  auto Good = parse(Spec(64));
  REQUIRE(static_cast<bool>(Good));
  CHECK(errorText(validateSpec(*Good, K, "spec.json")) == "");
  // The i64 that holds the address counts as a pointer leaf.
  CHECK(isDupLeaf(*Good, *K.findByPath("1.0.1.0")));
  auto Small = parse(Spec(63));
  REQUIRE(static_cast<bool>(Small));
  CHECK(errorText(validateSpec(*Small, K, "spec.json"))
            .find("buffer 'x' has 63 elements but leaf 1.0.1.0 declares an "
                  "array of 64") != std::string::npos);
}

TEST_CASE("launch spec numbers beyond the plan's limits are rejected, not "
          "wrapped",
          "[LaunchSpec]") {
  auto Fails = [](const std::string &Fields, const std::string &Buffers,
                  StringRef Expected) {
    std::string Text = "{" + Fields + R"(, "buffers": {)" + Buffers + "}}";
    std::string Msg = errorOf(parse(Text).takeError());
    INFO(Text << "\n" << Msg);
    CHECK(Msg.find("spec.json: ") == 0);
    CHECK(Msg.find(Expected.str()) != std::string::npos);
  };
  std::string A = R"("a": {"type": "f32", "count": 4})";
  // count * 4 bytes wraps to 0 in 64 bits.
  Fails(R"("threads": 4)",
        R"("a": {"type": "f32", "count": 4611686018427387904})",
        "buffer 'a': 4611686018427387904 f32 elements exceed the limit of "
        "17179869184 bytes");
  // Each buffer fits, together they do not.
  Fails(R"("threads": 4)",
        R"("a": {"type": "f64", "count": 1073741824},
           "b": {"type": "f64", "count": 1073741825})",
        "buffer 'b': 1073741825 f64 elements exceed the limit");
  Fails(R"("threads": 18446744073709551615)", A,
        "'threads' must be an integer from 1 to 549755813632");
  Fails(R"("grid": [4294967296], "block": [1])", A,
        "grid exceeds CUDA's limits");
  Fails(R"("grid": [1, 65536], "block": [1])", A, "grid exceeds");
  Fails(R"("grid": [1], "block": [4294967297])", A, "block exceeds");
  Fails(R"("grid": [-1], "block": [1])", A,
        "'grid' sizes must be positive integers");
  Fails(R"("threads": 4)",
        R"("a": {"type": "f32", "count": 123456789012345678901234567890})",
        "'count' must be a positive integer");
  Fails(R"("threads": 4, "fd_step": 1e999)", A,
        "'fd_step' must be a positive number");
  Fails(R"("threads": 4)", R"("a": {"type": "f32", "count": 4, "seed": -1})",
        "'seed' must be an integer from 0 to 18446744073709551615");
  // llvm::json reads 1e999 as inf.
  Fails(R"("threads": 4, "args": {"0": -1e999})", A,
        "args: '0': value must be finite");
  // At the limit exactly: accepted.
  auto S = parse(R"({"threads": 549755813632, "buffers": {"a": {"type": "u8",
                    "count": 17179869184, "seed": 18446744073709551615}}})");
  REQUIRE(static_cast<bool>(S));
  CHECK(S->Buffers[0].Seed == UINT64_MAX);
}

TEST_CASE("a deeply nested launch spec is rejected before it is parsed",
          "[LaunchSpec]") {
  SmallString<128> Path;
  int FD;
  REQUIRE(!sys::fs::createTemporaryFile("irs-deep-spec", "json", FD, Path));
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    // 50,000 nested arrays overflowed the stack in json::parse.
    OS << std::string(50000, '[') << std::string(50000, ']');
  }
  std::string Msg = errorOf(LaunchSpec::readFile(Path).takeError());
  CHECK(Msg == (Path + ": JSON nested deeper than 64 levels").str());
  // A valid spec with a deep extra field: the same, before any field is read.
  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << R"({"threads": 4, "buffers": {"a": {"type": "f32", "count": 4}},
              "extra": )"
       << std::string(65, '[') << std::string(65, ']') << "}";
  }
  Msg = errorOf(LaunchSpec::readFile(Path).takeError());
  CHECK(Msg.find("JSON nested deeper than 64 levels") != std::string::npos);
  sys::fs::remove(Path);
}
