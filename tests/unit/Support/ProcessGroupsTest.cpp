#include "ir-sanitize/Support/ProcessGroups.h"
#include "ir-sanitize/Support/ChildProcess.h"
#include "ir-sanitize/Support/ProcessHooks.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "CatchCompat.h"

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace irs;

namespace {

/// Whether \p Pid is a process that is not a zombie.
bool isLive(int Pid) {
  std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
  std::string Text((std::istreambuf_iterator<char>(Stat)), {});
  size_t Paren = Text.rfind(')');
  return Paren != std::string::npos && Paren + 2 < Text.size() &&
         Text[Paren + 2] != 'Z' && Text[Paren + 2] != 'X';
}

/// Polls \p Done for at most a minute (no timing is asserted).
template <typename Fn> bool eventually(Fn Done) {
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!Done()) {
    if (std::chrono::steady_clock::now() > Deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

/// A child leading its own group that ignores SIGTERM; returned once it
/// does (a SIGTERM before that would reach the test's own handler, inherited
/// across the fork).
int startStubborn() {
  int Ready[2];
  if (::pipe(Ready) != 0)
    return -1;
  int Pid = ::fork();
  if (Pid == 0) {
    std::signal(SIGTERM, SIG_IGN);
    ::setpgid(0, 0);
    (void)!::write(Ready[1], "x", 1);
    while (true)
      ::pause();
  }
  ::setpgid(Pid, Pid);
  char Byte;
  bool Started = Pid > 0 && ::read(Ready[0], &Byte, 1) == 1;
  ::close(Ready[0]);
  ::close(Ready[1]);
  return Started ? Pid : -1;
}

int readPid(const std::string &Path) {
  int Pid = 0;
  std::ifstream(Path) >> Pid;
  return Pid;
}

} // namespace

TEST_CASE("a group that ignores SIGTERM is killed after the grace period",
          "[ProcessGroups]") {
  int Pid = startStubborn();
  REQUIRE(Pid > 0);
  REQUIRE(eventually([&] { return groupHasLiveMembers(Pid); }));
  CHECK(endProcessGroup(Pid, /*GraceMs=*/50));
  // Only its zombie is left, which is not a live member.
  CHECK_FALSE(groupHasLiveMembers(Pid));
  int Status = 0;
  REQUIRE(::waitpid(Pid, &Status, 0) == Pid);
  CHECK(WIFSIGNALED(Status));
  CHECK(WTERMSIG(Status) == SIGKILL);
  CHECK(endProcessGroup(Pid)); // Gone: nothing to do.
}

TEST_CASE("removeTree removes a tree and follows no link", "[ProcessGroups]") {
  SmallString<128> Dir, Outside;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-tree", Dir));
  REQUIRE(!sys::fs::createUniqueDirectory("irs-outside", Outside));
  std::string Kept = (Outside + "/kept").str();
  std::ofstream(Kept) << "x";
  REQUIRE(!sys::fs::create_directories(Dir + "/a/b"));
  std::ofstream((Dir + "/a/b/file").str()) << "x";
  std::ofstream((Dir + "/top").str()) << "x";
  REQUIRE(!sys::fs::create_link(Outside, Dir + "/a/link"));
  removeTree(Dir.c_str());
  CHECK_FALSE(sys::fs::exists(Dir));
  CHECK(sys::fs::exists(Kept));
  sys::fs::remove_directories(Outside);
}

TEST_CASE("after a SIGKILL the watchdog ends the children's groups and "
          "removes the work directories",
          "[ProcessGroups]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-watched", Dir));
  std::string PidFile = (Dir + ".pid").str();
  ::unlink(PidFile.c_str());
  // The hooks are process-wide: set them in a process of its own.
  int Owner = ::fork();
  if (Owner == 0) {
    ProcessHooks Hooks;
    Hooks.CleanUpAfterKill = true;
    setProcessHooks(Hooks);
    removeOnInterrupt(Dir, /*Keep=*/false);
    std::string Script =
        "trap '' TERM; sleep 60 & echo $! > " + PidFile + "; wait";
    auto Child =
        ChildProcess::start("/bin/sh", {"-c", Script}, (Dir + "/log").str(), 0);
    if (!Child)
      ::_exit(1);
    while (true)
      ::pause();
  }
  REQUIRE(Owner > 0);
  REQUIRE(eventually([&] { return readPid(PidFile) > 0; }));
  int Grandchild = readPid(PidFile);
  CHECK(isLive(Grandchild));
  ::kill(Owner, SIGKILL);
  ::waitpid(Owner, nullptr, 0);
  CHECK(eventually([&] { return !isLive(Grandchild); }));
  CHECK(eventually([&] { return !sys::fs::exists(Dir); }));
  ::unlink(PidFile.c_str());
}
