//===- AtomicOutput.h - Outputs whole or not at all -------------*- C++ -*-===//
//
// A file is written to a temporary file in the destination directory and
// renamed into place only once complete, so that a failure never leaves a
// partial file; several files are written so that all appear or none does.
// Temporaries are named `.NAME.irs-PID-XXXXXX.tmp`: a process killed while
// writing (kill -9) leaves one, and the next write to NAME removes those
// whose writer PID is no longer running.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_ATOMICOUTPUT_H
#define IR_SANITIZE_SUPPORT_ATOMICOUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>

namespace irs {

/// One output of writeOutputsTogether: \p Fill prints the content; an
/// error it returns (say, the verifier's) cancels every output.
struct OutputFile {
  std::string Path; ///< "-" = stdout.
  std::function<llvm::Error(llvm::raw_ostream &)> Fill;
};

/// Writes several files so that either all appear or none does: every file
/// is opened first (an unwritable path fails before anything is written),
/// files are filled into temporaries (concurrently: Fill functions must not
/// share mutable state), and only once every one was written completely are
/// they renamed into place. Outputs written in place (stdout, devices,
/// FIFOs) are written after the temporaries succeeded, before the renames.
/// The first error, in the order given, is returned.
llvm::Error writeOutputsTogether(llvm::ArrayRef<OutputFile> Files);

/// Writes whatever \p Fill prints to \p Path ("-" = stdout) atomically.
/// Errors are ToolErrors with ExitCode::OutputError.
llvm::Error
writeFileAtomically(llvm::StringRef Path,
                    llvm::function_ref<void(llvm::raw_ostream &)> Fill);

/// An output written in two phases, so that a caller can finish other
/// outputs before this one appears: open() creates a temporary file beside
/// the target, os() fills it, commit() renames it into place. Destroyed
/// uncommitted, it removes the temporary file. "-" (stdout), devices and
/// FIFOs are written in place (a rename would replace them): what is written
/// there is visible at once. Errors are ToolErrors with
/// ExitCode::OutputError. writeFileAtomically is open + fill + commit.
class AtomicOutputFile {
public:
  static llvm::Expected<std::unique_ptr<AtomicOutputFile>>
  open(llvm::StringRef Path);
  /// Whether open(\p Path) would write in place, not through a temporary.
  static bool writesInPlace(llvm::StringRef Path);

  AtomicOutputFile(const AtomicOutputFile &) = delete;
  AtomicOutputFile &operator=(const AtomicOutputFile &) = delete;
  ~AtomicOutputFile();

  llvm::raw_ostream &os() { return *OS; }
  /// Flushes, closes and checks for write errors, without renaming; on
  /// failure nothing is left.
  llvm::Error close();
  /// Renames the closed file into place (nothing for one written in
  /// place); on failure nothing is left.
  llvm::Error rename();
  /// close(), then rename().
  llvm::Error commit();
  /// Removes the temporary file (nothing is left).
  void discard();
  bool isInPlace() const { return TempPath.empty(); }

private:
  AtomicOutputFile() = default;

  std::string Shown;               ///< The path as given, for messages.
  std::string Target;              ///< Rename destination (a real path).
  llvm::SmallString<256> TempPath; ///< Empty when written in place.
  std::unique_ptr<llvm::raw_fd_ostream> File; ///< Null for stdout.
  llvm::raw_ostream *OS = nullptr;
};

} // namespace irs

#endif
