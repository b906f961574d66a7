#include "ir-sanitize/Support/ModuleWriter.h"
#include "ToolHooks.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

#include <algorithm>
#include <vector>

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("writeModule round-trips text and bitcode atomically",
          "[ModuleWriter]") {
  std::string In =
      writeTemp("define i32 @f(i32 %x) {\n  ret i32 %x\n}\n", "ll");
  LLVMContext Ctx;
  auto M = readModule(In, Ctx);
  REQUIRE(static_cast<bool>(M));
  CHECK(M->Format == IRFormat::Text);
  for (IRFormat F : {IRFormat::Text, IRFormat::Bitcode}) {
    std::string Out = In + (F == IRFormat::Text ? ".out.ll" : ".out.bc");
    REQUIRE(!writeModule(*M->M, Out, F, M->DbgForm));
    LLVMContext Ctx2;
    auto Back = readModule(Out, Ctx2);
    REQUIRE(static_cast<bool>(Back));
    CHECK(Back->Format == F);
    CHECK(Back->M->getFunction("f"));
    sys::fs::remove(Out);
  }
  sys::fs::remove(In);
}

TEST_CASE("writeModule refuses a module that fails the verifier and writes "
          "nothing",
          "[ModuleWriter]") {
  std::string In = writeTemp("define i32 @f() {\n  ret i32 0\n}\n", "ll");
  LLVMContext Ctx;
  auto M = readModule(In, Ctx);
  REQUIRE(static_cast<bool>(M));
  // Break it: a block without a terminator.
  Function &F = *M->M->getFunction("f");
  F.getEntryBlock().getTerminator()->eraseFromParent();
  std::string Out = In + ".out.ll";
  Error E = writeModule(*M->M, Out, IRFormat::Text, M->DbgForm);
  CHECK(codeOf(std::move(E)) == ExitCode::VerifierFailed);
  CHECK_FALSE(sys::fs::exists(Out));
  sys::fs::remove(In);
}

#if IRS_LLVM_WRITES_DEBUG_INTRINSICS
TEST_CASE("debug values keep the input's form; bitcode reads back",
          "[ModuleWriter]") {
  // LLVM 19/20 decide the form with process-wide cl::opts, which only a
  // process owner lets the library set.
  ProcessHooks Hooks;
  Hooks.SetLLVMOption = tools::setLLVMOption;
  Hooks.SetDebugInfoWriterOptions = true;
  setProcessHooks(Hooks);
  std::string In = writeTemp(R"(define void @f() !dbg !3 {
  call void @llvm.dbg.value(metadata i32 0, metadata !6, metadata !DIExpression()), !dbg !7
  ret void
}
declare void @llvm.dbg.value(metadata, metadata, metadata)
!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "a.jl", directory: ".")
!3 = distinct !DISubprogram(name: "f", scope: null, file: !2, line: 1, type: !4, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!6 = !DILocalVariable(name: "x", scope: !3, file: !2, line: 1)
!7 = !DILocation(line: 1, scope: !3)
)",
                             "ll");
  LLVMContext Ctx;
  auto M = readModule(In, Ctx);
  REQUIRE(static_cast<bool>(M));
  CHECK(M->DbgForm == DebugInfoForm::Intrinsics);
  std::string Text = In + ".out.ll", Bitcode = In + ".out.bc";
  REQUIRE_FALSE(
      static_cast<bool>(writeModule(*M->M, Text, IRFormat::Text, M->DbgForm)));
  auto Buf = MemoryBuffer::getFile(Text);
  REQUIRE(Buf);
  StringRef Printed = (*Buf)->getBuffer();
  CHECK(Printed.contains("call void @llvm.dbg.value("));
  CHECK_FALSE(Printed.contains("#dbg_value"));
  REQUIRE_FALSE(static_cast<bool>(
      writeModule(*M->M, Bitcode, IRFormat::Bitcode, M->DbgForm)));
  LLVMContext Ctx2;
  auto Back = readModule(Bitcode, Ctx2);
  CHECK(static_cast<bool>(Back));
  if (!Back)
    consumeError(Back.takeError());
  for (const std::string &P : {In, Text, Bitcode})
    sys::fs::remove(P);
  setProcessHooks(ProcessHooks());
}
#endif

TEST_CASE("writeModule changes no LLVM option unless the process opted in",
          "[ModuleWriter]") {
  REQUIRE_FALSE(processHooks().SetDebugInfoWriterOptions);
  auto Occurrences = [] {
    unsigned N = 0;
    for (auto &Entry : cl::getRegisteredOptions())
      N += Entry.second->getNumOccurrences();
    return N;
  };
  unsigned Before = Occurrences();
  LLVMContext Ctx;
  auto M = parseModule(Ctx, "define void @f() { ret void }");
  std::string Out = writeTemp("", "ll");
  CHECK(codeOf(writeModule(*M, Out, IRFormat::Text,
                           DebugInfoForm::Intrinsics)) == ExitCode::Ok);
  CHECK(codeOf(writeModule(*M, Out, IRFormat::Bitcode,
                           DebugInfoForm::Records)) == ExitCode::Ok);
  CHECK(Occurrences() == Before);
  sys::fs::remove(Out);
}

TEST_CASE("writeModule refuses bitcode that would corrupt metadata varargs",
          "[ModuleWriter]") {
  std::string In =
      writeTemp("declare double @__enzyme_fwddiff(...)\n"
                "define double @f(double %x) {\n  ret double %x\n}\n"
                "define double @d(double %x) {\n"
                "  %r = call double (...) @__enzyme_fwddiff(ptr @f, metadata "
                "!\"enzyme_out\", double %x)\n  ret double %r\n}\n",
                "ll");
  LLVMContext Ctx;
  auto M = readModule(In, Ctx);
  REQUIRE(static_cast<bool>(M));
  std::string Out = In + ".bc";
  Error E = writeModule(*M->M, Out, IRFormat::Bitcode, M->DbgForm);
  REQUIRE(static_cast<bool>(E));
  CHECK(toString(std::move(E)).find("@__enzyme_fwddiff in @d") !=
        std::string::npos);
  CHECK(!sys::fs::exists(Out));
  CHECK(!writeModule(*M->M, In + ".out.ll", IRFormat::Text, M->DbgForm));
  sys::fs::remove(In + ".out.ll");
  sys::fs::remove(In);
}
