//===- TestSupport.h - Helpers shared by the unit tests ---------*- C++ -*-===//
#ifndef IR_SANITIZE_TESTS_UNIT_TESTSUPPORT_H
#define IR_SANITIZE_TESTS_UNIT_TESTSUPPORT_H

#include "ir-sanitize/Support/ToolError.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"
#include "TestPaths.h"

#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace irs::test {

/// The exit code of a unit-test run whose test cases all skipped; ctest
/// registers each test case with it as SKIP_RETURN_CODE (tests/CMakeLists.txt).
constexpr int SkipExitCode = 77;

/// The name of the test case running now (set by UnitTestMain.cpp's listener).
inline std::string &currentTestCase() {
  static std::string Name;
  return Name;
}

/// The test cases of this run that could not run (fully).
inline std::set<std::string> &skippedTestCases() {
  static std::set<std::string> Names;
  return Names;
}

/// Records that the running test case could not run (fully) for \p Why (no
/// ptxas, no plugin, no corpus...): it ends as skipped, not passed, unless a
/// check in it failed. IRS_SKIP also returns from the test case.
inline void skip(const std::string &Why) {
  skippedTestCases().insert(currentTestCase());
  llvm::errs() << "SKIPPED: " << Why << "\n";
}

} // namespace irs::test

/// Skips the running test case: IRS_SKIP("no Enzyme plugin (" << Why << ")").
#define IRS_SKIP(WHY)                                                          \
  do {                                                                         \
    std::ostringstream IRSSkipWhy;                                             \
    IRSSkipWhy << WHY;                                                         \
    ::irs::test::skip(IRSSkipWhy.str());                                       \
    return;                                                                    \
  } while (false)

namespace irs::test {

/// Parses IR text; fails the current test, with the parser's message, when
/// it does not parse.
inline std::unique_ptr<llvm::Module> parseModule(llvm::LLVMContext &Ctx,
                                                 llvm::StringRef IR) {
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Diag, Ctx);
  INFO(Diag.getMessage().str());
  REQUIRE(M);
  return M;
}

/// The first call or invoke of \p Callee in \p F, or null.
inline llvm::CallBase *firstCallTo(llvm::Function &F, llvm::StringRef Callee) {
  for (llvm::Instruction &I : llvm::instructions(F))
    if (auto *CB = llvm::dyn_cast<llvm::CallBase>(&I))
      if (CB->getCalledFunction() &&
          CB->getCalledFunction()->getName() == Callee)
        return CB;
  return nullptr;
}

/// The exit code an error would end the tool with: a ToolError's own code,
/// BadInput for any other error, Ok for success.
inline ExitCode codeOf(llvm::Error E) {
  ExitCode Code = ExitCode::Ok;
  llvm::handleAllErrors(
      std::move(E), [&](const ToolError &TE) { Code = TE.code(); },
      [&](const llvm::ErrorInfoBase &) { Code = ExitCode::BadInput; });
  return Code;
}

/// A call with a bundle of a tag no policy names ("foo"), which the default
/// policy stashes.
inline constexpr const char *UnknownBundleModule = R"(
declare void @f(i32)
define void @g() {
  call void @f(i32 1) [ "foo"(i32 7) ]
  ret void
}
)";

/// \p M as LLVM assembly.
inline std::string printModule(const llvm::Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return S;
}

/// Whether \p E is success (consumes it either way).
inline bool succeeded(llvm::Error E) {
  bool Failed = static_cast<bool>(E);
  llvm::consumeError(std::move(E));
  return !Failed;
}

/// A fresh directory, removed with everything in it by the destructor.
struct WorkDir {
  llvm::SmallString<256> Dir;
  explicit WorkDir(llvm::StringRef Prefix = "irs-test") {
    REQUIRE(!llvm::sys::fs::createUniqueDirectory(Prefix, Dir));
  }
  ~WorkDir() { llvm::sys::fs::remove_directories(Dir); }
  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  std::string write(llvm::StringRef Name, llvm::StringRef Text) const {
    std::string P = path(Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    REQUIRE(!EC);
    OS << Text;
    return P;
  }
};

/// The contents of the file at \p Path (the test fails where it cannot be
/// read).
inline std::string readText(const llvm::Twine &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  REQUIRE(Buf);
  return (*Buf)->getBuffer().str();
}

/// The paths of the entries of \p Dir (none when it is missing), in
/// directory order.
inline std::vector<std::string> entriesOf(llvm::StringRef Dir) {
  std::vector<std::string> Paths;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    Paths.push_back(It->path());
  return Paths;
}

/// A new temporary file (suffix \p Suffix, e.g. "ll") holding \p Contents.
inline std::string writeTemp(llvm::StringRef Contents, llvm::StringRef Suffix) {
  llvm::SmallString<128> Path;
  int FD;
  REQUIRE(!llvm::sys::fs::createTemporaryFile("irs-test", Suffix, FD, Path));
  llvm::raw_fd_ostream OS(FD, true);
  OS << Contents;
  return std::string(Path);
}

} // namespace irs::test

#endif
