//===- OutputSafety.h - No output overwrites an input or another output -*-===//
//
// Every driver job lists the files it reads and writes and calls
// checkDistinctFiles before it reads anything: an output that is an input
// or another output would lose data (the module replaced by the report, the
// input truncated by a log), so the job is refused as a usage error and
// nothing is written.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_OUTPUTSAFETY_H
#define IR_SANITIZE_SUPPORT_OUTPUTSAFETY_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

/// One file of a job, as the user named it.
struct JobFile {
  std::string Option; ///< "-o", "--report", "the input", ...
  std::string Path;   ///< Empty: none; "-": stdin or stdout.
  /// A file an option's directory holds: what the user gave ("d", of
  /// --emit-dir d), which messages name with the file ("--emit-dir d (its
  /// spec.json)"). Empty: Path is what the option gave.
  std::string Given = {};
};

/// The files a job reads and writes.
struct JobFiles {
  /// The module read, which ModuleOutput alone may name.
  JobFile ModuleInput;
  std::vector<JobFile> Inputs; ///< Every other file read (spec, plugin).
  std::vector<JobFile> Outputs;
  /// The module output (-o), which may name ModuleInput: the documented way
  /// to rewrite a module in place (written only once the job succeeded).
  JobFile ModuleOutput;
  /// Directories the job replaces as a whole: no input may lie inside one.
  std::vector<JobFile> OutputDirs;
};

/// Whether \p A and \p B are the same file: the same device and inode when
/// both exist, else the same canonical path (symbolic links of the existing
/// parent directories resolved).
bool sameFile(llvm::StringRef A, llvm::StringRef B);

/// Checks that no output of \p Files is an input (ModuleOutput may be
/// ModuleInput) or another output, and that no input lies inside an output
/// directory, and that at most one output writes to standard output ("-",
/// /dev/stdout, /dev/fd/1, /proc/self/fd/1, or the file or pipe descriptor 1
/// is open on). Other outputs written in place (devices such as /dev/null,
/// FIFOs) are not compared. The error is a ToolError with ExitCode::Usage, one
/// line naming both files.
llvm::Error checkDistinctFiles(const JobFiles &Files);

} // namespace irs

#endif
