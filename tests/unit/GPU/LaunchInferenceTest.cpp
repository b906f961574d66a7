#include "ir-sanitize/GPU/LaunchInference.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {

constexpr const char *Kernel = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
%A = type { ptr addrspace(1), i64, [1 x i64], i64 }
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
define ptx_kernel void @k({ ptr, i32 } %state, %A %"out::CuDeviceArray",
    %A %"x::CuDeviceArray", float %"a::Float32", i32 %"lane::Int32") {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %xd = extractvalue %A %"x::CuDeviceArray", 0
  %xp = getelementptr float, ptr addrspace(1) %xd, i64 %i
  %v = load float, ptr addrspace(1) %xp
  %w = fmul float %v, %"a::Float32"
  %od = extractvalue %A %"out::CuDeviceArray", 0
  %op = getelementptr float, ptr addrspace(1) %od, i64 %i
  store float %w, ptr addrspace(1) %op
  ret void
}
)";

struct Inferred {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Expected<InferredLaunch> L = InferredLaunch();

  explicit Inferred(LaunchRequest R, const char *IR = Kernel) {
    M = test::parseModule(Ctx, IR);
    Function &F = *find_if(*M, [](Function &G) { return !G.isDeclaration(); });
    L = inferLaunch(F, R, "k.ll");
  }
};

LaunchRequest dims(std::vector<uint64_t> D) {
  LaunchRequest R;
  R.Dims = std::move(D);
  return R;
}

} // namespace

TEST_CASE("parseDims: 1 to 3 positive sizes within the thread limit",
          "[LaunchInference]") {
  Expected<std::vector<uint64_t>> D = parseDims("1024x32", "--dims");
  REQUIRE(bool(D));
  CHECK(*D == std::vector<uint64_t>{1024, 32});
  for (const char *Bad : {"", "0", "x4", "4x", "1x2x3x4", "-1", "1e3",
                          "99999999999999999999", "4294967296x4294967296"}) {
    INFO(Bad);
    Expected<std::vector<uint64_t>> E = parseDims(Bad, "--dims");
    CHECK_FALSE(bool(E));
    consumeError(E.takeError());
  }
}

TEST_CASE("the default launch: arrays of --dims, read floats wrt, written "
          "outputs, scalars deterministic",
          "[LaunchInference]") {
  Inferred I(dims({1000}));
  REQUIRE(bool(I.L));
  const LaunchSpec &S = I.L->Spec;
  CHECK(S.Threads == 1000);
  CHECK(S.DerivativeChecks);
  const BufferSpec *Out = S.findBuffer("out"), *X = S.findBuffer("x");
  REQUIRE(Out);
  REQUIRE(X);
  CHECK(Out->Output);
  CHECK_FALSE(Out->Wrt);
  CHECK(Out->Init == BufferInit::Zero);
  CHECK(X->Wrt);
  CHECK(X->Init == BufferInit::Random);
  CHECK(X->Count == 1000);
  REQUIRE(S.findArg("2.1"));
  CHECK(S.findArg("2.1")->Int == 4000); // maxsize in bytes
  CHECK(S.findArg("3")->Real == 0.5);
  CHECK(S.findArg("4")->Int == 1);
  CHECK_FALSE(S.findArg("0.0")); // the state stays zero
}

TEST_CASE("setting and differentiating leaves by Julia name, index and path",
          "[LaunchInference]") {
  LaunchRequest R = dims({64});
  R.Sets = {"lane=3", "a=2.5", "x=ones", "1.dims=64"};
  R.Wrt = std::vector<std::string>{"none"};
  Inferred I(R);
  REQUIRE(bool(I.L));
  const LaunchSpec &S = I.L->Spec;
  CHECK(S.findArg("4")->Int == 3);
  CHECK(S.findArg("3")->Real == 2.5);
  CHECK(S.findBuffer("x")->Init == BufferInit::Ones);
  CHECK_FALSE(S.findBuffer("x")->Wrt);
  CHECK_FALSE(S.DerivativeChecks); // nothing differentiated: primal only
  REQUIRE_FALSE(I.L->Notes.empty());

  LaunchRequest ByIndex = dims({64});
  ByIndex.Wrt = std::vector<std::string>{"2"};
  Inferred J(ByIndex);
  REQUIRE(bool(J.L));
  CHECK(J.L->Spec.findBuffer("x")->Wrt);
}

TEST_CASE("bad flags are usage errors naming the flag", "[LaunchInference]") {
  for (std::pair<const char *, const char *> Case :
       {std::pair{"lane", "--set lane: expected NAME=VALUE"},
        {"lane=1.5", "--set lane=1.5: leaf 4 holds an integer"},
        {"nobody=1", "--set nobody=1: no parameter has this name"},
        {"x=2", "--set x=2: names 4 leaves"},
        {"x.dims=2x2", "--set x.dims=2x2: array 2 has 1 dimension(s)"}}) {
    LaunchRequest R = dims({64});
    R.Sets = {Case.first};
    Inferred I(R);
    REQUIRE_FALSE(bool(I.L));
    std::string Message = toString(I.L.takeError());
    INFO(Message);
    CHECK(StringRef(Message).starts_with(Case.second));
  }
}

TEST_CASE("a 2-D --dims for 1-D arrays outside a broadcast is refused",
          "[LaunchInference]") {
  Inferred I(dims({8, 8}));
  REQUIRE_FALSE(bool(I.L));
  std::string Message = toString(I.L.takeError());
  CHECK(Message == "k.ll: leaf 1.0 (out): a 1-D array, but --dims gives 2 "
                   "size(s): give its shape with --set out.dims=N, or --dims "
                   "with 1 size(s)");
}

// KernelAbstractions with every size in the kernel's type (the name as
// GPUCompiler mangles it): no metadata parameter, and a launch of the
// type's 1 block of 8x8 threads.
constexpr const char *StaticNDRange = R"(
target triple = "nvptx64-nvidia-cuda"
%A = type { ptr addrspace(1), i64, [2 x i64], i64 }
define ptx_kernel void @_Z16gpu_halo_kernel_16CompilerMetadataI10StaticSizeI6_8__8_E12DynamicCheckvv7NDRangeILi2ES0_I6_1__1_ES1_vvEE13CuDeviceArrayI7Float64Li2ELi1EES9_(
    { ptr, i32 } %state, %A %"out::CuDeviceArray", %A %"x::CuDeviceArray") {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %xd = extractvalue %A %"x::CuDeviceArray", 0
  %xp = getelementptr double, ptr addrspace(1) %xd, i64 %i
  %v = load double, ptr addrspace(1) %xp
  %od = extractvalue %A %"out::CuDeviceArray", 0
  %op = getelementptr double, ptr addrspace(1) %od, i64 %i
  store double %v, ptr addrspace(1) %op
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
)";

TEST_CASE("a static KernelAbstractions ndrange is launched as its type says",
          "[LaunchInference]") {
  Inferred I(dims({8, 8}), StaticNDRange);
  REQUIRE(bool(I.L));
  CHECK(I.L->Spec.Threads == 0);
  CHECK(I.L->Spec.Grid == std::array<unsigned, 3>{1, 1, 1});
  CHECK(I.L->Spec.Block == std::array<unsigned, 3>{64, 1, 1});
  CHECK(is_contained(I.L->Notes, "the ndrange is static, 8x8 (in the "
                                 "kernel's type)"));

  Inferred Other(dims({16, 8}), StaticNDRange);
  REQUIRE_FALSE(bool(Other.L));
  CHECK(StringRef(toString(Other.L.takeError()))
            .ends_with("a KernelAbstractions kernel whose ndrange is static, "
                       "8x8 (in its type): give --dims 8x8"));

  // A static ndrange whose blocks and workgroup are dynamic: their
  // metadata parameter's layout is not known.
  std::string Dynamic = StaticNDRange;
  Dynamic.replace(Dynamic.find("ES0_I6_1__1_ES1_vvEE"),
                  strlen("ES0_I6_1__1_ES1_vvEE"), "E11DynamicSizeS4_vvEE");
  Inferred Refused(dims({8, 8}), Dynamic.c_str());
  REQUIRE_FALSE(bool(Refused.L));
  CHECK(StringRef(toString(Refused.L.takeError()))
            .ends_with("ndrange is static (in its type) and whose blocks and "
                       "workgroup are not (or not read from its name): give "
                       "a --spec"));
}

TEST_CASE("the inferred spec prints as JSON that reads back as itself",
          "[LaunchInference][LaunchSpec]") {
  Inferred I(dims({100}));
  REQUIRE(bool(I.L));
  json::Value V = I.L->Spec.toJSON();
  Expected<LaunchSpec> Back = LaunchSpec::fromJSON(V, "again");
  REQUIRE(bool(Back));
  std::string A, B;
  raw_string_ostream(A) << V;
  raw_string_ostream(B) << Back->toJSON();
  CHECK(A == B);
  std::string Table;
  raw_string_ostream OS(Table);
  I.L->print(OS);
  CHECK(StringRef(Table).starts_with("launch: threads 100\nchecks: all\n"));
  CHECK(
      StringRef(Table).contains("\n4     lane  scalar  i32              1\n"));
}
