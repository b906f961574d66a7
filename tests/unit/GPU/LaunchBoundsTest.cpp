// The proof that a launch keeps every access inside its buffers
// (src/GPU/LaunchBounds.cpp): guarded and unguarded kernels, constant
// offsets (stencils), loops bounded by a leaf, noinline helpers, index
// buffers by their init, and addresses in no buffer.
#include "../TestSupport.h"

#include "ir-sanitize/GPU/LaunchBounds.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/IR/LLVMContext.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

constexpr const char *Header = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
)";

/// The global thread index %i (i64) and the body \p Body of kernel @k with
/// parameters (ptr addrspace(1) %y, ptr addrspace(1) %x, i64 %n).
std::string kernel(const std::string &Body, const std::string &Extra = "") {
  return std::string(Header) + Extra + R"(
define ptx_kernel void @k(ptr addrspace(1) %y, ptr addrspace(1) %x, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %i32 = add i32 %b, %tid
  %i = zext i32 %i32 to i64
)" + Body +
         "}\n";
}

/// y and x of \p Y and \p X floats (x's init \p XInit, its type \p XType),
/// n = \p N, \p Threads threads.
LaunchSpec spec(uint64_t Threads, uint64_t Y, uint64_t X, int64_t N,
                BufferInit XInit = BufferInit::Random,
                ElementType XType = ElementType::F32) {
  LaunchSpec S;
  S.Threads = Threads;
  S.Buffers = {{"x", XType, X, XInit, 2, false, false},
               {"y", ElementType::F32, Y, BufferInit::Zero, 0, true, false}};
  S.Args = {{"0", {LeafValue::Buffer, "y", 0, 0}},
            {"1", {LeafValue::Buffer, "x", 0, 0}},
            {"2", {LeafValue::Integer, "", N, 0}}};
  S.sortByName();
  return S;
}

/// "" when proven, else the refusal.
std::string prove(const std::string &IR, const LaunchSpec &S) {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, IR);
  Error E = proveLaunchInBounds(*M, "k", S, "k.ll (launch)");
  if (!E)
    return "";
  std::string Msg = toString(std::move(E));
  CHECK(Msg.find('\n') == std::string::npos);
  CHECK(StringRef(Msg).starts_with("k.ll (launch): "));
  return Msg;
}

constexpr const char *Guarded = R"(
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %xp, align 4
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %v, ptr addrspace(1) %yp, align 4
  br label %exit
exit:
  ret void
)";

} // namespace

TEST_CASE("a guarded kernel is in bounds exactly when its guard fits the "
          "buffers",
          "[LaunchBounds]") {
  CHECK(prove(kernel(Guarded), spec(1000, 1000, 1000, 1000)) == "");
  // 1024 threads run (4 blocks of 256); the guard stops the last 24.
  CHECK(prove(kernel(Guarded), spec(1000, 1000, 1000, 1000)).empty());
  // n larger than a buffer: the store may reach past y.
  std::string Why = prove(kernel(Guarded), spec(1000, 999, 1000, 1000));
  CHECK(Why.find("the store may touch bytes 0 to 4000 of y, which has 3996 "
                 "bytes") != std::string::npos);
  // n = 0: nothing is accessed at all, which is in bounds (and vacuous,
  // which the runner says).
  CHECK(prove(kernel(Guarded), spec(1000, 1, 1, 0)) == "");
}

TEST_CASE("an unguarded kernel is bounded by the threads the launch runs",
          "[LaunchBounds]") {
  const char *Body = R"(
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %xp, align 4
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %v, ptr addrspace(1) %yp, align 4
  ret void
)";
  CHECK(prove(kernel(Body), spec(1024, 1024, 1024, 0)) == "");
  // --dims 1000 runs 1,024 threads on 1,000 elements.
  CHECK(prove(kernel(Body), spec(1000, 1000, 1000, 0))
            .find("may touch bytes 0 to 4096 of x, which has 4000 bytes") !=
        std::string::npos);
}

TEST_CASE("a constant index offset counts: a stencil reading x[i+1]",
          "[LaunchBounds]") {
  const char *Body = R"(
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %xq = getelementptr inbounds float, ptr addrspace(1) %xp, i64 1
  %v = load float, ptr addrspace(1) %xq, align 4
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %v, ptr addrspace(1) %yp, align 4
  br label %exit
exit:
  ret void
)";
  CHECK(prove(kernel(Body), spec(1024, 1024, 1024, 1024))
            .find("the load may touch bytes 4 to 4100 of x, which has 4096 "
                  "bytes") != std::string::npos);
  CHECK(prove(kernel(Body), spec(1024, 1024, 1025, 1024)) == "");
}

TEST_CASE("a loop bounded by a leaf, and a noinline helper", "[LaunchBounds]") {
  // y[i] = sum_{k < n} x[i * n + k], the row sum of an n x n matrix, in a
  // noinline helper.
  const char *Body = R"(
  %ok = icmp slt i64 %i, %n
  br i1 %ok, label %call, label %exit
call:
  call void @rowsum(ptr addrspace(1) %y, ptr addrspace(1) %x, i64 %i, i64 %n)
  br label %exit
exit:
  ret void
)";
  const char *Helper = R"(
define void @rowsum(ptr addrspace(1) %y, ptr addrspace(1) %x, i64 %i, i64 %n) noinline {
entry:
  %row = mul nsw i64 %i, %n
  %any = icmp sgt i64 %n, 0
  br i1 %any, label %loop, label %done
loop:
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %s = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %j = add nsw i64 %row, %k
  %xp = getelementptr inbounds float, ptr addrspace(1) %x, i64 %j
  %v = load float, ptr addrspace(1) %xp, align 4
  %s1 = fadd float %s, %v
  %k1 = add nuw nsw i64 %k, 1
  %more = icmp slt i64 %k1, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi float [ 0.0, %entry ], [ %s1, %loop ]
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %i
  store float %r, ptr addrspace(1) %yp, align 4
  ret void
}
)";
  CHECK(prove(kernel(Body, Helper), spec(64, 64, 64 * 64, 64)) == "");
  // x one row short: the last rows' loads reach past it.
  CHECK(prove(kernel(Body, Helper), spec(64, 64, 63 * 64, 64))
            .find("the load may touch bytes") != std::string::npos);
}

TEST_CASE("an index loaded from a buffer is bounded by its init",
          "[LaunchBounds]") {
  // y[i] = x[idx[i] - 1] (Julia's 1-based gather), idx in buffer "x"'s
  // place as i64: here x holds the indices and y the gathered values of y.
  const char *Body = R"(
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %ip = getelementptr inbounds i64, ptr addrspace(1) %x, i64 %i
  %idx = load i64, ptr addrspace(1) %ip, align 8
  %j = add nsw i64 %idx, -1
  %yp = getelementptr inbounds float, ptr addrspace(1) %y, i64 %j
  store float 1.0, ptr addrspace(1) %yp, align 4
  br label %exit
exit:
  ret void
)";
  auto Gather = [&](BufferInit Init) {
    return prove(kernel(Body),
                 spec(1024, 1024, 1024, 1024, Init, ElementType::I64));
  };
  CHECK(Gather(BufferInit::Range1) == "");
  CHECK(Gather(BufferInit::Ones) == "");
  // range counts from 0: index 0 - 1 is before y.
  CHECK(Gather(BufferInit::Range).find("may touch bytes -4 to") !=
        std::string::npos);
  std::string Random = Gather(BufferInit::Random);
  INFO(Random);
  CHECK(Random.find("cannot be bounded at this launch: its index is loaded "
                    "from x (its init: random)") != std::string::npos);
}

TEST_CASE("an address in no buffer of the launch is refused",
          "[LaunchBounds]") {
  // A pointer leaf the spec leaves unbound (zero) and is stored through.
  LaunchSpec S = spec(1024, 1024, 1024, 1024);
  S.Args.erase(S.Args.begin()); // "0": y unbound
  S.Buffers.pop_back();
  S.sortByName();
  CHECK(prove(kernel(Guarded), S)
            .find("goes through an address that is in "
                  "no buffer of the launch") != std::string::npos);
  // Shared memory is not a buffer's: not judged.
  const char *Shared = R"(
  %sp = getelementptr inbounds float, ptr addrspace(3) @tile, i64 %i
  store float 1.0, ptr addrspace(3) %sp, align 4
  ret void
)";
  CHECK(prove(kernel(Shared, "@tile = internal addrspace(3) global [256 x "
                             "float] undef\n"),
              spec(256, 1, 1, 0)) == "");
}
