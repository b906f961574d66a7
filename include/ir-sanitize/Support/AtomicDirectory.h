//===- AtomicDirectory.h - Whole or not at all, LLVM-free -------*- C++ -*-===//
//
// A directory or file is built beside its final place under a name no one
// else uses (`.NAME.irs-PID-XXXXXX`) and renamed there only once complete,
// so that a failure never leaves a half-written result, or old and new files
// mixed. LLVM-free (POSIX and std::filesystem), so that gpu-check's plan
// directory and ir-sanitize-gpurun's report use the same facility; the
// runner links no LLVM. Errors are returned as one line, never printed.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_ATOMICDIRECTORY_H
#define IR_SANITIZE_SUPPORT_ATOMICDIRECTORY_H

#include <csignal>
#include <string>

namespace irs {

/// While alive, SIGINT, SIGTERM and SIGHUP wait (pthread_sigmask), so that
/// a directory is created and registered for removal on interrupts before
/// an interrupt can act: one arriving meanwhile acts on destruction.
class InterruptsDeferred {
public:
  InterruptsDeferred();
  ~InterruptsDeferred();
  InterruptsDeferred(const InterruptsDeferred &) = delete;
  InterruptsDeferred &operator=(const InterruptsDeferred &) = delete;

private:
  sigset_t Saved;
};

/// Creates a new directory `.NAME.TAG-PID-XXXXXX` beside \p Final (an
/// absolute path; Final's parent directories are created) in \p Dir; on
/// failure false with the reason in \p Error.
bool createDirectoryBeside(const std::string &Final, const std::string &Tag,
                           std::string &Dir, std::string &Error);

/// Creates a new directory `TMPDIR/PREFIX-XXXXXX` ($TMPDIR, else /tmp).
bool createTemporaryDirectory(const std::string &Prefix, std::string &Dir,
                              std::string &Error);

/// Renames the complete \p Staging to \p Final: onto a missing or empty
/// directory directly, else by moving the old one aside first (restored if
/// the new one cannot take its place) and removing it afterwards.
bool commitDirectory(const std::string &Staging, const std::string &Final,
                     std::string &Error);

/// Writes \p Content to \p Path through `.NAME.irs-PID-XXXXXX.tmp` beside it,
/// renamed into place once written; a device or FIFO (/dev/stdout) is
/// written in place, since a rename would replace it. On failure nothing is
/// left but what was there.
bool writeFileAtomically(const std::string &Path, const std::string &Content,
                         std::string &Error);

} // namespace irs

#endif
