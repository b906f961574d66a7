#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
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

TEST_CASE("writeFileAtomically leaves nothing behind on failure",
          "[AtomicOutput]") {
  Error E = writeFileAtomically("/nonexistent-dir/out.ll",
                                [](raw_ostream &OS) { OS << "x"; });
  CHECK(codeOf(std::move(E)) == ExitCode::OutputError);
}

TEST_CASE("Temporaries left by a killed writer are removed by the next write "
          "to the same file, and only those",
          "[AtomicOutput]") {
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

TEST_CASE("writeFileAtomically writes into devices instead of replacing them",
          "[AtomicOutput]") {
  REQUIRE(
      !writeFileAtomically("/dev/null", [](raw_ostream &OS) { OS << "x"; }));
  sys::fs::file_status Status;
  REQUIRE(!sys::fs::status("/dev/null", Status));
  CHECK(Status.type() == sys::fs::file_type::character_file);
}

TEST_CASE("writeFileAtomically keeps a symbolic link pointing at its file",
          "[AtomicOutput]") {
  std::string Target = writeTemp("old", "txt");
  std::string Link = Target + ".link";
  REQUIRE(!sys::fs::create_link(Target, Link));
  REQUIRE(!writeFileAtomically(Link, [](raw_ostream &OS) { OS << "new"; }));
  sys::fs::file_status Status;
  REQUIRE(!sys::fs::status(Link, Status, /*Follow=*/false));
  CHECK(Status.type() == sys::fs::file_type::symlink_file);
  CHECK(readText(Target) == "new");
  sys::fs::remove(Link);
  sys::fs::remove(Target);
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

TEST_CASE("AtomicOutputFile shows the file only on commit", "[AtomicOutput]") {
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
    CHECK(readText(Path) == "contents");
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
