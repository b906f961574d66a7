#include "ir-sanitize/Support/ModuleReader.h"
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

TEST_CASE("readModule reports text IR errors with line and column",
          "[ModuleReader]") {
  std::string Path = writeTemp("define void @f() {\n  ret i32 x\n}\n", "ll");
  LLVMContext Ctx;
  auto M = readModule(Path, Ctx);
  REQUIRE_FALSE(static_cast<bool>(M));
  std::string Msg = toString(M.takeError());
  INFO(Msg);
  CHECK(Msg.find(Path + ":2:") == 0);
  sys::fs::remove(Path);
}

TEST_CASE("readModule rejects empty files and directories", "[ModuleReader]") {
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

TEST_CASE("readModule turns IR that fails the verifier into exit 3, one line",
          "[ModuleReader]") {
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
