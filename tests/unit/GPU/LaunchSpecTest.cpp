#include "../TestSupport.h"
#include "LaunchSpecSample.h"

#include "ir-sanitize/GPU/LaunchSpec.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"

#include <limits>

using namespace llvm;
using namespace irs;
using namespace irs::test;

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
  // A zero derivative is expected of derivative checks only; it survives
  // the round trip through the spec's JSON.
  const char *ZeroPrimal =
      R"({"threads": 4, "buffers": {"a": {"type": "f32", "count": 4}},
          "checks": "primal", "zero_derivative": true})";
  CHECK(errorOf(parse(ZeroPrimal).takeError())
            .find("'zero_derivative' needs \"checks\": \"all\"") !=
        std::string::npos);
  CHECK(errorOf(parse(R"({"threads": 4, "buffers": {"a": {"type": "f32",
                         "count": 4}}, "zero_derivative": 1})")
                    .takeError())
            .find("'zero_derivative' must be true or false") !=
        std::string::npos);
  Expected<LaunchSpec> Zero = parse(
      R"({"threads": 4, "buffers": {"a": {"type": "f32", "count": 4}},
          "zero_derivative": true})");
  REQUIRE(bool(Zero));
  CHECK(Zero->ZeroDerivativeExpected);
  std::string Text;
  raw_string_ostream(Text) << json::Value(Zero->toJSON());
  CHECK(Text.find("\"zero_derivative\":true") != std::string::npos);
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

TEST_CASE("buffers in the run plan's shape and in the earlier one read alike",
          "[LaunchSpec]") {
  auto Old = parse(R"({"threads": 4, "buffers": {
      "b": {"type": "f64", "count": 4, "wrt": true},
      "a": {"type": "f32", "count": 2, "init": "range"}}})");
  auto New = parse(R"({"threads": 4, "buffers": [
      {"name": "b", "type": "f64", "count": 4, "wrt": true},
      {"name": "a", "type": "f32", "count": 2, "init": "range"}]})");
  REQUIRE(static_cast<bool>(Old));
  REQUIRE(static_cast<bool>(New));
  CHECK(Old->toJSON() == New->toJSON());
  REQUIRE(New->Buffers.size() == 2);
  CHECK(New->Buffers[0].Name == "a"); // sorted by name
  CHECK(New->Buffers[1].Type == ElementType::F64);
  // What toJSON writes is the plan's shape, and reads back as itself.
  json::Value Written = New->toJSON();
  REQUIRE(Written.getAsObject()->getArray("buffers"));
  auto Back = LaunchSpec::fromJSON(Written, "again");
  REQUIRE(static_cast<bool>(Back));
  CHECK(Back->toJSON() == Written);
}

TEST_CASE("an array of buffers needs a name on each, given once",
          "[LaunchSpec]") {
  CHECK(errorOf(parse(R"({"threads": 1, "buffers": [{"type": "f32",
                          "count": 1}]})")
                    .takeError())
            .find("non-empty \"name\"") != std::string::npos);
  CHECK(errorOf(parse(R"({"threads": 1, "buffers": [
                          {"name": "a", "type": "f32", "count": 1},
                          {"name": "a", "type": "f64", "count": 1}]})")
                    .takeError())
            .find("buffer 'a' is given twice") != std::string::npos);
  CHECK(errorOf(parse(R"({"threads": 1, "buffers": []})").takeError())
            .find("'buffers' must be a non-empty") != std::string::npos);
  CHECK(errorOf(parse(R"({"threads": 1, "buffers": {"a": {"name": "b",
                          "type": "f32", "count": 1}}})")
                    .takeError())
            .find("'name' differs from the key") != std::string::npos);
}

TEST_CASE("checkLaunchSpec holds a model made in memory to the file's rules",
          "[LaunchSpec]") {
  LaunchSpec S;
  S.Threads = 8;
  CHECK(errorOf(checkLaunchSpec(S, "made")).find("made: 'buffers'") == 0);
  BufferSpec B;
  B.Name = "a";
  B.Count = 8;
  S.Buffers.push_back(B);
  CHECK_FALSE(static_cast<bool>(checkLaunchSpec(S, "made")));
  S.Buffers[0].Count = 0;
  CHECK(errorOf(checkLaunchSpec(S, "made")).find("'count'") !=
        std::string::npos);
  S.Buffers[0].Count = uint64_t(1) << 40; // 4 TiB of f32
  CHECK(errorOf(checkLaunchSpec(S, "made")).find("exceed the limit") !=
        std::string::npos);
  S.Buffers[0].Count = 8;
  S.Threads = 0;
  S.Grid = {1, 1, 1};
  S.Block = {2048, 1, 1};
  CHECK(errorOf(checkLaunchSpec(S, "made")).find("block exceeds") !=
        std::string::npos);
  S.Block = {256, 1, 1};
  LeafValue Inf;
  Inf.K = LeafValue::Float;
  Inf.Real = std::numeric_limits<double>::infinity();
  S.Args.emplace_back("1", Inf);
  CHECK(errorOf(checkLaunchSpec(S, "made")).find("must be finite") !=
        std::string::npos);
}
