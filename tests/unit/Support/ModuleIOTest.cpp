#include "ir-sanitize/Support/ModuleIO.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ProcessHooks.h"

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

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {
std::string writeTemp(StringRef Contents, StringRef Suffix) {
  SmallString<128> Path;
  int FD;
  REQUIRE(!sys::fs::createTemporaryFile("irs-test", Suffix, FD, Path));
  raw_fd_ostream OS(FD, true);
  OS << Contents;
  return std::string(Path);
}

} // namespace

TEST_CASE("readModule reports text IR errors with line and column",
          "[ModuleIO]") {
  std::string Path = writeTemp("define void @f() {\n  ret i32 x\n}\n", "ll");
  LLVMContext Ctx;
  auto M = readModule(Path, Ctx);
  REQUIRE_FALSE(static_cast<bool>(M));
  std::string Msg = toString(M.takeError());
  INFO(Msg);
  CHECK(Msg.find(Path + ":2:") == 0);
  sys::fs::remove(Path);
}

TEST_CASE("readModule rejects empty files and directories", "[ModuleIO]") {
  std::string Path = writeTemp("", "ll");
  LLVMContext Ctx;
  auto M = readModule(Path, Ctx);
  REQUIRE_FALSE(static_cast<bool>(M));
  CHECK(codeOf(M.takeError()) == ExitCode::BadInput);
  auto D = readModule("/tmp", Ctx);
  REQUIRE_FALSE(static_cast<bool>(D));
  CHECK(toString(D.takeError()).find("is a directory") != std::string::npos);
  sys::fs::remove(Path);
}

TEST_CASE("writeModule round-trips text and bitcode atomically", "[ModuleIO]") {
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

TEST_CASE("writeFileAtomically leaves nothing behind on failure",
          "[ModuleIO]") {
  Error E = writeFileAtomically("/nonexistent-dir/out.ll",
                                [](raw_ostream &OS) { OS << "x"; });
  CHECK(codeOf(std::move(E)) == ExitCode::OutputError);
}

TEST_CASE("readModule turns IR that fails the verifier into exit 3, one line",
          "[ModuleIO]") {
  // Parses, but the TBAA node is malformed: the parser's own debug-info
  // upgrade would abort the process here.
  std::string Path = writeTemp("define void @f(ptr %p) {\n"
                               "  %x = load i32, ptr %p, !tbaa !0\n"
                               "  ret void\n}\n!0 = !{!\"jtbaa\"}\n",
                               "ll");
  LLVMContext Ctx;
  auto M = readModule(Path, Ctx);
  REQUIRE_FALSE(static_cast<bool>(M));
  std::string Msg;
  ExitCode Code = ExitCode::Ok;
  handleAllErrors(M.takeError(), [&](const ToolError &TE) {
    Code = TE.code();
    Msg = TE.message();
  });
  CHECK(Code == ExitCode::BadInput);
  CHECK(Msg.find(Path + ": invalid IR: ") == 0);
  CHECK(Msg.find('\n') == std::string::npos);
  sys::fs::remove(Path);
}

TEST_CASE("writeModule refuses a module that fails the verifier and writes "
          "nothing",
          "[ModuleIO]") {
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
          "[ModuleIO]") {
  // LLVM 19/20 decide the form with process-wide cl::opts, which only a
  // process owner lets the library set.
  ProcessHooks Hooks;
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
          "[ModuleIO]") {
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

TEST_CASE("Temporaries left by a killed writer are removed by the next write "
          "to the same file, and only those",
          "[ModuleIO]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-stale", Dir));
  std::string Live = std::to_string(sys::Process::getProcessId());
  // No process has a PID above the kernel's limit (at most 2^22).
  const char *Dead = "999999999";
  std::vector<std::string> Kept = {
      ".out.ll.irs-" + Live + "-abcdef.tmp", // this (live) process
      ".out.ll.irs-1-abcdef.tmp",            // init, alive
      ".other.ll.irs-" + std::string(Dead) + "-abcdef.tmp", // another target
      ".out.ll.abcdef.tmp",                                 // not our pattern
      ".out.ll.irs-" + std::string(Dead) + "-abc.tmp",      // not our pattern
  };
  std::string Stale = ".out.ll.irs-" + std::string(Dead) + "-x1y2z3.tmp";
  for (const std::string &Name : Kept)
    REQUIRE(!writeFileAtomically((Dir + "/" + Name).str(),
                                 [](raw_ostream &OS) { OS << "x"; }));
  REQUIRE(!writeFileAtomically((Dir + "/" + Stale).str(),
                               [](raw_ostream &OS) { OS << "x"; }));
  // A temporary while writing is named after the target and this process.
  Expected<std::unique_ptr<AtomicOutputFile>> F =
      AtomicOutputFile::open((Dir + "/out.ll").str());
  REQUIRE(static_cast<bool>(F));
  (*F)->os() << "module";
  std::vector<std::string> Names;
  for (const std::string &Path : entriesOf(Dir))
    Names.push_back(sys::path::filename(Path).str());
  CHECK(std::find(Names.begin(), Names.end(), Stale) == Names.end());
  for (const std::string &Name : Kept)
    CHECK(std::find(Names.begin(), Names.end(), Name) != Names.end());
  CHECK(std::count_if(Names.begin(), Names.end(), [&](const std::string &N) {
          return StringRef(N).starts_with(".out.ll.irs-" + Live + "-") &&
                 N != Kept[0];
        }) == 1);
  REQUIRE(!(*F)->commit());
  CHECK(sys::fs::exists(Dir + "/out.ll"));
  sys::fs::remove_directories(Dir);
}

TEST_CASE("escapeForMessage keeps a name on one printable line",
          "[ExitCodes]") {
  CHECK(escapeForMessage("julia_f_12#3") == "julia_f_12#3");
  CHECK(escapeForMessage("a\\b") == "a\\\\b");
  CHECK(escapeForMessage("a\nb") == "a\\0Ab");
  CHECK(escapeForMessage(StringRef("a\n\x1b[0m\0z", 8)) == "a\\0A\\1B[0m\\00z");
}

TEST_CASE("writeFileAtomically writes into devices instead of replacing them",
          "[ModuleIO]") {
  REQUIRE(
      !writeFileAtomically("/dev/null", [](raw_ostream &OS) { OS << "x"; }));
  sys::fs::file_status Status;
  REQUIRE(!sys::fs::status("/dev/null", Status));
  CHECK(Status.type() == sys::fs::file_type::character_file);
}

TEST_CASE("writeFileAtomically keeps a symbolic link pointing at its file",
          "[ModuleIO]") {
  std::string Target = writeTemp("old", "txt");
  std::string Link = Target + ".link";
  REQUIRE(!sys::fs::create_link(Target, Link));
  REQUIRE(!writeFileAtomically(Link, [](raw_ostream &OS) { OS << "new"; }));
  sys::fs::file_status Status;
  REQUIRE(!sys::fs::status(Link, Status, /*Follow=*/false));
  CHECK(Status.type() == sys::fs::file_type::symlink_file);
  auto Buf = MemoryBuffer::getFile(Target);
  REQUIRE(Buf);
  CHECK((*Buf)->getBuffer() == "new");
  sys::fs::remove(Link);
  sys::fs::remove(Target);
}

TEST_CASE("writeModule refuses bitcode that would corrupt metadata varargs",
          "[ModuleIO]") {
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

namespace {
/// The names of the entries in \p Dir.
std::vector<std::string> listDir(StringRef Dir) {
  std::vector<std::string> Names;
  for (const std::string &Path : entriesOf(Dir))
    Names.push_back(sys::path::filename(Path).str());
  std::sort(Names.begin(), Names.end());
  return Names;
}
} // namespace

TEST_CASE("AtomicOutputFile shows the file only on commit", "[ModuleIO]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-atomic", Dir));
  std::string Path = (Dir + "/out.json").str();

  SECTION("discarded: nothing is left, not even the temporary file") {
    {
      auto F = AtomicOutputFile::open(Path);
      REQUIRE(static_cast<bool>(F));
      (*F)->os() << std::string(1 << 20, 'x'); // More than one buffer.
      CHECK(listDir(Dir).size() == 1);         // The temporary file.
      CHECK_FALSE(sys::fs::exists(Path));
    }
    CHECK(listDir(Dir).empty());
  }
  SECTION("committed: the file, complete, and nothing else") {
    auto F = AtomicOutputFile::open(Path);
    REQUIRE(static_cast<bool>(F));
    (*F)->os() << "contents";
    CHECK_FALSE(sys::fs::exists(Path));
    REQUIRE(!(*F)->commit());
    CHECK(listDir(Dir) == std::vector<std::string>{"out.json"});
    auto Buf = MemoryBuffer::getFile(Path);
    REQUIRE(Buf);
    CHECK((*Buf)->getBuffer() == "contents");
  }
  SECTION("a write error fails the commit and leaves nothing") {
    // /dev/full is written in place; its error surfaces on commit.
    if (!sys::fs::exists("/dev/full"))
      IRS_SKIP("no /dev/full");
    CHECK(AtomicOutputFile::writesInPlace("/dev/full"));
    auto F = AtomicOutputFile::open("/dev/full");
    REQUIRE(static_cast<bool>(F));
    (*F)->os() << std::string(1 << 20, 'x');
    Error E = (*F)->commit();
    REQUIRE(static_cast<bool>(E));
    CHECK(codeOf(std::move(E)) == ExitCode::OutputError);
  }
  CHECK_FALSE(AtomicOutputFile::writesInPlace(Path));
  CHECK(AtomicOutputFile::writesInPlace("-"));
  CHECK_FALSE(AtomicOutputFile::writesInPlace(Dir)); // Refused by open().
  auto InDir = AtomicOutputFile::open(Dir);
  REQUIRE_FALSE(static_cast<bool>(InDir));
  CHECK(codeOf(InDir.takeError()) == ExitCode::OutputError);
  sys::fs::remove_directories(Dir);
}
