//===- InputFile.h - Reading input files safely, without LLVM ---*- C++ -*-===//
//
// Every file ir-sanitize and ir-sanitize-gpurun read (modules, launch specs,
// launch manifests, run plans, PTX) goes through readInputFile: only a
// regular file is read (a FIFO would block, a device such as /dev/zero never
// ends, a directory is no file), and none larger than its kind's limit, so
// that a hostile path cannot hang the tool or exhaust its memory. The file
// is opened with O_NONBLOCK, so that opening a FIFO cannot block, and
// checked with fstat on that descriptor, so that nothing can swap the file
// between check and read. LLVM-free: the runner uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_INPUTFILE_H
#define IR_SANITIZE_SUPPORT_INPUTFILE_H

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace irs {

/// A kind of input, the most bytes one may have, and the fuzz target
/// (tests/fuzz, irs-fuzz-NAME) of the parser that reads it: every reader is
/// fuzzed (a unit test checks that each target exists). The limits are
/// stated in docs/CommandGuide and docs/run-plan.md; change them there too.
struct InputKind {
  const char *What;
  uint64_t MaxBytes;
  /// Null only where ir-sanitize parses none of it (said why beside it).
  const char *Fuzzer;
};

inline constexpr uint64_t MiB = uint64_t(1) << 20;
inline constexpr InputKind ModuleInput{"IR file", 2048 * MiB, "module"};
inline constexpr InputKind LaunchSpecInput{"launch spec", 16 * MiB,
                                           "launch-spec"};
inline constexpr InputKind LaunchManifestInput{"launch manifest", 64 * MiB,
                                               "manifest"};
inline constexpr InputKind RunPlanInput{"run plan", 64 * MiB, "run-plan"};
/// Handed whole to the CUDA driver, which parses it.
inline constexpr InputKind PTXInput{"PTX file", 512 * MiB, nullptr};
inline constexpr InputKind ProbeCacheInput{"Enzyme probe cache", 16 * MiB,
                                           "probe-cache"};
/// Hashed, then loaded by opt.
inline constexpr InputKind EnzymePluginInput{"Enzyme plugin", 2048 * MiB,
                                             nullptr};
/// What a child opt running Enzyme printed (a plugin can print without end:
/// its readers read the last 64 MiB).
inline constexpr InputKind EnzymeLogInput{"Enzyme log", 64 * MiB, "enzyme-log"};
/// `reduce`'s interestingness test reads the signature it must match.
inline constexpr InputKind FailureSignatureInput{"failure signature", 1 * MiB,
                                                 "failure-signature"};

/// Every kind, for the test that each is fuzzed.
inline constexpr const InputKind *AllInputKinds[] = {
    &ModuleInput,       &LaunchSpecInput, &LaunchManifestInput,
    &RunPlanInput,      &PTXInput,        &ProbeCacheInput,
    &EnzymePluginInput, &EnzymeLogInput,  &FailureSignatureInput};

namespace detail {

/// Appends what \p FD holds to \p Contents; false, with \p Problem, when it
/// holds more than \p Kind allows or cannot be read.
inline bool readAll(int FD, const InputKind &Kind, std::string &Contents,
                    std::string &Problem) {
  char Chunk[1 << 16];
  for (;;) {
    ssize_t N = ::read(FD, Chunk, sizeof(Chunk));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      Problem = std::strerror(errno);
      return false;
    }
    if (N == 0)
      return true;
    if (Contents.size() + uint64_t(N) > Kind.MaxBytes) {
      Problem = std::string("larger than the ") + Kind.What + " limit of " +
                std::to_string(Kind.MaxBytes / MiB) + " MiB";
      return false;
    }
    Contents.append(Chunk, static_cast<size_t>(N));
  }
}

inline const char *notRegular(mode_t Mode) {
  if (S_ISDIR(Mode))
    return "is a directory, not a regular file";
  if (S_ISFIFO(Mode))
    return "is a FIFO, not a regular file";
  if (S_ISSOCK(Mode))
    return "is a socket, not a regular file";
  if (S_ISCHR(Mode) || S_ISBLK(Mode))
    return "is a device, not a regular file";
  return S_ISREG(Mode) ? nullptr : "is not a regular file";
}

} // namespace detail

/// Reads \p Path, a regular file of at most \p Kind's limit, from byte
/// \p Offset on (a log followed as it grows) into \p Contents; false, with
/// \p Problem (a phrase without the file name), otherwise. A path with a
/// NUL byte is refused: the system would open only the part before it.
inline bool readInputFileFrom(const std::string &Path, const InputKind &Kind,
                              uint64_t Offset, std::string &Contents,
                              std::string &Problem) {
  Contents.clear();
  if (Path.find('\0') != std::string::npos) {
    Problem = "the file name contains a NUL byte";
    return false;
  }
  int FD = ::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat St;
  if (FD < 0) {
    // open() cannot say what is wrong with a socket (ENXIO: "No such device
    // or address") or a FIFO: what the path is says it better.
    int Err = errno;
    const char *Why = ::stat(Path.c_str(), &St) == 0
                          ? detail::notRegular(St.st_mode)
                          : nullptr;
    Problem = Why ? Why : std::strerror(Err);
    return false;
  }
  bool Ok = false;
  if (::fstat(FD, &St) != 0)
    Problem = std::strerror(errno);
  else if (const char *Why = detail::notRegular(St.st_mode))
    Problem = Why;
  else if (uint64_t(St.st_size) > Offset &&
           uint64_t(St.st_size) - Offset > Kind.MaxBytes)
    Problem = std::string("larger than the ") + Kind.What + " limit of " +
              std::to_string(Kind.MaxBytes / MiB) + " MiB";
  else if (Offset && ::lseek(FD, off_t(Offset), SEEK_SET) < 0)
    Problem = std::strerror(errno);
  else {
    if (uint64_t(St.st_size) > Offset)
      Contents.reserve(static_cast<size_t>(St.st_size - Offset));
    Ok = detail::readAll(FD, Kind, Contents, Problem); // it may have grown
  }
  ::close(FD);
  return Ok;
}

/// readInputFileFrom(Path, Kind, 0, ...): the whole file.
inline bool readInputFile(const std::string &Path, const InputKind &Kind,
                          std::string &Contents, std::string &Problem) {
  return readInputFileFrom(Path, Kind, 0, Contents, Problem);
}

/// Standard input (a pipe or a terminal is fine there), with the same limit.
inline bool readStandardInput(const InputKind &Kind, std::string &Contents,
                              std::string &Problem) {
  Contents.clear();
  return detail::readAll(STDIN_FILENO, Kind, Contents, Problem);
}

} // namespace irs

#endif
