//===- ProcessGroups.cpp - A child's process group, ended on every path ---===//
//
// Only system calls below the registration functions: this code runs in
// signal handlers and in a forked watchdog, where nothing may allocate or
// take a lock.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Support/ProcessGroups.h"
#include "ir-sanitize/Support/ProcessHooks.h"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace irs {
namespace {

/// How long SIGKILLed members may take to disappear before we give up.
constexpr unsigned KillWaitMilliseconds = 5000;

long long nowMilliseconds() {
  timespec T;
  ::clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000LL + T.tv_nsec / 1000000;
}

void sleepMilliseconds(unsigned Ms) {
  timespec T{static_cast<time_t>(Ms / 1000),
             static_cast<long>(Ms % 1000) * 1000000L};
  while (::nanosleep(&T, &T) != 0 && errno == EINTR) {
  }
}

/// One entry of getdents64, which (unlike readdir) allocates nothing.
struct DirEntry64 {
  uint64_t Ino;
  int64_t Off;
  unsigned short RecLen;
  unsigned char Type;
  char Name[1];
};

/// Calls \p Visit(name) for each entry of directory \p FD but "." and "..",
/// until it returns false.
template <typename Fn> void forEachEntry(int FD, Fn Visit) {
  alignas(8) char Buf[1024];
  long N;
  while ((N = ::syscall(SYS_getdents64, FD, Buf, sizeof Buf)) > 0)
    for (long Off = 0; Off < N;) {
      const auto *E = reinterpret_cast<const DirEntry64 *>(Buf + Off);
      Off += E->RecLen;
      if (std::strcmp(E->Name, ".") && std::strcmp(E->Name, "..") &&
          !Visit(E->Name))
        return;
    }
}

/// Whether /proc/<Pid>/stat (\p Pid a name in /proc) is a live process of
/// \p Group. The fields after the command name: state, ppid, pgrp.
bool isLiveMember(int Proc, const char *Pid, int Group) {
  char Path[32];
  size_t Len = std::strlen(Pid);
  if (Len + sizeof("/stat") > sizeof Path || Pid[0] < '0' || Pid[0] > '9')
    return false;
  std::memcpy(Path, Pid, Len);
  std::memcpy(Path + Len, "/stat", sizeof("/stat"));
  int FD = ::openat(Proc, Path, O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return false;
  char Stat[512];
  ssize_t N = ::read(FD, Stat, sizeof Stat - 1);
  ::close(FD);
  if (N <= 0)
    return false;
  Stat[N] = 0;
  const char *P = std::strrchr(Stat, ')');
  if (!P || P[1] != ' ' || P[2] == 'Z' || P[2] == 'X')
    return false;
  P += 3;
  for (int Field = 0; Field != 2; ++Field) { // skip state, then ppid
    while (*P && *P != ' ')
      ++P;
    while (*P == ' ')
      ++P;
  }
  long PGrp = 0;
  while (*P >= '0' && *P <= '9')
    PGrp = PGrp * 10 + (*P++ - '0');
  return PGrp == Group;
}

bool anyLive(const int *Groups, unsigned N) {
  for (unsigned I = 0; I != N; ++I)
    if (Groups[I] > 0 && groupHasLiveMembers(Groups[I]))
      return true;
  return false;
}

bool waitUntilGone(const int *Groups, unsigned N, unsigned Ms) {
  long long Deadline = nowMilliseconds() + Ms;
  unsigned Step = 1;
  while (anyLive(Groups, N)) {
    if (nowMilliseconds() >= Deadline)
      return false;
    sleepMilliseconds(Step);
    Step = Step < 20 ? Step * 2 : 20;
  }
  return true;
}

void signalLive(const int *Groups, unsigned N, int Signal) {
  for (unsigned I = 0; I != N; ++I)
    if (Groups[I] > 0 && groupHasLiveMembers(Groups[I])) {
      ::kill(-Groups[I], Signal);
      if (Signal == SIGTERM)
        ::kill(-Groups[I], SIGCONT);
    }
}

void removeTreeAt(int ParentFD, const char *Name, unsigned Depth) {
  if (::unlinkat(ParentFD, Name, 0) == 0 || errno == ENOENT)
    return;
  int FD =
      ::openat(ParentFD, Name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (FD < 0)
    return;
  // Removing entries while reading the directory may skip some: read again
  // until a pass finds nothing.
  for (bool Found = true; Found && Depth < 16;) {
    Found = false;
    ::lseek(FD, 0, SEEK_SET);
    forEachEntry(FD, [&](const char *Entry) {
      removeTreeAt(FD, Entry, Depth + 1);
      Found = true;
      return true;
    });
    if (::unlinkat(ParentFD, Name, AT_REMOVEDIR) == 0)
      break;
  }
  ::close(FD);
}

} // namespace

bool groupHasLiveMembers(int Group) {
  if (::kill(-Group, 0) != 0)
    return errno == EPERM;
#ifdef __linux__
  int Proc = ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (Proc < 0)
    return true; // Cannot tell a zombie from a live member.
  bool Live = false;
  forEachEntry(Proc, [&](const char *Pid) {
    Live = isLiveMember(Proc, Pid, Group);
    return !Live;
  });
  ::close(Proc);
  return Live;
#else
  return true;
#endif
}

bool endProcessGroups(const int *Groups, unsigned N, unsigned GraceMs) {
  if (!anyLive(Groups, N))
    return true;
  signalLive(Groups, N, SIGTERM);
  if (waitUntilGone(Groups, N, GraceMs))
    return true;
  signalLive(Groups, N, SIGKILL);
  return waitUntilGone(Groups, N, KillWaitMilliseconds);
}

void removeTree(const char *Dir) { removeTreeAt(AT_FDCWD, Dir, 0); }

//===----------------------------------------------------------------------===//
// The watchdog
//===----------------------------------------------------------------------===//

namespace {

/// One message to the watchdog, one SOCK_SEQPACKET packet: an operation
/// byte, a group, and for directories the path (no terminator).
enum WatchOp : char {
  AddGroup = 'G',
  DropGroup = 'g',
  AddDir = 'D',
  DropDir = 'd'
};
constexpr size_t MaxWatchedPath = 4000;
constexpr size_t PacketHeader = 1 + sizeof(int);
constexpr unsigned MaxWatchedGroups = 64, MaxWatchedDirs = 16;

struct WatchList {
  int Groups[MaxWatchedGroups];
  char Dirs[MaxWatchedDirs][MaxWatchedPath + 1];

  void replaceGroup(int From, int To) {
    for (int &G : Groups)
      if (G == From) {
        G = To;
        return;
      }
  }
  char *findDir(const char *Path, size_t Len) {
    for (char *D : Dirs)
      if (std::strlen(D) == Len && !std::memcmp(D, Path, Len))
        return D;
    return nullptr;
  }
  void apply(const char *Packet, size_t Size) {
    if (Size < PacketHeader)
      return;
    int Group;
    std::memcpy(&Group, Packet + 1, sizeof Group);
    const char *Path = Packet + PacketHeader;
    size_t Len = Size - PacketHeader;
    char *Dir = nullptr;
    switch (Packet[0]) {
    case AddGroup:
      return replaceGroup(0, Group);
    case DropGroup:
      return replaceGroup(Group, 0);
    case AddDir:
      if ((Dir = findDir("", 0))) {
        std::memcpy(Dir, Path, Len);
        Dir[Len] = 0;
      }
      return;
    case DropDir:
      if ((Dir = findDir(Path, Len)))
        Dir[0] = 0;
      return;
    }
  }
};
/// The watchdog's list (in the parent, never used: zero).
WatchList Watched;

/// The watchdog's own state: a group of its own (a Ctrl-C or a kill of our
/// group does not end it before it has cleaned up), the signals that would
/// end it ignored, default handlers for the rest (not the parent's, which
/// would remove the parent's files), no descriptor but \p Socket (as 3).
void detachWatchdog(int Socket) {
  ::setpgid(0, 0);
  struct sigaction Act;
  std::memset(&Act, 0, sizeof Act);
  for (int Sig = 1; Sig < NSIG; ++Sig) {
    bool Ignore = Sig == SIGINT || Sig == SIGTERM || Sig == SIGHUP ||
                  Sig == SIGQUIT || Sig == SIGPIPE;
    Act.sa_handler = Ignore ? SIG_IGN : SIG_DFL;
    ::sigaction(Sig, &Act, nullptr);
  }
  sigset_t None;
  sigemptyset(&None);
  ::sigprocmask(SIG_SETMASK, &None, nullptr);
  if (Socket != 3) {
    ::dup2(Socket, 3);
    ::close(Socket);
  }
  int Null = ::open("/dev/null", O_RDWR);
  for (int FD = 0; FD != 3; ++FD)
    ::dup2(Null, FD);
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 4U, ~0U, 0U) == 0)
    return;
#endif
  for (int FD = 4; FD < 65536; ++FD)
    ::close(FD);
}

[[noreturn]] void runWatchdog(int Socket) {
  detachWatchdog(Socket);
  char Packet[PacketHeader + MaxWatchedPath];
  while (true) {
    ssize_t N = ::recv(3, Packet, sizeof Packet, 0);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break; // The parent is gone, or what it told us was unreadable.
    Watched.apply(Packet, static_cast<size_t>(N));
  }
  endProcessGroups(Watched.Groups, MaxWatchedGroups);
  for (const char *D : Watched.Dirs)
    if (D[0])
      removeTree(D);
  ::_exit(0);
}

/// The socket to the watchdog, which is started on the first call; -1 if it
/// could not be.
int watchdogSocket() {
  static const int Socket = [] {
    int Pair[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, Pair) != 0)
      return -1;
    pid_t Pid = ::fork();
    if (Pid == 0) {
      ::close(Pair[0]);
      runWatchdog(Pair[1]);
    }
    ::close(Pair[1]);
    if (Pid < 0) {
      ::close(Pair[0]);
      return -1;
    }
    return Pair[0];
  }();
  return Socket;
}

void tellWatchdog(WatchOp Op, int Group, llvm::StringRef Path) {
  if (!processHooks().CleanUpAfterKill || Path.size() > MaxWatchedPath)
    return;
  int Socket = watchdogSocket();
  if (Socket < 0)
    return;
  char Packet[PacketHeader + MaxWatchedPath];
  Packet[0] = Op;
  std::memcpy(Packet + 1, &Group, sizeof Group);
  if (!Path.empty())
    std::memcpy(Packet + PacketHeader, Path.data(), Path.size());
  (void)::send(Socket, Packet, PacketHeader + Path.size(), MSG_NOSIGNAL);
}

} // namespace

void watchGroup(int Group) { tellWatchdog(AddGroup, Group, ""); }
void unwatchGroup(int Group) { tellWatchdog(DropGroup, Group, ""); }
void watchDirectory(llvm::StringRef Dir) { tellWatchdog(AddDir, 0, Dir); }
void unwatchDirectory(llvm::StringRef Dir) { tellWatchdog(DropDir, 0, Dir); }

} // namespace irs
