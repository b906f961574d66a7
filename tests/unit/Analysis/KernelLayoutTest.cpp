#include "ir-sanitize/Analysis/KernelLayout.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {

constexpr const char *Header = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
)";

struct Described {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  KernelLayout L;

  explicit Described(StringRef Body) {
    M = test::parseModule(Ctx, (Twine(Header) + Body).str());
    Function *F = nullptr;
    for (Function &G : *M)
      if (!G.isDeclaration())
        F = &G;
    REQUIRE(F);
    Expected<KernelLayout> R = describeKernelLayout(*F, "test.ll");
    REQUIRE(bool(R));
    L = std::move(*R);
  }

  LeafRole role(StringRef Path) const {
    int I = L.findLeaf(Path);
    INFO(Path.str());
    REQUIRE(I >= 0);
    return L.Leaves[I].Role;
  }
};

} // namespace

TEST_CASE("CUDA.jl 5 arrays in a Broadcasted of Extruded arguments",
          "[KernelLayout]") {
  Described D(R"(
%A = type { ptr addrspace(1), i64, [2 x i64], i64 }
define ptx_kernel void @k({ ptr, i32 } %state, %A %"dest::CuDeviceArray",
    { [1 x { %A, [2 x i8], [2 x i64] }], [2 x [1 x i64]] } %bc) {
  %d = extractvalue %A %"dest::CuDeviceArray", 0
  %x = extractvalue { [1 x { %A, [2 x i8], [2 x i64] }], [2 x [1 x i64]] } %bc, 0, 0, 0, 0
  %v = load float, ptr addrspace(1) %x
  store float %v, ptr addrspace(1) %d
  ret void
}
)");
  const KernelLayout &L = D.L;
  CHECK(L.ParamNames == std::vector<std::string>{"state", "dest", "bc"});
  CHECK(D.role("0.0") == LeafRole::State);
  CHECK(D.role("1.0") == LeafRole::Data);
  CHECK(D.role("1.1") == LeafRole::MaxSize);
  CHECK(D.role("1.2.1") == LeafRole::Dim);
  CHECK(D.role("1.3") == LeafRole::Len);
  CHECK(D.role("2.0.0.1.1") == LeafRole::Keep);
  CHECK(D.role("2.0.0.2.0") == LeafRole::Default);
  CHECK(D.role("2.1.1.0") == LeafRole::Axis);
  CHECK(L.Leaves[L.findLeaf("2.1.1.0")].Dim == 1);
  CHECK(L.BroadcastRank == 2);
  REQUIRE(L.Arrays.size() == 2);
  CHECK(L.Arrays[0].Path == "1");
  CHECK_FALSE(L.Arrays[0].InBroadcast);
  CHECK(L.Arrays[0].Access == MemoryAccess::Write);
  CHECK(L.Arrays[1].Path == "2.0.0.0");
  CHECK(L.Arrays[1].InBroadcast);
  CHECK(L.Arrays[1].Rank == 2);
  CHECK(L.Arrays[1].Keeps.size() == 2);
  CHECK(L.Arrays[1].Access == MemoryAccess::Read);
  REQUIRE(L.Arrays[1].Use.Scalars.size() == 1);
  CHECK(L.Arrays[1].Use.Scalars[0]->isFloatTy());
}

TEST_CASE("CUDA.jl 3 and CUDAnative arrays; CUDAnative's separate keeps, "
          "defaults and axes pair with the arguments by order",
          "[KernelLayout]") {
  Described D(R"(
define void @k({ [2 x i64], { i64 } } %dest,
               { { [2 x i64], { i64 } }, float, { ptr addrspace(1), i64, [1 x i64] } } %args,
               { [2 x i8], [1 x i8] } %keeps, { [2 x i64], [1 x i64] } %defaults,
               [2 x { i64 }] %axes) {
  ret void
}
)");
  const KernelLayout &L = D.L;
  REQUIRE(L.Arrays.size() == 3);
  CHECK(L.Arrays[0].Layout == LayoutArray::CUDAnative);
  CHECK(L.Arrays[1].Layout == LayoutArray::CUDAnative);
  CHECK(L.Arrays[1].Path == "1.0");
  CHECK(L.Arrays[2].Layout == LayoutArray::CUDA3);
  CHECK(L.Arrays[2].Rank == 1);
  CHECK(D.role("0.1.0") == LeafRole::Data);
  CHECK(D.role("1.1") == LeafRole::Scalar);
  CHECK(D.role("2.1.0") == LeafRole::Keep);
  CHECK(L.Arrays[1].Keeps.size() == 2);
  CHECK(L.Arrays[2].Keeps.size() == 1);
  CHECK(L.Arrays[2].Defaults.size() == 1);
  CHECK(D.role("4.1.0") == LeafRole::Axis);
  CHECK(L.BroadcastRank == 2);
  CHECK(L.ParamNames[0] == "dest"); // plain names too
}

TEST_CASE("raw pointers: a dereferenced ptr or i64 parameter; an i64 only "
          "computed with is a number",
          "[KernelLayout]") {
  Described D(R"(
define ptx_kernel void @k(ptr addrspace(1) %p, i64 %a, i64 %n, ptr %unused) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %q = inttoptr i64 %a to ptr addrspace(1)
  %v = load double, ptr addrspace(1) %q
  %g = getelementptr double, ptr addrspace(1) %p, i64 %i
  store double %v, ptr addrspace(1) %g
  %in = icmp ult i64 %i, %n
  ret void
}
)");
  const KernelLayout &L = D.L;
  CHECK(D.role("0") == LeafRole::RawPointer);
  CHECK(D.role("1") == LeafRole::RawPointer);
  CHECK(D.role("2") == LeafRole::Scalar);
  CHECK(D.role("3") == LeafRole::Scalar); // never dereferenced: left zero
  REQUIRE(L.Arrays.size() == 2);
  CHECK(L.Arrays[0].Layout == LayoutArray::Raw);
  CHECK(L.Arrays[0].Use.Stride == 8);
  CHECK(L.ExtentParams == SmallVector<unsigned, 2>{2});
  CHECK(L.ThreadDims == 1);
}

TEST_CASE("integers that bound a loop, apart from those a thread index is "
          "compared with",
          "[KernelLayout]") {
  Described D(R"(
define ptx_kernel void @k(ptr addrspace(1) %p, i64 %n, i64 %m, i64 %s) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %in = icmp ult i64 %i, %n
  br i1 %in, label %loop, label %exit
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %a = add i64 %k, %s
  %g = getelementptr float, ptr addrspace(1) %p, i64 %a
  store float 0.0, ptr addrspace(1) %g
  %k1 = add i64 %k, 1
  %more = icmp ult i64 %k1, %m
  %again = and i1 %more, true
  br i1 %again, label %loop, label %exit
exit:
  ret void
}
)");
  const KernelLayout &L = D.L;
  CHECK(L.ExtentParams == SmallVector<unsigned, 2>{1});
  // m leaves the loop through a combined condition; s only offsets.
  CHECK(L.LoopBoundParams == SmallVector<unsigned, 2>{2});
}

TEST_CASE("an address inside an unknown aggregate is unknown; y thread "
          "indices make a 2-D kernel",
          "[KernelLayout]") {
  Described D(R"(
define ptx_kernel void @k({ ptr addrspace(1), i32 } %v) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %p = extractvalue { ptr addrspace(1), i32 } %v, 0
  store float 1.0, ptr addrspace(1) %p
  ret void
}
)");
  CHECK(D.role("0.0") == LeafRole::Unknown);
  CHECK(D.role("0.1") == LeafRole::Scalar);
  CHECK(D.L.Arrays.empty());
  CHECK(D.L.ThreadDims == 2);
}

TEST_CASE("KernelAbstractions' CompilerMetadata: dynamic, static workgroup "
          "from the name, static ndrange",
          "[KernelLayout]") {
  Described Dynamic(R"(
define ptx_kernel void @_Z3gpu_16CompilerMetadataI11DynamicSize({ ptr, i32 } %s,
    { [2 x [1 x i64]], [2 x [2 x [1 x i64]]] } %ctx) {
  ret void
}
)");
  CHECK(Dynamic.L.KernelAbstractions);
  CHECK(Dynamic.role("1.0.1.0") == LeafRole::NDRange);
  CHECK(Dynamic.role("1.1.0.1.0") == LeafRole::Blocks);
  CHECK(Dynamic.role("1.1.1.1.0") == LeafRole::Workgroup);
  CHECK(Dynamic.L.Leaves[Dynamic.L.findLeaf("1.1.1.1.0")].Dim == 1);

  Described Static(R"(
define ptx_kernel void @_Z3gpu_16CompilerMetadataI11DynamicSize12DynamicCheckv7NDRangeILi2ES0_10StaticSizeI8_16__16_ES8_vEE({ ptr, i32 } %s,
    { [2 x [1 x i64]], { [2 x [1 x i64]] } } %ctx) {
  ret void
}
)");
  CHECK(Static.L.StaticWorkgroup == SmallVector<uint64_t, 3>{16, 16});
  CHECK(Static.role("1.1.0.1.0") == LeafRole::Blocks);

  Described Odd(R"(
define ptx_kernel void @_Z3gpu_16CompilerMetadataI11DynamicSize({ [2 x i64], [2 x i64] } %ctx) {
  ret void
}
)");
  CHECK(Odd.role("0.1.1") ==
        LeafRole::Unknown); // 4 leaves: not 3 per dimension

  Described Fixed(R"(
define ptx_kernel void @_Z3gpu_16CompilerMetadataI10StaticSizeI6_256__E() {
  ret void
}
)");
  CHECK(Fixed.L.StaticNDRange);
  CHECK(Fixed.L.StaticNDRangeSizes.empty()); // not read: a name cut short

  // Names as GPUCompiler mangles them (both dialects): every size static,
  // the workgroup a substitution of an earlier StaticSize{(8, 8)}.
  Described AllStatic(R"(
define ptx_kernel void @_Z16gpu_halo_kernel_16CompilerMetadataI10StaticSizeI6_8__8_E12DynamicCheckvv7NDRangeILi2ES0_I6_1__1_ES1_vvEE13CuDeviceArrayI7Float64Li2ELi1EES9_() {
  ret void
}
)");
  CHECK(AllStatic.L.StaticNDRange);
  CHECK(AllStatic.L.StaticNDRangeSizes == SmallVector<uint64_t, 3>{8, 8});
  CHECK(AllStatic.L.StaticBlocks == SmallVector<uint64_t, 3>{1, 1});
  CHECK(AllStatic.L.StaticWorkgroup == SmallVector<uint64_t, 3>{8, 8});

  // An AMDGPU dump's dynamic ndrange with a static workgroup of 256.
  Described Dumped(R"(
define ptx_kernel void @_Z18gpu_groupreduce_1_16CompilerMetadataI11DynamicSize12DynamicCheckv16CartesianIndicesILi1E5TupleI5OneToI5Int64EEE7NDRangeILi1ES0_10StaticSizeI6_256__ES8_vEE14ROCDeviceArrayI7Float32Li1ELi1EESG_1_SF_() {
  ret void
}
)");
  CHECK_FALSE(Dumped.L.StaticNDRange);
  CHECK(Dumped.L.StaticBlocks.empty());
  CHECK(Dumped.L.StaticWorkgroup == SmallVector<uint64_t, 3>{256});
}

TEST_CASE("the kernel state as each CUDA.jl and Julia passed it",
          "[KernelLayout]") {
  for (const char *State : {"[1 x i64] %state", "{ i64, i32 } %state",
                            "{ ptr, i32 } %state", "{ ptr, i32 } %0"}) {
    INFO(State);
    Described D((Twine("define ptx_kernel void @k(") + State + ", i64 %n) {\n" +
                 "  ret void\n}\n")
                    .str());
    CHECK(D.role("0.0") == LeafRole::State);
  }
  // Unnamed, an i64 pair is someone's tuple.
  Described Tuple(R"(
define ptx_kernel void @k({ i64, i32 } %0) {
  ret void
}
)");
  CHECK(Tuple.role("0.0") == LeafRole::Scalar);
}

TEST_CASE("element types from the kernel's mangled name; a pointer the name "
          "gives is an array even unused",
          "[KernelLayout]") {
  // copy(::Ptr{Float64}, ::CuDeviceArray{Float64,1,1}, ::Ptr{Float32},
  // ::Int64), later mangling; the CuKernelContext ghost has no parameter.
  Described D(R"(
define ptx_kernel void @_Z4copy15CuKernelContextP7Float6413CuDeviceArrayIS0_Li1ELi1EEP7Float325Int64(
    ptr addrspace(1) %o, { ptr addrspace(1), i64, [1 x i64], i64 } %x,
    i64 %unused, i64 %n) {
  ret void
}
)");
  REQUIRE(D.L.Arrays.size() == 3);
  CHECK(D.L.Arrays[0].JuliaElement == "Float64");
  CHECK(D.L.Arrays[1].JuliaElement == "Float64");
  CHECK(D.L.Arrays[2].JuliaElement == "Float32");
  CHECK(D.role("2") == LeafRole::RawPointer);
  CHECK(D.role("3") == LeafRole::Scalar);

  // A name whose numbers do not line up with the parameters gives nothing.
  Described Off(R"(
define ptx_kernel void @_Z4copyP7Float647Float32(ptr addrspace(1) %o, i32 %n) {
  %v = load i64, ptr addrspace(1) %o
  ret void
}
)");
  REQUIRE(Off.L.Arrays.size() == 1);
  CHECK(Off.L.Arrays[0].JuliaElement.empty());
}

TEST_CASE("a block size the kernel hard-codes, unless it reads blockDim",
          "[KernelLayout]") {
  Described Fixed(R"(
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
define ptx_kernel void @k(i64 %n) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %b1 = add i32 %bx, 1
  %b64 = zext i32 %b1 to i64
  %ox = shl i64 %b64, 5
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %oy = mul i32 %by, 8
  ret void
}
)");
  CHECK(Fixed.L.FixedBlock == std::array<uint64_t, 3>{32, 8, 0});

  // LLVM 22's SLP vectorizer pairs `bx + 1` with another addition: the
  // scale is found in the block index's lane.
  Described Lanes(R"(
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
define ptx_kernel void @k(i32 %t, i64 %rows) {
entry:
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %0 = insertelement <2 x i32> poison, i32 %bx, i64 0
  %1 = insertelement <2 x i32> %0, i32 %t, i64 1
  %2 = insertelement <2 x i32> <i32 1, i32 poison>, i32 %t, i64 1
  %3 = add nuw nsw <2 x i32> %1, %2
  %4 = zext <2 x i32> %3 to <2 x i64>
  %5 = insertelement <2 x i64> <i64 32, i64 poison>, i64 %rows, i64 1
  %6 = mul <2 x i64> %5, %4
  %7 = extractelement <2 x i64> %6, i64 0
  ret void
}
)");
  CHECK(Lanes.L.FixedBlock == std::array<uint64_t, 3>{32, 0, 0});

  Described Adapts(R"(
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
define ptx_kernel void @k(i64 %n) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %o = mul i32 %bx, %nt
  %twice = mul i32 %bx, 64
  ret void
}
)");
  CHECK(Adapts.L.FixedBlock == std::array<uint64_t, 3>{0, 0, 0});

  Described TwoScales(R"(
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
define ptx_kernel void @k(i64 %n) {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %a = mul i32 %bx, 64
  %b = mul i32 %bx, 128
  ret void
}
)");
  CHECK(TwoScales.L.FixedBlock == std::array<uint64_t, 3>{0, 0, 0});
}

TEST_CASE("a parameter with too many leaves is refused with its index",
          "[KernelLayout]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = test::parseModule(
      Ctx, (Twine(Header) + "define void @k(i32 %a, [5000 x float] %b) {\n"
                            "  ret void\n}\n")
               .str());
  Expected<KernelLayout> L =
      describeKernelLayout(*M->getFunction("k"), "big.ll");
  REQUIRE_FALSE(bool(L));
  std::string Message = toString(L.takeError());
  INFO(Message);
  CHECK(StringRef(Message).starts_with(
      "big.ll: parameter 1 of k: too many leaves"));
}

TEST_CASE("a descriptor's row of DeviceArrays.def from where its leaves are",
          "[KernelLayout]") {
  auto Form = [](std::initializer_list<unsigned> Fields, unsigned Data,
                 bool Wrapped) -> const DeviceArrayForm * {
    return arrayFormByFields(Fields, Data, Wrapped);
  };
  ArrayRef<DeviceArrayForm> Rows = deviceArrayForms();
  // A dims tuple is several leaves of one field.
  CHECK(Form({0, 1, 2, 2, 3}, 0, false) == &Rows[LayoutArray::CUDA5]);
  CHECK(Form({0, 1, 2, 2}, 0, false) == &Rows[LayoutArray::CUDA3]);
  CHECK(Form({0, 0, 1}, 1, true) == &Rows[LayoutArray::CUDAnative]);
  CHECK(Form({0, 0, 1}, 1, false) == &Rows[LayoutArray::CUDAnative]);
  CHECK(Form({0, 1, 2}, 0, true) == nullptr);  // no wrapped CUDA.jl 3 address
  CHECK(Form({0, 1, 2}, 1, false) == nullptr); // the address elsewhere
  CHECK(Form({0, 2, 3}, 0, false) == nullptr); // a field missing
  CHECK(Form({0, 1, 2, 3, 4}, 0, false) == nullptr); // one too many
}
