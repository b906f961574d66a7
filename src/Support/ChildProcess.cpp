//===- ChildProcess.cpp - Running a tool in a crash-isolated child --------===//
#include "ir-sanitize/Support/ChildProcess.h"
#include "ir-sanitize/Support/ProcessGroups.h"
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
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace llvm;

namespace irs {
namespace {

/// Running children's process groups (each child leads one), so that the
/// interrupt handler kills them. A child's group also keeps Ctrl-C from
/// reaching it: if ir-sanitize is interrupted, it kills it itself.
std::atomic<int> LiveChildren[16];

/// The interrupt signal being handled, recorded before LLVM's handler calls
/// ours (which is not told), so that the process dies of that signal.
volatile std::sig_atomic_t InterruptSignal = SIGINT;
struct sigaction LLVMHandlers[NSIG];

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

void killLiveChildrenAndExit() {
  for (std::atomic<int> &C : LiveChildren)
    if (int Group = C.load())
      ::kill(-Group, SIGKILL);
  for (std::atomic<int> &C : LiveChildren)
    if (int Group = C.load())
      ::waitpid(Group, nullptr, 0);
  for (InterruptCleanup &C : Cleanups) {
    const char *Dir = C.Dir.load();
    if (!Dir)
      continue;
    if (!C.Keep.load()) {
      removeTree(Dir);
      continue;
    }
    const std::string &Tool = processHooks().ToolName;
    writeStderr((Tool.empty() ? "ir-sanitize" : Tool.c_str()));
    writeStderr(": note: work directory kept: ");
    writeStderr(Dir);
    writeStderr("\n");
  }
  // LLVM calls this instead of ending the process: end it as it would have,
  // of the signal it got (the shell then says 128 + its number).
  ::signal(InterruptSignal, SIG_DFL);
  ::raise(InterruptSignal);
}

/// Records the signal, then runs LLVM's handler (which calls ours).
void recordInterrupt(int Signal, siginfo_t *Info, void *Context) {
  InterruptSignal = Signal;
  const struct sigaction &LLVM = LLVMHandlers[Signal];
  if (LLVM.sa_flags & SA_SIGINFO)
    LLVM.sa_sigaction(Signal, Info, Context);
  else if (LLVM.sa_handler != SIG_DFL && LLVM.sa_handler != SIG_IGN)
    LLVM.sa_handler(Signal);
}

void installInterruptHandler() {
  sys::SetInterruptFunction(killLiveChildrenAndExit);
  // SetInterruptFunction has installed LLVM's handlers: record the signal in
  // front of them. LLVM's handler puts back the ones it replaced (the
  // defaults) before it calls killLiveChildrenAndExit.
  for (int Signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction Record;
    std::memset(&Record, 0, sizeof Record);
    Record.sa_sigaction = recordInterrupt;
    Record.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&Record.sa_mask);
    ::sigaction(Signal, &Record, &LLVMHandlers[Signal]);
  }
}

/// A process-wide hook: only where the process owner asked for it. From
/// the first child or the first directory to remove, whichever comes first.
void installInterruptFunction() {
  if (processHooks().KillChildrenOnInterrupt) {
    static const bool Installed = [] {
      installInterruptHandler();
      return true;
    }();
    (void)Installed;
  }
}

void trackChild(int Group) {
  installInterruptFunction();
  watchGroup(Group);
  for (std::atomic<int> &C : LiveChildren) {
    int Free = 0;
    if (C.compare_exchange_strong(Free, Group))
      return;
  }
}

void untrackChild(int Group) {
  unwatchGroup(Group);
  for (std::atomic<int> &C : LiveChildren) {
    int Expected = Group;
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

namespace {

/// What the child does between fork() and exec: only async-signal-safe
/// calls (the parent may have other threads). It leads a process group of
/// its own, dies with the thread that started it (PR_SET_PDEATHSIG; a parent
/// that died before that call is seen through getppid), reads /dev/null and
/// writes to \p LogFD (-1: this process's stdout and stderr), with default
/// signal handlers and the mask this process had. On failure it writes
/// errno to \p ErrorFD.
[[noreturn]] void execChild(const char *Prog, char *const *Argv,
                            char *const *Envp, int LogFD, int ErrorFD,
                            pid_t Parent, const sigset_t &Mask) {
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != Parent)
    ::_exit(127);
#endif
  struct sigaction Default;
  std::memset(&Default, 0, sizeof Default);
  Default.sa_handler = SIG_DFL;
  for (int Sig = 1; Sig < NSIG; ++Sig) {
    struct sigaction Old;
    if (::sigaction(Sig, nullptr, &Old) == 0 && Old.sa_handler != SIG_IGN)
      ::sigaction(Sig, &Default, nullptr);
  }
  ::sigprocmask(SIG_SETMASK, &Mask, nullptr);
  int In = ::open("/dev/null", O_RDONLY);
  bool Ok = In >= 0 && ::dup2(In, STDIN_FILENO) >= 0 &&
            (LogFD < 0 || (::dup2(LogFD, STDOUT_FILENO) >= 0 &&
                           ::dup2(LogFD, STDERR_FILENO) >= 0));
  if (Ok)
    ::execve(Prog, Argv, Envp);
  int Err = errno;
  (void)!::write(ErrorFD, &Err, sizeof Err);
  ::_exit(127);
}

/// fork() and execChild(), signals blocked in between so that no handler of
/// this process runs in the child; the child's errno if it could not exec.
int forkChild(pid_t &Pid, const char *Prog, char *const *Argv,
              char *const *Envp, int LogFD) {
  int ErrorPipe[2];
  if (::pipe2(ErrorPipe, O_CLOEXEC) != 0)
    return errno;
  sigset_t All, Old;
  sigfillset(&All);
  ::pthread_sigmask(SIG_SETMASK, &All, &Old);
  pid_t Parent = ::getpid();
  Pid = ::fork();
  if (Pid == 0)
    execChild(Prog, Argv, Envp, LogFD, ErrorPipe[1], Parent, Old);
  int Err = Pid < 0 ? errno : 0;
  ::pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  ::close(ErrorPipe[1]);
  if (Pid > 0) {
    ::setpgid(Pid, Pid); // Also here: kill(-Pid) must work from now on.
    ssize_t N;
    while ((N = ::read(ErrorPipe[0], &Err, sizeof Err)) < 0 && errno == EINTR)
      ;
    if (N != sizeof Err)
      Err = 0;
    else
      ::waitpid(Pid, nullptr, 0);
  }
  ::close(ErrorPipe[0]);
  return Err;
}

} // namespace

Expected<ChildProcess> ChildProcess::start(StringRef Program,
                                           ArrayRef<std::string> Args,
                                           StringRef LogPath,
                                           unsigned TimeoutSeconds,
                                           ArrayRef<std::string> ExtraEnv) {
  int LogFD = -1;
  if (!LogPath.empty()) {
    LogFD = ::open(LogPath.str().c_str(),
                   O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (LogFD < 0)
      return makeToolError(ExitCode::OutputError,
                           LogPath + ": cannot create log: " + strerror(errno));
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
  for (char **E = environ; *E; ++E)
    Envp.push_back(*E);
  Envp.push_back(nullptr);

  ChildProcess Child;
  Child.TimeoutSeconds = TimeoutSeconds;
  Child.Started = std::chrono::steady_clock::now();
  int Err = forkChild(Child.Pid, Prog.c_str(), Argv.data(), Envp.data(), LogFD);
  if (LogFD >= 0)
    ::close(LogFD);
  if (Err != 0) {
    Child.Pid = -1;
    return createStringError(inconvertibleErrorCode(),
                             Program + ": cannot run: " + strerror(Err));
  }
  trackChild(Child.Pid);
  return Child;
}

ChildProcess::ChildProcess(ChildProcess &&Other)
    : Pid(Other.Pid), TimeoutSeconds(Other.TimeoutSeconds),
      Started(Other.Started) {
  Other.Pid = -1;
}

ChildProcess::~ChildProcess() {
  // Never leave a child running (or a zombie) behind.
  if (Pid > 0) {
    ::kill(-Pid, SIGKILL);
    reap();
  }
}

int ChildProcess::reap() {
  // The child is a zombie until reaped, so its number (its group's) cannot
  // be reused while the rest of the group is ended.
  endProcessGroup(Pid);
  int Status = 0;
  while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  untrackChild(Pid);
  Pid = -1;
  return Status;
}

std::optional<ChildOutcome> ChildProcess::poll() {
  using namespace std::chrono;
  ChildOutcome Out;
  siginfo_t Info;
  std::memset(&Info, 0, sizeof Info);
  int R;
  do // WNOWAIT: see whether it ended, but leave the zombie for reap().
    R = ::waitid(P_PID, Pid, &Info, WEXITED | WNOHANG | WNOWAIT);
  while (R < 0 && errno == EINTR);
  if (R < 0) {
    // Reaped elsewhere or never ours: report it as a failed run.
    Out.How = ChildOutcome::Kind::Exited;
    Out.ExitCode = 127;
    endProcessGroup(Pid);
    untrackChild(Pid);
    Pid = -1;
    return Out;
  }
  if (Info.si_pid == 0) {
    if (!TimeoutSeconds ||
        steady_clock::now() < Started + seconds(TimeoutSeconds))
      return std::nullopt;
    ::kill(-Pid, SIGKILL);
    reap();
    Out.How = ChildOutcome::Kind::TimedOut;
    Out.Seconds = duration<double>(steady_clock::now() - Started).count();
    return Out;
  }
  int Status = reap();
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
  installInterruptFunction();
  if (!Keep)
    watchDirectory(Dir);
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
  unwatchDirectory(Dir);
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
