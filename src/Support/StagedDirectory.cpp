//===- StagedDirectory.cpp - A directory written whole or not at all ------===//
#include "ir-sanitize/Support/StagedDirectory.h"
#include "ir-sanitize/Support/AtomicDirectory.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ScopedWorkDir.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace llvm;

namespace irs {

namespace {

Error cannotCreate(const Twine &Dir, const Twine &Why) {
  return makeToolError(ExitCode::OutputError, Dir + ": cannot create: " + Why);
}

bool isEmptyDir(StringRef Dir) {
  std::error_code EC;
  sys::fs::directory_iterator It(Dir, EC), End;
  return !EC && It == End;
}

/// The directory \p Final is built in, beside it: checks that \p Final may
/// be replaced (missing, empty, or Force).
Expected<std::string> createStagingDir(StringRef Final,
                                       const StagedDirectoryRequest &R) {
  sys::fs::file_status Status;
  if (!sys::fs::status(Final, Status)) {
    if (!sys::fs::is_directory(Status))
      return cannotCreate(escapeForMessage(Final), "not a directory");
    if (!R.Force && !isEmptyDir(Final))
      return makeToolError(ExitCode::Usage,
                           R.Flag + " " + escapeForMessage(Final) +
                               ": not empty (give --force to replace it as a "
                               "whole, or another directory)");
  }
  // An absolute model: the directory is created beside Final, whatever the
  // working directory is when it is renamed.
  SmallString<256> Absolute(Final);
  if (std::error_code EC = sys::fs::make_absolute(Absolute))
    return cannotCreate(escapeForMessage(Final), EC.message());
  std::string Dir, Why;
  if (!createDirectoryBeside(Absolute.str().str(), "irs-", Dir, Why))
    return cannotCreate(escapeForMessage(Final), Why);
  return Dir;
}

} // namespace

Expected<std::string> buildStagedDirectory(
    const StagedDirectoryRequest &R,
    function_ref<Error(StringRef Dir, StringRef Shown)> Write) {
  std::string Final = R.Requested;
  while (Final.size() > 1 && sys::path::is_separator(Final.back()))
    Final.pop_back();
  std::string Dir, Why;
  // No interrupt between creating the directory and registering it.
  std::optional<InterruptsDeferred> Deferred(std::in_place);
  if (Final.empty()) {
    if (!createTemporaryDirectory(R.TempPrefix, Dir, Why))
      return makeToolError(ExitCode::OutputError, Why);
    Final = Dir;
  } else {
    Expected<std::string> Staged = createStagingDir(Final, R);
    if (!Staged)
      return Staged.takeError();
    Dir = *Staged;
  }
  // Complete or not at all, a temporary directory too: removed on failure
  // and on interrupts.
  ScopedWorkDir Building(Dir, /*Keep=*/false, orIgnore(R.Diags));
  Deferred.reset();
  Error E = Write(Dir, Final);
  if (!E && Final != Dir && !commitDirectory(Dir, Final, Why))
    E = cannotCreate(escapeForMessage(Final), Why);
  if (E) {
    if (R.KeepOnFailure && R.KeepOnFailure(E))
      Building.release();
    return E;
  }
  Building.release(); // Complete (and renamed to Final).
  return Final;
}

} // namespace irs
