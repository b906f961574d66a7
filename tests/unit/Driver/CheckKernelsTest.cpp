#include "../TestSupport.h"

#include "ir-sanitize/Driver/Check.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

const json::Value *field(const CheckFinding &F, StringRef Key) {
  for (const auto &[Name, Value] : F.Fields)
    if (Name == Key)
      return &Value;
  return nullptr;
}

} // namespace

TEST_CASE("the kernels section lists each kernel's splatted parameters",
          "[Driver][Check]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
define ptx_kernel void @k({ i32, float } %a, i64 %n, { float, { double, i8 } } %b) {
  ret void
}
define void @host({ i32, float } %a) {
  ret void
}
)");
  CheckSection S = collectKernelSection(*M, CheckOptions());
  CHECK(S.Key == "kernels");
  CHECK_FALSE(S.Blocking); // aggregates do not make Enzyme abort
  REQUIRE(S.Findings.size() == 1);
  const CheckFinding &F = S.Findings[0];
  CHECK(F.Text ==
        "k: 3 parameters -> 6: #0 a (value, 2 leaves), #2 b (value, 3 leaves)");
  REQUIRE(field(F, "kernel"));
  CHECK(*field(F, "kernel") == json::Value("k"));
  // As numbers: LLVM 16 keeps a size_t as uint64, which neither == nor
  // getAsInteger matches with an int.
  CHECK(field(F, "params")->getAsNumber() == 3.0);
  CHECK(field(F, "splatted_params")->getAsNumber() == 6.0);
  CHECK(*field(F, "splat_index") == json::Value(json::Array{0, 2}));
  CHECK(*field(F, "splat_name") == json::Value(json::Array{"a", "b"}));
  CHECK(*field(F, "splat_leaves") == json::Value(json::Array{2, 3}));
}

TEST_CASE("the kernels section is empty without kernels to splat",
          "[Driver][Check]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, R"(
define ptx_kernel void @scalars(i64 %n, ptr %p) {
  ret void
}
define void @host({ i32, float } %a) {
  ret void
}
)");
  CheckSection S = collectKernelSection(*M, CheckOptions());
  CHECK(S.Findings.empty());
}
