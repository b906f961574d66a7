#include "ir-sanitize/Analysis/BundleSites.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

TEST_CASE("bundledCalls honours the scope and names callees", "[BundleSites]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString(R"(
declare void @llvm.assume(i1)
declare i32 @cuInit(i32)
define void @f(ptr %fp) !dbg !3 {
  call void @llvm.assume(i1 true) [ "align"(ptr %fp, i64 8) ]
  %a = call i32 @cuInit(i32 0) [ "gc-transition"() ], !dbg !6
  %b = call i32 %fp(i32 0) [ "x"() ]
  %c = call i32 @cuInit(i32 1)
  ret void
}
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "init.jl", directory: ".")
!3 = distinct !DISubprogram(name: "f", scope: null, file: !2, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!6 = !DILocation(line: 7, column: 2, scope: !3)
)",
                               Err, Ctx);
  REQUIRE(M);
  Function &F = *M->getFunction("f");
  auto CCalls = bundledCalls(F, BundleScope::CCalls);
  REQUIRE(CCalls.size() == 2);
  CHECK(calleeName(*CCalls[0]) == "cuInit");
  CHECK(debugLocation(*CCalls[0]) == "init.jl:7:2");
  CHECK(calleeName(*CCalls[1]) == "<indirect>");
  CHECK(debugLocation(*CCalls[1]).empty());
  auto All = bundledCalls(F, BundleScope::All);
  REQUIRE(All.size() == 3);
  CHECK(calleeName(*All[0]) == "llvm.assume");
}

TEST_CASE("knownEnzymeSupport says what holds without asking a plugin",
          "[BundleSites]") {
  CHECK(knownEnzymeSupport("jl_roots") == KnownEnzymeSupport::EveryEnzyme);
  CHECK(knownEnzymeSupport("gc-transition") == KnownEnzymeSupport::SincePR2906);
  CHECK(knownEnzymeSupport("julia.gc_alloc_ptr_offsets") ==
        KnownEnzymeSupport::NoEnzyme);
}

TEST_CASE("bundleShapesIn: one shape per tag and operand types, counted",
          "[BundleSites]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString(R"(
%Box = type { ptr addrspace(10), %Inner }
%Inner = type { i64 }
%Opaque = type opaque
declare void @g()
define void @f(ptr %ptls, ptr addrspace(10) %x, %Box %b) {
  call void @g() [ "gc-transition"() ]
  call void @g() [ "gc-transition"(ptr %ptls) ]
  call void @g() [ "gc-transition"(ptr null) ]
  call void @g() [ "jl_roots"(ptr addrspace(10) %x, %Box %b), "odd\22tag"() ]
  call void @g() [ "x"(ptr %ptls) ]
  call void @g() [ "x"(ptr %ptls, ptr null, ptr %ptls) ]
  ret void
}
)",
                               Err, Ctx);
  REQUIRE(M);
  std::vector<BundleShape> Shapes = bundleShapesIn(*M, BundleScope::CCalls);
  REQUIRE(Shapes.size() == 5);
  CHECK(Shapes[0].key() == "\"gc-transition\"()");
  CHECK(Shapes[0].CallSites == 1);
  CHECK(Shapes[1].key() == "\"gc-transition\"(ptr)");
  CHECK(Shapes[1].CallSites == 2);
  CHECK(Shapes[1].Operands == std::vector<std::string>{"ptr null"});
  const BundleShape &Roots = Shapes[2];
  CHECK(Roots.key() == "\"jl_roots\"(ptr addrspace(10), %Box)");
  CHECK(Roots.Operands == std::vector<std::string>{"ptr addrspace(10) null",
                                                   "%Box zeroinitializer"});
  // Both named structs %Box uses are defined, each once.
  REQUIRE(Roots.TypeDefinitions.size() == 2);
  CHECK(Roots.TypeDefinitions[0] ==
        "%Box = type { ptr addrspace(10), %Inner }");
  CHECK(Roots.TypeDefinitions[1] == "%Inner = type { i64 }");
  CHECK(Roots.Unprobeable.empty());
  CHECK(Shapes[3].Tag == "odd\"tag");
  CHECK(Shapes[3].key() == "\"odd\\22tag\"()");
  // Operands of one type are one question: x(ptr, ptr, ptr) is x(ptr).
  CHECK(Shapes[4].key() == "\"x\"(ptr)");
  CHECK(Shapes[4].CallSites == 2);
  CHECK(Shapes[4].Operands == std::vector<std::string>{"ptr null"});
}

TEST_CASE("bundleShapeOf: an operand type without constants is unprobeable",
          "[BundleSites]") {
  LLVMContext Ctx;
  SMDiagnostic Err;
  auto M = parseAssemblyString(R"(
declare void @g()
define void @f(target("irs.opaque") %t, <vscale x 2 x i64> %v) {
  call void @g() [ "x"(target("irs.opaque") %t) ]
  call void @g() [ "y"(<vscale x 2 x i64> %v) ]
  ret void
}
)",
                               Err, Ctx);
  REQUIRE(M);
  std::vector<BundleShape> Shapes = bundleShapesIn(*M, BundleScope::CCalls);
  REQUIRE(Shapes.size() == 2);
  CHECK(Shapes[0].Unprobeable ==
        "operand type target(\"irs.opaque\") has no constant to probe with");
  CHECK(Shapes[1].Unprobeable.empty());
  CHECK(Shapes[1].Operands ==
        std::vector<std::string>{"<vscale x 2 x i64> zeroinitializer"});
}
