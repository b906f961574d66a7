//===- AtomicDirectory.cpp - Outputs whole or not at all, LLVM-free -------===//
#include "ir-sanitize/Support/AtomicDirectory.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace irs {

InterruptsDeferred::InterruptsDeferred() {
  sigset_t Interrupts;
  sigemptyset(&Interrupts);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&Interrupts, Sig);
  pthread_sigmask(SIG_BLOCK, &Interrupts, &Saved);
}

InterruptsDeferred::~InterruptsDeferred() {
  pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
}

namespace {

/// `DIR/.NAME.TAG-PID-` for \p Final, then what mkdtemp or mkstemps fill.
std::string besideModel(const fs::path &Final, const std::string &Tag) {
  fs::path Parent = Final.parent_path();
  if (Parent.empty())
    Parent = ".";
  return (Parent / ("." + Final.filename().string() + "." + Tag +
                    std::to_string(::getpid()) + "-XXXXXX"))
      .string();
}

/// \p Path without trailing separators ("dir/" names "dir").
fs::path withoutTrailingSlash(std::string Path) {
  while (Path.size() > 1 && Path.back() == '/')
    Path.pop_back();
  return Path;
}

bool failWith(std::string &Error, const std::string &Why) {
  Error = Why;
  return false;
}

} // namespace

bool createDirectoryBeside(const std::string &Final, const std::string &Tag,
                           std::string &Dir, std::string &Error) {
  fs::path Target = withoutTrailingSlash(Final);
  std::error_code EC;
  if (!Target.parent_path().empty())
    fs::create_directories(Target.parent_path(), EC);
  if (EC)
    return failWith(Error, EC.message());
  std::string Model = besideModel(Target, Tag);
  if (!::mkdtemp(Model.data()))
    return failWith(Error, std::strerror(errno));
  Dir = Model;
  return true;
}

bool createTemporaryDirectory(const std::string &Prefix, std::string &Dir,
                              std::string &Error) {
  const char *Tmp = std::getenv("TMPDIR");
  std::string Model =
      (fs::path(Tmp && *Tmp ? Tmp : "/tmp") / (Prefix + "-XXXXXX")).string();
  if (!::mkdtemp(Model.data()))
    return failWith(Error,
                    "cannot create " + Model + ": " + std::strerror(errno));
  Dir = Model;
  return true;
}

bool commitDirectory(const std::string &Staging, const std::string &Final,
                     std::string &Error) {
  fs::path Target = withoutTrailingSlash(Final);
  // rename(2) replaces a missing or empty directory, not a full one.
  if (::rename(Staging.c_str(), Target.c_str()) == 0)
    return true;
  std::string Old;
  if (!createDirectoryBeside(Target.string(), "irs-old-", Old, Error))
    return false;
  if (::rename(Target.c_str(), Old.c_str()) != 0) {
    Error = std::strerror(errno);
    ::rmdir(Old.c_str());
    return false;
  }
  if (::rename(Staging.c_str(), Target.c_str()) != 0) {
    Error = std::strerror(errno);
    ::rename(Old.c_str(), Target.c_str());
    return false;
  }
  std::error_code EC;
  fs::remove_all(Old, EC);
  return true;
}

namespace {

bool writeInPlace(const std::string &Path, const std::string &Content,
                  std::string &Error) {
  std::ofstream Out(Path, std::ios::binary);
  if (!Out || !Out.write(Content.data(), Content.size()) || !Out.flush())
    return failWith(Error, std::strerror(errno));
  return true;
}

/// Writes all of \p Content to \p FD and closes it.
bool writeAndClose(int FD, const std::string &Content) {
  size_t Done = 0;
  while (Done < Content.size()) {
    ssize_t N = ::write(FD, Content.data() + Done, Content.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Saved = errno;
      ::close(FD);
      errno = Saved ? Saved : EIO;
      return false;
    }
    Done += static_cast<size_t>(N);
  }
  return ::close(FD) == 0;
}

} // namespace

bool writeFileAtomically(const std::string &Path, const std::string &Content,
                         std::string &Error) {
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode))
      return failWith(Error, "is a directory");
    if (!S_ISREG(St.st_mode)) // stdout, a device, a FIFO
      return writeInPlace(Path, Content, Error);
  }
  std::error_code EC;
  // A symbolic link keeps pointing at the file it named.
  fs::path Target =
      fs::exists(Path, EC) ? fs::canonical(Path, EC) : fs::path(Path);
  if (EC)
    Target = Path;
  std::string Temp = besideModel(Target, "irs-") + ".tmp";
  int FD = ::mkstemps(Temp.data(), 4);
  if (FD < 0)
    return failWith(Error, std::strerror(errno));
  if (!writeAndClose(FD, Content) ||
      ::rename(Temp.c_str(), Target.c_str()) != 0) {
    Error = std::strerror(errno);
    ::unlink(Temp.c_str());
    return false;
  }
  return true;
}

} // namespace irs
