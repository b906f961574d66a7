#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "EnzymeTestUtils.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;
using namespace irs::test;

namespace {

// The stderr of opt with the 2025-02 Enzyme on a gc-transition call
// (stack trimmed to the frames the diagnosis reads).
const char *AbortLog =
    R"(unsupported tag gc-transition for   %r = call i32 @thunk(ptr %buf, i64 0) #1 [ "jl_roots"(ptr %buf), "gc-transition"() ]
unsupported tag
UNREACHABLE executed at /opt/enzyme-src/enzyme/Enzyme/GradientUtils.cpp:308!
PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
Stack dump:
0.	Program arguments: /usr/lib/llvm-19/bin/opt fwd.ll -load-pass-plugin=/x/LLVMEnzyme-19.so -load=/x/LLVMEnzyme-19.so -enzyme-preopt=false -passes=enzyme -S -o out.ll
1.	Running pass "EnzymeNewPM" on module "fwd.ll"
 #0 0x00007f22bccb73c6 llvm::sys::PrintStackTrace(llvm::raw_ostream&, int) (/usr/lib/llvm-19/bin/../lib/libLLVM.so.19.1+0xeb73c6)
 #4 0x00007f22bb8a8eec __pthread_kill_implementation ./nptl/pthread_kill.c:44:76
 #6 0x00007f22bb844472 abort ./stdlib/abort.c:81:7
 #7 0x00007f22bcc0bf6f (/usr/lib/llvm-19/bin/../lib/libLLVM.so.19.1+0xe0bf6f)
 #8 0x00007f22b7cb9c2a GradientUtils::getInvertedBundles(llvm::CallInst*, llvm::ArrayRef<ValueType>, bool) (/x/LLVMEnzyme-19.so+0x4b9c2a)
 #9 0x00007f22b7c15132 AdjointGenerator::recursivelyHandleSubfunction(llvm::CallInst&, llvm::Function*, bool) (/x/LLVMEnzyme-19.so+0x415132)
#11 0x00007f22b7bca393 EnzymeLogic::CreateForwardDiff(RequestContext, llvm::Function*) (/x/LLVMEnzyme-19.so+0x3ca393)
#12 0x00007f22b7b7c1cd (anonymous namespace)::EnzymeBase::HandleAutoDiff(llvm::Instruction*, unsigned int) Enzyme.cpp:0:0
)";

// An Enzyme diagnostic (opt exits 1): it names the function itself.
const char *DiagnosticLog =
    "error: <unknown>:0:0: in function preprocess_thunk i32 (ptr, i64): "
    "Enzyme: No forward mode derivative found for cuPointerGetAttribute\n"
    " at context:   %r = call i32 @cuPointerGetAttribute(ptr %p, i32 1, i64 "
    "%q) #0\n";

const char *HostIR = R"(
declare i32 @cuPointerGetAttribute(ptr, i32, i64)
define internal i32 @thunk(ptr %p, i64 %q) {
  %r = call i32 @cuPointerGetAttribute(ptr %p, i32 1, i64 %q)
  ret i32 %r
}
define double @julia_f(double %x, ptr %buf) {
  %r = call i32 @thunk(ptr %buf, i64 0) #0 [ "jl_roots"(ptr %buf), "gc-transition"() ], !dbg !3
  ret double %x
}
define double @driver(double %x, double %dx, ptr %b, ptr %db) {
  %d = call double (...) @__enzyme_fwddiff(ptr @julia_f, double %x, double %dx, ptr %b, ptr %db)
  ret double %d
}
declare double @__enzyme_fwddiff(...)
attributes #0 = { nounwind }
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "f.jl", directory: ".")
!3 = !DILocation(line: 1, scope: !4)
!4 = distinct !DISubprogram(name: "f", scope: !2, file: !2, unit: !1, spFlags: DISPFlagDefinition)
)";

} // namespace

TEST_CASE("opt is run with both plugin flags and Enzyme's pass",
          "[EnzymeRunner]") {
  EnzymeInvocation Inv;
  Inv.InputPath = "in.ll";
  Inv.OutputPath = "out.ll";
  Inv.PluginPath = "/p/LLVMEnzyme-19.so";
  Inv.TextOutput = true;
  std::vector<std::string> Args = enzymeOptArgs(Inv);
  std::vector<std::string> Want = {"in.ll",
                                   "-load-pass-plugin=/p/LLVMEnzyme-19.so",
                                   "-load=/p/LLVMEnzyme-19.so",
                                   "-enzyme-preopt=false",
                                   "-passes=enzyme",
                                   "-S",
                                   "-o",
                                   "out.ll"};
  CHECK(Args == Want);
  // As a stage prints it: stdin to stdout, with the user's extra arguments.
  Inv.ExtraArgs = {"-enzyme-max-type-depth=4"};
  CHECK(enzymeCommandLine(Inv) ==
        "opt -load-pass-plugin=/p/LLVMEnzyme-19.so -load=/p/LLVMEnzyme-19.so "
        "-enzyme-preopt=false -passes=enzyme -S -enzyme-max-type-depth=4");
  // A module that registers rules: preserve-nvvm reads them first.
  Inv.ModuleRules = true;
  CHECK(enzymeOptArgs(Inv)[4] == "-passes=preserve-nvvm,enzyme");
}

TEST_CASE("an unknown intrinsic after a function dump is the message",
          "[EnzymeRunner]") {
  const char *Log =
      "error: <unknown>:0:0: in function preprocess_k void (float): Enzyme: "
      "; Function Attrs: mustprogress willreturn\n"
      "define internal void @preprocess_k(float %v) {\n"
      "}\n"
      "\n"
      "cannot handle (reverse) unknown intrinsic\n"
      "llvm.nvvm.shfl.sync.down.f32\n"
      "  %s = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, "
      "i32 16, i32 31) #3\n";
  EnzymeLogDiagnosis D = diagnoseEnzymeLog(Log);
  CHECK(D.Function == "k");
  CHECK(D.Message == "Enzyme: cannot handle (reverse) unknown intrinsic "
                     "llvm.nvvm.shfl.sync.down.f32");
  CHECK(D.Instruction == "%s = call float @llvm.nvvm.shfl.sync.down.f32(i32 "
                         "-1, float %v, i32 16, i32 31) #3");
}

TEST_CASE("an unsupported-tag abort is diagnosed from Enzyme's log",
          "[EnzymeRunner]") {
  EnzymeLogDiagnosis D = diagnoseEnzymeLog(AbortLog);
  CHECK(D.Message == "unsupported tag gc-transition for %r = call i32 "
                     "@thunk(ptr %buf, i64 0) #1 [ \"jl_roots\"(ptr %buf), "
                     "\"gc-transition\"() ]");
  CHECK(D.Instruction.rfind("%r = call i32 @thunk", 0) == 0);
  CHECK(D.Where == "GradientUtils.cpp:308");
  CHECK(D.Phase == "forward mode (CreateForwardDiff)");
  CHECK(D.Frame == "GradientUtils::getInvertedBundles");
  CHECK(D.Function.empty());
}

TEST_CASE("sanitizer and C++ runtime frames are not the plugin's",
          "[EnzymeRunner]") {
  // opt with clang's ASan runtime preloaded: its intercepted backtrace() is
  // the top frame of every dump, above libstdc++ and the plugin.
  std::string Log = AbortLog;
  std::string Plugin = " #8 0x00007f22b7cb9c2a GradientUtils::";
  std::string Runtimes =
      " #1 0x00007f22bd0a2b3c ___interceptor_backtrace "
      "(/usr/lib/llvm-19/lib/clang/19/lib/linux/libclang_rt.asan-x86_64.so"
      "+0x7ab3c)\n"
      " #2 0x00007f22bd0a2b3c __interceptor_backtrace "
      "(/usr/lib/gcc/x86_64-linux-gnu/12/libasan.so.8+0x7ab3c)\n"
      " #3 0x00007f22bb6ae0c2 std::terminate() "
      "(/lib/x86_64-linux-gnu/libstdc++.so.6+0xae0c2)\n";
  Log.insert(Log.find(Plugin), Runtimes);
  CHECK(diagnoseEnzymeLog(Log).Frame == "GradientUtils::getInvertedBundles");
}

TEST_CASE("an Enzyme diagnostic names the original function",
          "[EnzymeRunner]") {
  EnzymeLogDiagnosis D = diagnoseEnzymeLog(DiagnosticLog);
  CHECK(D.Function == "thunk");
  CHECK(D.Message == "Enzyme: No forward mode derivative found for "
                     "cuPointerGetAttribute");
  CHECK(D.Instruction ==
        "%r = call i32 @cuPointerGetAttribute(ptr %p, i32 1, i64 %q) #0");
}

TEST_CASE("other failures fall back to the first meaningful line",
          "[EnzymeRunner]") {
  CHECK(diagnoseEnzymeLog("LLVM ERROR: out of memory\n").Message ==
        "out of memory");
  CHECK(diagnoseEnzymeLog("opt: /src/Enzyme/TypeAnalysis.cpp:12: void f(): "
                          "Assertion `x' failed.\n")
            .Where == "TypeAnalysis.cpp:12");
  CHECK(diagnoseEnzymeLog("\nopt: Unknown command line argument "
                          "'-enzyme-preopt=false'.\n")
            .Message == "opt: Unknown command line argument "
                        "'-enzyme-preopt=false'.");
}

TEST_CASE("what the log says is cut to a line's worth", "[EnzymeRunner]") {
  std::string Huge(1000000, 'x');
  EnzymeLogDiagnosis D = diagnoseEnzymeLog(Huge + "\n");
  CHECK(D.Message.size() < 500);
  CHECK(StringRef(D.Message).starts_with("xxxx"));
  CHECK(StringRef(D.Message).ends_with(
      "... [999600 more bytes; see Enzyme's log]"));
  D = diagnoseEnzymeLog("LLVM ERROR: " + Huge + "\n");
  CHECK(D.Message.size() < 500);
}

TEST_CASE("a quoted instruction is traced back to its function",
          "[EnzymeRunner]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  // Attribute group numbers and !dbg attachments differ in Enzyme's copy.
  CHECK(findFunctionWithInstruction(
            *M, "  %r = call i32 @thunk(ptr %buf, i64 0) #7 [ "
                "\"jl_roots\"(ptr %buf), \"gc-transition\"() ]") == "julia_f");
  CHECK(findFunctionWithInstruction(*M, "%q = add i64 1, 2").empty());
  CHECK(differentiatedFunctions(*M) == std::vector<std::string>{"julia_f"});

  EnzymeResult R;
  R.Outcome.How = ChildOutcome::Kind::Signalled;
  R.Outcome.Signal = 6;
  R.Diagnosis = diagnoseEnzymeLog(AbortLog);
  attributeToFunction(R, *M);
  CHECK(R.Diagnosis.Function == "julia_f");
  CHECK(R.summary().rfind("aborted (signal 6 (SIGABRT)): unsupported tag "
                          "gc-transition for ",
                          0) == 0);
  CHECK(R.summary().find("[in julia_f]") != std::string::npos);
}

TEST_CASE("an aborting plugin is a diagnosed result, not a crash",
          "[EnzymeRunner]") {
  WorkDir W;
  auto R =
      runEnzyme(enzymeRun(W, "abort", fakePlugin("FakeEnzymeAbort.so"), 60));
  REQUIRE(static_cast<bool>(R));
  CHECK_FALSE(R->ok());
  CHECK(R->Outcome.How == ChildOutcome::Kind::Signalled);
  CHECK(R->Diagnosis.Message.rfind("unsupported tag gc-transition", 0) == 0);
  CHECK(R->Diagnosis.Where == "GradientUtils.cpp:308");
  CHECK(R->LogPath == W.path("abort.log"));
  CHECK(sys::fs::exists(R->LogPath));
  CHECK_FALSE(sys::fs::exists(W.path("abort.out.ll")));
}

TEST_CASE("a hanging plugin is killed at the time limit", "[EnzymeRunner]") {
  WorkDir W;
  auto R = runEnzyme(enzymeRun(W, "hang", fakePlugin("FakeEnzymeHang.so"), 1));
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Outcome.How == ChildOutcome::Kind::TimedOut);
  CHECK(R->summary() == "timed out after 1 s");
}

TEST_CASE("a library that is no plugin makes opt fail, reported as such",
          "[EnzymeRunner]") {
  WorkDir W;
  auto R = runEnzyme(enzymeRun(W, "noentry", fakePlugin("NotAPlugin.so"), 60));
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Outcome.How == ChildOutcome::Kind::Exited);
  CHECK(R->Outcome.ExitCode != 0);
  CHECK(R->Diagnosis.Message.find("NotAPlugin.so") != std::string::npos);
}

TEST_CASE("a missing opt is an error with the no-Enzyme exit code",
          "[EnzymeRunner]") {
  WorkDir W;
  EnzymeInvocation Inv =
      enzymeRun(W, "noopt", fakePlugin("FakeEnzymeAbort.so"), 5);
  Inv.OptPath = W.path("no-such-opt");
  auto R = runEnzyme(Inv);
  REQUIRE_FALSE(static_cast<bool>(R));
  ExitCode Code = ExitCode::Ok;
  handleAllErrors(R.takeError(),
                  [&](const ToolError &TE) { Code = TE.code(); });
  CHECK(Code == ExitCode::NoEnzyme);
}

TEST_CASE("each real Enzyme differentiates a small function",
          "[EnzymeRunner]") {
  std::vector<EnzymeSnapshot> Snapshots = enzymeSnapshots();
  if (Snapshots.empty())
    IRS_SKIP("no Enzyme snapshot for this LLVM in ../shared/enzyme");
  for (const EnzymeSnapshot &E : Snapshots) {
    INFO("Enzyme " << E.Name << ": " << E.Plugin);
    WorkDir W;
    W.write("in.ll",
            "define double @sq(double %x) {\n  %y = fmul double %x, %x\n"
            "  ret double %y\n}\n"
            "define double @d(double %x) {\n"
            "  %r = call double (...) @__enzyme_autodiff(ptr @sq, double %x)\n"
            "  ret double %r\n}\n"
            "declare double @__enzyme_autodiff(...)\n");
    auto R = runEnzyme(enzymeRun(W, "real", E.Plugin, 120));
    REQUIRE(static_cast<bool>(R));
    INFO(R->summary());
    CHECK(R->ok());
    CHECK(sys::fs::exists(W.path("real.out.ll")));
  }
}
