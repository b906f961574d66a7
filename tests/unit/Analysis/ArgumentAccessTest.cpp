#include "ir-sanitize/Analysis/ArgumentAccess.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {
std::vector<ArgumentAccess> accessOf(StringRef IR) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = test::parseModule(Ctx, IR);
  return analyzeArgumentAccess(*M->getFunction("k"));
}
} // namespace

TEST_CASE("pointer arguments: loads read, stores write, atomics do both",
          "[ArgumentAccess]") {
  std::vector<ArgumentAccess> A = accessOf(R"(
declare void @llvm.memcpy.p1.p1.i64(ptr addrspace(1), ptr addrspace(1), i64, i1)
define void @k(ptr addrspace(1) %in, ptr addrspace(1) %out,
               ptr addrspace(1) %acc, ptr addrspace(1) %unused,
               ptr addrspace(1) %src, ptr addrspace(1) %dst, i1 %c, i64 %i) {
  %p = getelementptr float, ptr addrspace(1) %in, i64 %i
  %v = load float, ptr addrspace(1) %p
  %q = select i1 %c, ptr addrspace(1) %out, ptr addrspace(1) %dst
  store float %v, ptr addrspace(1) %q
  %old = atomicrmw fadd ptr addrspace(1) %acc, float %v monotonic
  %same = icmp eq ptr addrspace(1) %in, %unused
  call void @llvm.memcpy.p1.p1.i64(ptr addrspace(1) %dst, ptr addrspace(1) %src, i64 8, i1 false)
  ret void
}
)");
  REQUIRE(A.size() == 8);
  CHECK(A[0].at(0) == MemoryAccess::Read);
  CHECK(A[1].at(0) == MemoryAccess::Write);
  CHECK(A[2].at(0) == MemoryAccess::ReadWrite);
  CHECK(A[3].at(0) == MemoryAccess::None); // only compared
  CHECK(A[4].at(0) == MemoryAccess::Read);
  CHECK(A[5].at(0) == MemoryAccess::Write);
  CHECK(A[6].ByOffset.empty()); // not an address
  CHECK(A[6].at(0) == MemoryAccess::None);
  CHECK(A[7].at(0) == MemoryAccess::None); // an integer never made a pointer
}

TEST_CASE("an address matched across a warp is still followed",
          "[ArgumentAccess]") {
  // AccumulationAggregation groups lanes by address: the match returns a
  // lane mask, which says nothing about the memory; its neighbour test
  // shuffles the address's low word, another lane's address into the same
  // memory, followed as this one's (here made a pointer and read).
  std::vector<ArgumentAccess> A = accessOf(R"(
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
define void @k(ptr addrspace(1) %acc, float %v, ptr addrspace(1) %b) {
  %a = ptrtoint ptr addrspace(1) %acc to i64
  %peers = call i32 @llvm.nvvm.match.any.sync.i64(i32 -1, i64 %a)
  %low = trunc i64 %a to i32
  %below = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %low, i32 1, i32 0)
  %same = icmp eq i32 %low, %below
  %old = atomicrmw fadd ptr addrspace(1) %acc, float %v monotonic
  %bi = ptrtoint ptr addrspace(1) %b to i32
  %other = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %bi, i32 1, i32 0)
  %op = inttoptr i32 %other to ptr addrspace(1)
  %r = load float, ptr addrspace(1) %op
  ret void
}
)");
  REQUIRE(A.size() == 3);
  CHECK(A[0].at(0) == MemoryAccess::ReadWrite);
  CHECK(A[2].at(0) == MemoryAccess::Read);
}

TEST_CASE("pointers inside aggregate arguments are found at their offsets",
          "[ArgumentAccess]") {
  // GPUCompiler's CuDeviceArray and a Broadcasted holding two of them.
  std::vector<ArgumentAccess> A = accessOf(R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
%Arr = type { ptr addrspace(1), i64, [1 x i64], i64 }
define void @k(%Arr %dest, { [2 x %Arr], i32 } %bc, i64 %i) {
  %x.arr = extractvalue { [2 x %Arr], i32 } %bc, 0, 0
  %x = extractvalue %Arr %x.arr, 0
  %y = extractvalue { [2 x %Arr], i32 } %bc, 0, 1, 0
  %xi = ptrtoint ptr addrspace(1) %x to i64
  %xo = add i64 %xi, 8
  %xp = inttoptr i64 %xo to ptr addrspace(1)
  %a = load float, ptr addrspace(1) %xp
  %b = load float, ptr addrspace(1) %y
  %s = fadd float %a, %b
  %d = extractvalue %Arr %dest, 0
  store float %s, ptr addrspace(1) %d
  ret void
}
)");
  CHECK(A[0].at(0) == MemoryAccess::Write);
  CHECK(A[0].at(8) == MemoryAccess::None);
  CHECK(A[1].at(0) == MemoryAccess::Read);  // x, through an integer
  CHECK(A[1].at(32) == MemoryAccess::Read); // y: the second array
  CHECK(A[1].ByOffset.size() == 2);
}

TEST_CASE("an address passed as an integer is followed", "[ArgumentAccess]") {
  // CUDAnative-era kernels take device pointers as i64.
  std::vector<ArgumentAccess> A = accessOf(R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
define void @k({ i64, i64 } %arr, i64 %out, i32 %small) {
  %a = extractvalue { i64, i64 } %arr, 1
  %p = inttoptr i64 %a to ptr addrspace(1)
  %v = load float, ptr addrspace(1) %p
  %q = inttoptr i64 %out to ptr addrspace(1)
  store float %v, ptr addrspace(1) %q
  ret void
}
)");
  CHECK(A[0].at(8) == MemoryAccess::Read);
  CHECK(A[0].at(0) == MemoryAccess::None);
  CHECK(A[1].at(0) == MemoryAccess::Write);
  CHECK(A[2].ByOffset.empty());
}

TEST_CASE("a pointer is followed through the aggregates that hold it",
          "[ArgumentAccess]") {
  // Enzyme caches a shadow pointer with two integers in a struct.
  std::vector<ArgumentAccess> A = accessOf(R"(
%Cache = type { ptr addrspace(1), i64, i64 }
declare i64 @llvm.umin.i64(i64, i64)
define void @k(ptr addrspace(1) %shadow, ptr addrspace(1) %other, i64 %n, i1 %c) {
entry:
  %a = insertvalue %Cache poison, ptr addrspace(1) %shadow, 0
  %b = insertvalue %Cache %a, i64 %n, 1
  %o = insertvalue { i32, %Cache } poison, %Cache %b, 1
  br i1 %c, label %use, label %exit
use:
  %inner = extractvalue { i32, %Cache } %o, 1
  %n2 = extractvalue %Cache %inner, 1
  %p = extractvalue %Cache %inner, 0
  %old = atomicrmw fadd ptr addrspace(1) %p, float 1.0 monotonic
  %gone = insertvalue %Cache %b, ptr addrspace(1) %other, 0
  %q = extractvalue %Cache %gone, 0
  %oi = ptrtoint ptr addrspace(1) %other to i64
  %lim = call i64 @llvm.umin.i64(i64 %oi, i64 %n2)
  %cmp = icmp ult i64 %lim, 7
  br label %exit
exit:
  ret void
}
)");
  CHECK(A[0].at(0) == MemoryAccess::ReadWrite);
  CHECK(A[1].at(0) == MemoryAccess::None);
}

TEST_CASE("a use that cannot be followed makes the argument unknown",
          "[ArgumentAccess]") {
  std::vector<ArgumentAccess> A = accessOf(R"(
%Arr = type { ptr addrspace(1), i64 }
declare void @opaque(ptr addrspace(1))
declare void @whole(%Arr)
define void @k(ptr addrspace(1) %called, ptr addrspace(1) %stored,
               ptr addrspace(1) %slot, %Arr %agg, ptr byval(%Arr) %byval,
               ptr addrspace(1) %fine, ptr addrspace(1) %held) {
  call void @opaque(ptr addrspace(1) %called)
  store ptr addrspace(1) %stored, ptr addrspace(1) %slot
  call void @whole(%Arr %agg)
  %v = load i64, ptr addrspace(1) %fine
  %h = insertvalue %Arr poison, ptr addrspace(1) %held, 0
  call void @whole(%Arr %h)
  ret void
}
)");
  CHECK_FALSE(A[0].at(0));
  CHECK_FALSE(A[1].at(0));
  CHECK(A[2].at(0) == MemoryAccess::Write);
  CHECK_FALSE(A[3].at(0));
  CHECK(A[4].at(0) == MemoryAccess::None); // byval, never used
  CHECK(A[5].at(0) == MemoryAccess::Read);
  CHECK_FALSE(A[6].at(0)); // its holder goes to a call
}

TEST_CASE("an aggregate passed in memory (byval, byref) is read through "
          "its loads",
          "[ArgumentAccess]") {
  std::vector<ArgumentAccess> A = accessOf(R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
%Arr = type { ptr addrspace(1), i64, ptr addrspace(1) }
declare void @opaque(ptr)
define void @k(ptr byval(%Arr) %v, ptr byref(%Arr) %r, ptr byval(%Arr) %esc,
               ptr byval(%Arr) %wr, ptr byval(%Arr) %whole) {
  %x = load ptr addrspace(1), ptr %v
  %f = load float, ptr addrspace(1) %x
  %p2 = getelementptr inbounds i8, ptr %v, i64 16
  %y = load ptr addrspace(1), ptr %p2
  store float %f, ptr addrspace(1) %y
  %rx = load ptr addrspace(1), ptr %r
  store double 0.0, ptr addrspace(1) %rx
  call void @opaque(ptr %esc)
  store i64 0, ptr %wr
  %agg = load %Arr, ptr %whole
  %wx = extractvalue %Arr %agg, 2
  %wv = load double, ptr addrspace(1) %wx
  ret void
}
)");
  CHECK(A[0].at(0) == MemoryAccess::Read);
  CHECK(A[0].at(8) == MemoryAccess::None); // the length: no address used
  CHECK(A[0].at(16) == MemoryAccess::Write);
  CHECK(A[1].at(0) == MemoryAccess::Write);
  CHECK_FALSE(A[2].at(0)); // passed to a call: nothing known
  CHECK_FALSE(A[3].at(0)); // written: its fields are not what was passed
  CHECK(A[4].at(16) == MemoryAccess::Read);
  CHECK(A[4].at(0) == MemoryAccess::None);
}

TEST_CASE("element use: scalar types, the stride an index shows, index "
          "arrays",
          "[ArgumentAccess]") {
  // The types it names live in the module's context: kept alive here.
  LLVMContext Ctx;
  std::unique_ptr<Module> M = test::parseModule(Ctx, R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
%Dual = type { float, [1 x float] }
define void @k(ptr addrspace(1) %dual, ptr addrspace(1) %bytes,
               ptr addrspace(1) %idx, ptr addrspace(1) %x, i64 %i) {
  %d = getelementptr %Dual, ptr addrspace(1) %dual, i64 %i
  store %Dual zeroinitializer, ptr addrspace(1) %d
  %off = shl i64 %i, 3
  %plus = add i64 %off, 4
  %b = getelementptr i8, ptr addrspace(1) %bytes, i64 %plus
  store float 1.0, ptr addrspace(1) %b
  %ip = getelementptr i64, ptr addrspace(1) %idx, i64 %i
  %j = load i64, ptr addrspace(1) %ip
  %xp = getelementptr float, ptr addrspace(1) %x, i64 %j
  %v = load float, ptr addrspace(1) %xp
  ret void
}
)");
  std::vector<ArgumentAccess> A = analyzeArgumentAccess(*M->getFunction("k"));
  REQUIRE(A.size() == 5);
  const ElementUse &Dual = A[0].Elements.at(0);
  CHECK(Dual.Stride == 8);
  CHECK(Dual.AccessBytes == 8);
  REQUIRE(Dual.Scalars.size() == 1);
  CHECK(Dual.Scalars[0]->isFloatTy());
  CHECK(A[1].Elements.at(0).Stride == 8); // i8 GEP by i << 3 (+ 4)
  CHECK(A[1].Elements.at(0).AccessBytes == 4);
  CHECK(A[2].Elements.at(0).ValuesIndexAddresses);
  CHECK(A[2].Elements.at(0).Scalars[0]->isIntegerTy(64));
  CHECK_FALSE(A[3].Elements.at(0).ValuesIndexAddresses);
  CHECK(A[3].Elements.at(0).Stride == 4);
  // The types the GEPs index by: floats (x), none for %Dual, i8 or i64.
  REQUIRE(A[3].Elements.at(0).IndexedFloats.size() == 1);
  CHECK(A[3].Elements.at(0).IndexedFloats[0]->isFloatTy());
  CHECK(Dual.IndexedFloats.empty());
  CHECK(A[1].Elements.at(0).IndexedFloats.empty());
  CHECK(A[2].Elements.at(0).IndexedFloats.empty());
}
