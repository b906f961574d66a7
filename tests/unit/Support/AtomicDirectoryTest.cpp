// Directories and files that appear whole or not at all, LLVM-free
// (src/Support/AtomicDirectory.cpp): shared by gpu-check's plan directory
// and ir-sanitize-gpurun's report.
#include "ir-sanitize/Support/AtomicDirectory.h"

#include "CatchCompat.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pthread.h>
#include <sstream>
#include <unistd.h>

using namespace irs;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path Path;
  TempDir() {
    std::string Model =
        (fs::temp_directory_path() / "irs-atomicdir-XXXXXX").string();
    REQUIRE(::mkdtemp(Model.data()));
    Path = Model;
  }
  ~TempDir() { fs::remove_all(Path); }
};

std::string contents(const fs::path &P) {
  std::ifstream In(P);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

void touch(const fs::path &P, const std::string &Text) {
  std::ofstream(P) << Text;
}

size_t entries(const fs::path &Dir) {
  return std::distance(fs::directory_iterator(Dir), fs::directory_iterator());
}

} // namespace

TEST_CASE("a staging directory is created beside its final place, with its "
          "parents",
          "[AtomicDirectory]") {
  TempDir T;
  fs::path Final = T.Path / "a" / "b" / "plan";
  std::string Dir, Error;
  REQUIRE(createDirectoryBeside(Final.string(), "irs-", Dir, Error));
  CHECK(fs::path(Dir).parent_path() == Final.parent_path());
  std::string Name = fs::path(Dir).filename().string();
  CHECK(Name.rfind(".plan.irs-" + std::to_string(::getpid()) + "-", 0) == 0);
  CHECK(fs::is_directory(Dir));
  CHECK_FALSE(fs::exists(Final));
  // Two are never the same.
  std::string Second;
  REQUIRE(createDirectoryBeside(Final.string() + "/", "irs-", Second, Error));
  CHECK(Second != Dir);
  CHECK(fs::path(Second).parent_path() == Final.parent_path());
  // Under a file, nothing can be created.
  touch(T.Path / "file", "x");
  CHECK_FALSE(createDirectoryBeside((T.Path / "file" / "plan").string(), "irs-",
                                    Dir, Error));
  CHECK_FALSE(Error.empty());
}

TEST_CASE("a committed directory replaces a missing, empty or full one "
          "whole",
          "[AtomicDirectory]") {
  TempDir T;
  fs::path Final = T.Path / "plan";
  for (int Round = 0; Round < 3; ++Round) {
    INFO(Round);
    if (Round == 1)
      fs::create_directory(Final); // empty
    if (Round == 2)
      touch(Final / "old.txt", "old"); // full
    std::string Dir, Error;
    REQUIRE(createDirectoryBeside(Final.string(), "irs-", Dir, Error));
    touch(fs::path(Dir) / "plan.json", "new" + std::to_string(Round));
    REQUIRE(commitDirectory(Dir, Final.string(), Error));
    CHECK(contents(Final / "plan.json") == "new" + std::to_string(Round));
    CHECK_FALSE(fs::exists(Final / "old.txt"));
    CHECK_FALSE(fs::exists(Dir));
    // Nothing else is left beside it: no staging, no old directory.
    CHECK(entries(T.Path) == 1);
  }
}

TEST_CASE("a failed commit leaves the old directory as it was",
          "[AtomicDirectory]") {
  TempDir T;
  fs::path Final = T.Path / "plan";
  fs::create_directory(Final);
  touch(Final / "old.txt", "old");
  std::string Error;
  CHECK_FALSE(
      commitDirectory((T.Path / "missing").string(), Final.string(), Error));
  CHECK_FALSE(Error.empty());
  CHECK(contents(Final / "old.txt") == "old");
  CHECK(entries(T.Path) == 1);
}

TEST_CASE("a temporary directory is new, under TMPDIR", "[AtomicDirectory]") {
  TempDir T;
  const char *Saved = std::getenv("TMPDIR");
  std::string Old = Saved ? Saved : "";
  ::setenv("TMPDIR", T.Path.c_str(), 1);
  std::string Dir, Error;
  bool Made = createTemporaryDirectory("irs-test", Dir, Error);
  ::setenv("TMPDIR", (T.Path / "missing").c_str(), 1);
  std::string Missing;
  bool MadeMissing = createTemporaryDirectory("irs-test", Missing, Error);
  if (Saved)
    ::setenv("TMPDIR", Old.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  REQUIRE(Made);
  CHECK(fs::path(Dir).parent_path() == T.Path);
  CHECK(fs::path(Dir).filename().string().rfind("irs-test-", 0) == 0);
  CHECK(fs::is_directory(Dir));
  CHECK_FALSE(MadeMissing);
  CHECK(Error.find("cannot create " + (T.Path / "missing").string() +
                   "/irs-test-") == 0);
}

TEST_CASE("an atomically written file appears whole and leaves no "
          "temporary",
          "[AtomicDirectory]") {
  TempDir T;
  fs::path Report = T.Path / "r.json";
  std::string Error;
  REQUIRE(writeFileAtomically(Report.string(), "first", Error));
  REQUIRE(writeFileAtomically(Report.string(), "second", Error));
  CHECK(contents(Report) == "second");
  CHECK(entries(T.Path) == 1);
  // A symbolic link keeps pointing at the file it named.
  fs::create_symlink(Report, T.Path / "link.json");
  REQUIRE(writeFileAtomically((T.Path / "link.json").string(), "third", Error));
  CHECK(fs::is_symlink(T.Path / "link.json"));
  CHECK(contents(Report) == "third");
  // A directory, or a missing directory, is refused; nothing is left.
  CHECK_FALSE(writeFileAtomically(T.Path.string(), "x", Error));
  CHECK(Error == "is a directory");
  CHECK_FALSE(
      writeFileAtomically((T.Path / "no" / "r.json").string(), "x", Error));
  CHECK(entries(T.Path) == 2);
  // A device is written in place, not replaced.
  REQUIRE(writeFileAtomically("/dev/null", "discarded", Error));
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("interrupts wait while deferred, and act after",
          "[AtomicDirectory]") {
  sigset_t Before, During, After;
  pthread_sigmask(SIG_SETMASK, nullptr, &Before);
  {
    InterruptsDeferred Deferred;
    pthread_sigmask(SIG_SETMASK, nullptr, &During);
    for (int Sig : {SIGINT, SIGTERM, SIGHUP})
      CHECK(sigismember(&During, Sig) == 1);
  }
  pthread_sigmask(SIG_SETMASK, nullptr, &After);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP})
    CHECK(sigismember(&After, Sig) == sigismember(&Before, Sig));
}
