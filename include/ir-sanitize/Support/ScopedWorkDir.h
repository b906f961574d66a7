//===- ScopedWorkDir.h - A job's work directory, never left -----*- C++ -*-===//
//
// The directory a job hands to its child processes (Enzyme, llvm-reduce) is
// removed on every way out of the job: success, errors and, through the
// interrupt hook, signals. With --keep-temps it stays and is named in one
// note; where the front end names it itself (a failure whose logs the user
// came for), the job releases it. Internal (not installed).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_SCOPEDWORKDIR_H
#define IR_SANITIZE_SUPPORT_SCOPEDWORKDIR_H

#include "ir-sanitize/Support/ChildProcess.h"
#include "ir-sanitize/Support/Diagnostics.h"

#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>

namespace irs {

/// A new directory TMPDIR/ir-sanitize-\p Job-XXXXXX. Errors are
/// ExitCode::OutputError.
inline llvm::Expected<std::string> createWorkDir(llvm::StringRef Job) {
  llvm::SmallString<256> Model;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  llvm::sys::path::append(Model, "ir-sanitize-" + Job + "-%%%%%%");
  llvm::SmallString<256> Dir;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Model, Dir))
    return makeToolError(ExitCode::OutputError,
                         "cannot create a work directory in " + Model + ": " +
                             EC.message());
  return std::string(Dir);
}

class ScopedWorkDir {
public:
  ScopedWorkDir(std::string Path, bool Keep, DiagnosticHandler &Diags)
      : Path(std::move(Path)), Keep(Keep), Diags(Diags) {
    removeOnInterrupt(this->Path, Keep);
  }
  ScopedWorkDir(const ScopedWorkDir &) = delete;
  ScopedWorkDir &operator=(const ScopedWorkDir &) = delete;
  ~ScopedWorkDir() {
    if (Path.empty())
      return;
    // Removed before it is forgotten: a kill in between leaves nothing.
    if (Keep)
      Diags.note("work directory kept: " + Path);
    else
      llvm::sys::fs::remove_directories(Path);
    forgetOnInterrupt(Path);
  }
  /// The caller names the directory in its own message: keep it, silently.
  void release() {
    forgetOnInterrupt(Path);
    Path.clear();
  }

private:
  std::string Path;
  bool Keep;
  DiagnosticHandler &Diags;
};

} // namespace irs

#endif
