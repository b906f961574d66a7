//===- ChildProcess.cpp - Running a tool in a crash-isolated child --------===//
#include "ir-sanitize/Enzyme/ChildProcess.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Signals.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace llvm;

namespace irs {
namespace {

/// Set in every child's environment. A process that has it runs inside the
/// process group of an ancestor's child, which that ancestor kills on every
/// exit path: its own children stay in that group (a group of their own
/// would outlive the kill, orphaned, when this process dies first).
constexpr const char InGroupVariable[] = "IR_SANITIZE_IN_CHILD_GROUP";

bool insideChildGroup() {
  static const bool Inside = [] {
    const char *V = std::getenv(InGroupVariable);
    return V && *V;
  }();
  return Inside;
}

/// Running children, as kill() targets: -pid for a child with a group of
/// its own (so that a timeout kills what it started; this also keeps
/// Ctrl-C from reaching it: if ir-sanitize is interrupted, it kills it
/// itself), pid for one inside an ancestor's group.
std::atomic<int> LiveChildren[16];

/// Work directories to remove (or, with Keep, name) on an interrupt: fixed
/// slots of strings that are never freed while registered, so the handler
/// reads them without locks.
struct InterruptCleanup {
  std::atomic<const char *> Dir{nullptr};
  std::atomic<bool> Keep{false};
};
InterruptCleanup Cleanups[8];

void writeStderr(const char *S) {
  if (::write(STDERR_FILENO, S, std::strlen(S)) < 0)
    return;
}

/// Removes \p Dir and what is in it (files, and llvm-reduce's candidates).
void removeTree(const char *Dir) {
  if (DIR *D = ::opendir(Dir)) {
    while (const dirent *E = ::readdir(D)) {
      if (!std::strcmp(E->d_name, ".") || !std::strcmp(E->d_name, ".."))
        continue;
      std::string Path = std::string(Dir) + "/" + E->d_name;
      if (::unlink(Path.c_str()) != 0)
        removeTree(Path.c_str());
    }
    ::closedir(D);
  }
  ::rmdir(Dir);
}

void killLiveChildrenAndExit() {
  for (std::atomic<int> &C : LiveChildren)
    if (int Target = C.load())
      ::kill(Target, SIGKILL);
  for (std::atomic<int> &C : LiveChildren)
    if (int Target = C.load())
      ::waitpid(Target < 0 ? -Target : Target, nullptr, 0);
  for (InterruptCleanup &C : Cleanups) {
    const char *Dir = C.Dir.load();
    if (!Dir)
      continue;
    if (!C.Keep.load()) {
      removeTree(Dir);
      continue;
    }
    const std::string &Tool = processHooks().ExitOnBrokenBitcodeAs;
    writeStderr((Tool.empty() ? "ir-sanitize" : Tool.c_str()));
    writeStderr(": note: work directory kept: ");
    writeStderr(Dir);
    writeStderr("\n");
  }
  // LLVM calls this instead of ending the process: end it as interrupted.
  ::signal(SIGINT, SIG_DFL);
  ::raise(SIGINT);
}

void trackChild(int Target) {
  // A process-wide hook: only where the process owner asked for it.
  if (processHooks().KillChildrenOnInterrupt) {
    static const bool Installed = [] {
      sys::SetInterruptFunction(killLiveChildrenAndExit);
      return true;
    }();
    (void)Installed;
  }
  for (std::atomic<int> &C : LiveChildren) {
    int Free = 0;
    if (C.compare_exchange_strong(Free, Target))
      return;
  }
}

void untrackChild(int Target) {
  for (std::atomic<int> &C : LiveChildren) {
    int Expected = Target;
    C.compare_exchange_strong(Expected, 0);
  }
}

} // namespace

std::string signalName(int Signal) {
  switch (Signal) {
  case SIGABRT:
    return "SIGABRT";
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGKILL:
    return "SIGKILL";
  case SIGTERM:
    return "SIGTERM";
  case SIGTRAP:
    return "SIGTRAP";
  case SIGINT:
    return "SIGINT";
  default:
    return "signal " + std::to_string(Signal);
  }
}

std::string ChildOutcome::describe(unsigned TimeoutSeconds) const {
  switch (How) {
  case Kind::Exited:
    return "exit status " + std::to_string(ExitCode);
  case Kind::Signalled:
    return "signal " + std::to_string(Signal) + " (" + signalName(Signal) + ")";
  case Kind::TimedOut:
    return "timed out after " + std::to_string(TimeoutSeconds) + " s";
  }
  return "";
}

Expected<ChildProcess> ChildProcess::start(StringRef Program,
                                           ArrayRef<std::string> Args,
                                           StringRef LogPath,
                                           unsigned TimeoutSeconds,
                                           ArrayRef<std::string> ExtraEnv) {
  std::string Log = LogPath.str();
  int LogFD =
      ::open(Log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (LogFD < 0)
    return makeToolError(ExitCode::OutputError,
                         LogPath + ": cannot create log: " + strerror(errno));

  // The child gets the log on stdout and stderr and its own process group,
  // so that a timeout kills whatever it started too.
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, STDIN_FILENO, "/dev/null",
                                   O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, LogFD, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, LogFD, STDERR_FILENO);
  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  bool OwnGroup = !insideChildGroup();
  if (OwnGroup) {
    posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&Attr, 0);
  }

  std::string Prog = Program.str();
  SmallVector<char *, 16> Argv;
  Argv.push_back(const_cast<char *>(Prog.c_str()));
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  SmallVector<char *, 64> Envp;
  for (const std::string &E : ExtraEnv)
    Envp.push_back(const_cast<char *>(E.c_str()));
  std::string InGroup = std::string(InGroupVariable) + "=1";
  Envp.push_back(const_cast<char *>(InGroup.c_str()));
  for (char **E = environ; *E; ++E)
    Envp.push_back(*E);
  Envp.push_back(nullptr);

  ChildProcess Child;
  Child.TimeoutSeconds = TimeoutSeconds;
  Child.Started = std::chrono::steady_clock::now();
  int Err = posix_spawn(&Child.Pid, Prog.c_str(), &Actions, &Attr, Argv.data(),
                        Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  ::close(LogFD);
  if (Err != 0) {
    Child.Pid = -1;
    return createStringError(inconvertibleErrorCode(),
                             Program + ": cannot run: " + strerror(Err));
  }
  Child.KillTarget = OwnGroup ? -Child.Pid : Child.Pid;
  trackChild(Child.KillTarget);
  return Child;
}

ChildProcess::ChildProcess(ChildProcess &&Other)
    : Pid(Other.Pid), KillTarget(Other.KillTarget),
      TimeoutSeconds(Other.TimeoutSeconds), Started(Other.Started) {
  Other.Pid = -1;
}

ChildProcess::~ChildProcess() {
  // Never leave a child running (or a zombie) behind.
  if (Pid > 0) {
    ::kill(KillTarget, SIGKILL);
    ::waitpid(Pid, nullptr, 0);
    forget();
  }
}

void ChildProcess::forget() {
  untrackChild(KillTarget);
  Pid = -1;
}

std::optional<ChildOutcome> ChildProcess::poll() {
  using namespace std::chrono;
  ChildOutcome Out;
  int Status = 0;
  pid_t R;
  do
    R = ::waitpid(Pid, &Status, WNOHANG);
  while (R < 0 && errno == EINTR);
  if (R < 0) {
    // Reaped elsewhere or never ours: report it as a failed run.
    Out.How = ChildOutcome::Kind::Exited;
    Out.ExitCode = 127;
    forget();
    return Out;
  }
  if (R == 0) {
    if (!TimeoutSeconds ||
        steady_clock::now() < Started + seconds(TimeoutSeconds))
      return std::nullopt;
    ::kill(KillTarget, SIGKILL);
    ::waitpid(Pid, &Status, 0);
    forget();
    Out.How = ChildOutcome::Kind::TimedOut;
    Out.Seconds = duration<double>(steady_clock::now() - Started).count();
    return Out;
  }
  forget();
  Out.Seconds = duration<double>(steady_clock::now() - Started).count();
  if (WIFSIGNALED(Status)) {
    Out.How = ChildOutcome::Kind::Signalled;
    Out.Signal = WTERMSIG(Status);
  } else {
    Out.How = ChildOutcome::Kind::Exited;
    Out.ExitCode = WEXITSTATUS(Status);
  }
  return Out;
}

ChildOutcome ChildProcess::wait() {
  auto Poll = std::chrono::milliseconds(1);
  while (true) {
    if (std::optional<ChildOutcome> Out = poll())
      return *Out;
    std::this_thread::sleep_for(Poll);
    Poll = std::min(Poll * 2, std::chrono::milliseconds(20));
  }
}

void removeOnInterrupt(StringRef Dir, bool Keep) {
  for (InterruptCleanup &C : Cleanups) {
    const char *Free = nullptr;
    const char *Copy = ::strdup(Dir.str().c_str());
    if (C.Dir.compare_exchange_strong(Free, Copy)) {
      C.Keep = Keep;
      return;
    }
    ::free(const_cast<char *>(Copy));
  }
}

void forgetOnInterrupt(StringRef Dir) {
  // A forgotten name stays allocated (a handler running now may still read
  // it) and reachable from here, so that leak checkers do not report it.
  static std::mutex RetiredLock;
  static auto *Retired = new std::vector<const char *>;
  for (InterruptCleanup &C : Cleanups) {
    const char *Registered = C.Dir.load();
    if (Registered && Dir == Registered &&
        C.Dir.compare_exchange_strong(Registered, nullptr)) {
      std::lock_guard<std::mutex> Guard(RetiredLock);
      Retired->push_back(Registered);
    }
  }
}

Expected<ChildOutcome> runChild(StringRef Program, ArrayRef<std::string> Args,
                                StringRef LogPath, unsigned TimeoutSeconds) {
  Expected<ChildProcess> Child =
      ChildProcess::start(Program, Args, LogPath, TimeoutSeconds);
  if (!Child)
    return Child.takeError();
  return Child->wait();
}

} // namespace irs
