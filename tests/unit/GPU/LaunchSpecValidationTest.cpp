#include "../TestSupport.h"
#include "LaunchSpecSample.h"

#include "ir-sanitize/Analysis/KernelLayout.h"
#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/Support/ModuleReader.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("a spec that does not fit the kernel is rejected before running",
          "[LaunchSpecValidation]") {
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
  // The unedited spec fits: each rejection below is its edit's.
  auto GoodSpec = parse(Good);
  REQUIRE(static_cast<bool>(GoodSpec));
  CHECK(errorText(validateSpec(*GoodSpec, A.K, "spec.json")) == "");
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
          "[LaunchSpecValidation]") {
  std::string Path = corpusPath("mmba_broadcast.repaired.ll");
  if (!sys::fs::exists(Path))
    IRS_SKIP("corpus not found at " << CorpusDir);
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

namespace {
/// A kernel whose parameter 0 is \p Array and its manifest.
struct OneArrayKernel {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  KernelManifest K;
  explicit OneArrayKernel(StringRef Array) {
    M = parseModule(Ctx, "define void @k(" + Array.str() + " %a) { ret void }");
    K = manifestFor(*M->getFunction("k"));
  }
};

/// A spec that binds buffer "d" (\p Count f32) at \p Address and gives the
/// integer leaves \p Sizes.
std::string oneArraySpec(uint64_t Count, StringRef Address, StringRef Sizes) {
  return R"({"threads": 1, "checks": "primal", "buffers": [{"name": "d",
      "type": "f32", "count": )" +
         std::to_string(Count) + R"(, "output": true}], "args": {")" +
         Address.str() + R"(": "buffer:d")" + (Sizes.empty() ? "" : ", ") +
         Sizes.str() + "}}";
}
} // namespace

TEST_CASE("every layout of DeviceArrays.def bounds its buffer by the row's "
          "fields",
          "[LaunchSpecValidation]") {
  REQUIRE(deviceArrayForms().size() == 3);
  struct Case {
    const char *Array, *Address, *Sizes, *Problem;
    uint64_t Fits, TooFew;
  };
  const Case Cases[] = {
      // CUDA.jl 5: dims 4x8, len 32, maxsize 128 bytes.
      {"{ ptr addrspace(1), i64, [2 x i64], i64 }", "0.0",
       R"("0.1": 128, "0.2.0": 4, "0.2.1": 8, "0.3": 32)",
       "declares an array of 32", 32, 31},
      // CUDA.jl 5 whose len says more than its dims.
      {"{ ptr addrspace(1), i64, [1 x i64], i64 }", "0.0",
       R"("0.2.0": 4, "0.3": 40)", "declares an array of 40", 40, 39},
      // CUDA.jl 3: its maxsize (bytes) bounds too.
      {"{ ptr addrspace(1), i64, [1 x i64] }", "0.0",
       R"("0.1": 400, "0.2.0": 10)", "declares maxsize 400", 100, 99},
      // CUDAnative: the address wrapped in { i64 }, dims first.
      {"{ [2 x i64], { i64 } }", "0.1.0", R"("0.0.0": 3, "0.0.1": 5)",
       "declares an array of 15", 15, 14},
      // An aggregate no row describes: a size tuple beside the address.
      {"{ ptr addrspace(1), [2 x i64], i32 }", "0.0",
       R"("0.1.0": 2, "0.1.1": 6)", "declares an array of 12", 12, 11},
  };
  for (const Case &C : Cases) {
    INFO(C.Array);
    OneArrayKernel A(C.Array);
    auto Fits = parse(oneArraySpec(C.Fits, C.Address, C.Sizes));
    REQUIRE(static_cast<bool>(Fits));
    CHECK(errorText(validateSpec(*Fits, A.K, "s")) == "");
    auto Small = parse(oneArraySpec(C.TooFew, C.Address, C.Sizes));
    REQUIRE(static_cast<bool>(Small));
    CHECK(errorText(validateSpec(*Small, A.K, "s")).find(C.Problem) !=
          std::string::npos);
  }
}
