#include "ir-sanitize/Support/ChildProcess.h"

#include "llvm/Support/FileSystem.h"

#include "../TestSupport.h"

#include <chrono>
#include <csignal>
#include <fstream>

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

struct TempLog {
  SmallString<128> Path;
  TempLog() {
    int FD;
    REQUIRE(!sys::fs::createTemporaryFile("irs-child", "log", FD, Path));
    ::close(FD);
  }
  ~TempLog() { sys::fs::remove(Path); }
  std::string contents() const { return readText(Path); }
};

ChildOutcome runShell(StringRef Script, StringRef Log, unsigned Timeout = 0) {
  auto Out = runChild("/bin/sh", {"-c", Script.str()}, Log, Timeout);
  REQUIRE(static_cast<bool>(Out));
  return *Out;
}

} // namespace

TEST_CASE("a child's exit status and both output streams are captured",
          "[ChildProcess]") {
  TempLog Log;
  ChildOutcome Out = runShell("echo out; echo err >&2; exit 3", Log.Path);
  CHECK(Out.How == ChildOutcome::Kind::Exited);
  CHECK(Out.ExitCode == 3);
  CHECK_FALSE(Out.succeeded());
  CHECK(Out.describe(0) == "exit status 3");
  CHECK(Log.contents() == "out\nerr\n");
}

TEST_CASE("an aborting child is reported with its signal", "[ChildProcess]") {
  TempLog Log;
  ChildOutcome Out =
      runShell("echo 'about to abort' >&2; kill -ABRT $$", Log.Path);
  CHECK(Out.How == ChildOutcome::Kind::Signalled);
  CHECK(Out.Signal == SIGABRT);
  CHECK(Out.describe(0) == "signal 6 (SIGABRT)");
  CHECK(Log.contents() == "about to abort\n");
}

TEST_CASE("a hung child and what it started are killed at the time limit",
          "[ChildProcess]") {
  TempLog Log;
  // The grandchild `sleep` would keep the log open if only sh were killed.
  ChildOutcome Out = runShell("sleep 30 & wait", Log.Path, /*Timeout=*/1);
  CHECK(Out.How == ChildOutcome::Kind::TimedOut);
  CHECK(Out.Seconds < 10);
  CHECK(Out.describe(1) == "timed out after 1 s");
}

TEST_CASE("what a child started is ended when the child exits, SIGTERM "
          "ignored or not",
          "[ChildProcess]") {
  TempLog Log;
  std::string PidFile = (Log.Path + ".pid").str();
  for (const char *Trap : {"", "trap '' TERM; "}) {
    INFO(Trap);
    ChildOutcome Out = runShell(std::string(Trap) + "sleep 60 & echo $! > " +
                                    PidFile + "; exit 0",
                                Log.Path);
    CHECK(Out.succeeded());
    int Pid = 0;
    std::ifstream(PidFile) >> Pid;
    REQUIRE(Pid > 0);
    // Ended before wait() returned: at most a zombie (or gone) now.
    std::ifstream Stat("/proc/" + std::to_string(Pid) + "/stat");
    std::string Text((std::istreambuf_iterator<char>(Stat)), {});
    size_t Paren = Text.rfind(')');
    CHECK((Paren == std::string::npos || Text[Paren + 2] == 'Z'));
  }
  ::unlink(PidFile.c_str());
}

TEST_CASE("children run side by side", "[ChildProcess]") {
  TempLog A, B;
  auto Begin = std::chrono::steady_clock::now();
  auto First =
      ChildProcess::start("/bin/sh", {"-c", "sleep 2; exit 0"}, A.Path, 20);
  auto Second =
      ChildProcess::start("/bin/sh", {"-c", "sleep 2; exit 1"}, B.Path, 20);
  REQUIRE(static_cast<bool>(First));
  REQUIRE(static_cast<bool>(Second));
  ChildOutcome OA = First->wait();
  ChildOutcome OB = Second->wait();
  double Total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin)
          .count();
  CHECK(OA.succeeded());
  CHECK(OB.ExitCode == 1);
  // start() does not wait: both slept at once, not one after the other.
  CHECK(Total < 3.5);
}

TEST_CASE("a program that cannot start is an error, not an outcome",
          "[ChildProcess]") {
  TempLog Log;
  auto Out = runChild("/nonexistent/opt", {}, Log.Path, 0);
  REQUIRE_FALSE(static_cast<bool>(Out));
  CHECK(toString(Out.takeError()).find("/nonexistent/opt") !=
        std::string::npos);
  auto NoLog = runChild("/bin/true", {}, "/nonexistent-dir/x.log", 0);
  REQUIRE_FALSE(static_cast<bool>(NoLog));
  consumeError(NoLog.takeError());
}
