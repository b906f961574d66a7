//===- ScopedWorkDir.h - A job's work directory, never left behind -*- C++ -*-//
//
// The directory a job hands to its child processes (Enzyme, llvm-reduce) is
// removed on every way out of the job: success, errors and, through the
// interrupt hook, signals. With --keep-temps it stays and is named in one
// note; where the front end names it itself (a failure whose logs the user
// came for), the job releases it. Private to src/Driver.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_SCOPEDWORKDIR_H
#define IR_SANITIZE_DRIVER_SCOPEDWORKDIR_H

#include "ir-sanitize/Enzyme/ChildProcess.h"
#include "ir-sanitize/Support/Diagnostics.h"

#include "llvm/Support/FileSystem.h"

#include <string>

namespace irs {

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
