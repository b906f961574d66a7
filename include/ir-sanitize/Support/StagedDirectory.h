//===- StagedDirectory.h - A directory written whole or not -----*- C++ -*-===//
//
// An output directory (gpu-check's plan directory) built beside its place
// and renamed there once complete: a failed or interrupted run leaves the
// old directory (or none), never old and new files mixed. Built on
// AtomicDirectory.h (staging and the rename) and ScopedWorkDir.h (removal on
// every way out). Internal (not installed).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_STAGEDDIRECTORY_H
#define IR_SANITIZE_SUPPORT_STAGEDDIRECTORY_H

#include "ir-sanitize/Support/Diagnostics.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace irs {

struct StagedDirectoryRequest {
  /// Where the directory goes; empty: a new temporary directory named
  /// TMPDIR/TempPrefix-XXXXXX, which is then where it stays.
  std::string Requested;
  std::string TempPrefix = "ir-sanitize";
  /// Replace an existing non-empty directory as a whole; without it such a
  /// directory is a usage error naming Flag.
  bool Force = false;
  std::string Flag; ///< How messages name the option ("--emit-dir").
  DiagnosticHandler *Diags = nullptr;
  /// Whether the directory is kept after Write failed with this error (its
  /// message names a file in it); null: never.
  std::function<bool(llvm::Error &)> KeepOnFailure;
};

/// Has \p Write fill a new directory (the first argument; the second is
/// where it will be, for messages) and renames it to Request.Requested once
/// complete. Returns where it is. Errors: Write's; OutputError (cannot
/// create or rename); Usage (a non-empty directory without Force).
llvm::Expected<std::string> buildStagedDirectory(
    const StagedDirectoryRequest &Request,
    llvm::function_ref<llvm::Error(llvm::StringRef Dir, llvm::StringRef Shown)>
        Write);

} // namespace irs

#endif
