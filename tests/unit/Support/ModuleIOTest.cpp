#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <catch2/catch.hpp>

using namespace llvm;
using namespace irs;

namespace {
std::string writeTemp(StringRef Contents, StringRef Suffix) {
  SmallString<128> Path;
  int FD;
  REQUIRE(!sys::fs::createTemporaryFile("irs-test", Suffix, FD, Path));
  raw_fd_ostream OS(FD, true);
  OS << Contents;
  return std::string(Path);
}

ExitCode codeOf(Error E) {
  ExitCode Code = ExitCode::Ok;
  handleAllErrors(std::move(E), [&](const ToolError &TE) { Code = TE.code(); });
  return Code;
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
  std::string In = writeTemp("define i32 @f(i32 %x) {\n  ret i32 %x\n}\n", "ll");
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
