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
  CHECK(enzymeHandlesBundle("jl_roots"));
  CHECK_FALSE(enzymeHandlesBundle("gc-transition"));
}
