//===- ChildProcess.h - A tool in a crash-isolated child --------*- C++ -*-===//
//
// Enzyme aborts on inputs it cannot handle, so it runs in a child process
// whose stdout and stderr go to a log file, with a time limit after which the
// child's whole process group is killed. Starting and waiting are separate so
// that several children (triage) can run side by side.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_CHILDPROCESS_H
#define IR_SANITIZE_SUPPORT_CHILDPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace irs {

struct ChildOutcome {
  enum class Kind { Exited, Signalled, TimedOut };
  Kind How = Kind::Exited;
  int ExitCode = 0; ///< Kind::Exited.
  int Signal = 0;   ///< Kind::Signalled.
  double Seconds = 0;

  bool succeeded() const { return How == Kind::Exited && ExitCode == 0; }
  /// "exit status 1", "signal 6 (SIGABRT)", "timed out after 300 s".
  std::string describe(unsigned TimeoutSeconds) const;
};

/// "SIGABRT" for 6, "signal 42" for unknown numbers.
std::string signalName(int Signal);

class ChildProcess {
public:
  /// Starts \p Program with \p Args (argv[0] is added) leading a process
  /// group of its own (see ProcessGroups.h), stdout and stderr written to
  /// \p LogPath (created or truncated; empty: this process's). However the
  /// child ends, the rest of its group is ended when it is reaped. Children
  /// still running when ir-sanitize is interrupted (SIGINT, SIGTERM, SIGHUP)
  /// are killed with it; a child dies with the thread that started it
  /// (PR_SET_PDEATHSIG, SIGKILL), so start and wait on one thread.
  /// \p TimeoutSeconds == 0 means no limit. \p ExtraEnv ("NAME=VALUE")
  /// is added to this process's environment. Errors: the log cannot be
  /// created or the program cannot be started.
  static llvm::Expected<ChildProcess>
  start(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
        llvm::StringRef LogPath, unsigned TimeoutSeconds,
        llvm::ArrayRef<std::string> ExtraEnv = {});
  ChildProcess(ChildProcess &&Other);
  ChildProcess &operator=(ChildProcess &&) = delete;
  ~ChildProcess();

  /// Waits until the child ends or its time runs out (then kills its process
  /// group and reaps it). Call once.
  ChildOutcome wait();
  /// The outcome if the child has ended or its time has run out (then it is
  /// killed and reaped), else nothing; does not block. After an outcome, do
  /// not call poll() or wait() again.
  std::optional<ChildOutcome> poll();

private:
  ChildProcess() = default;
  /// Ends the rest of the child's process group, reaps the child (which has
  /// ended or been killed) and stops tracking it; its wait status.
  int reap();
  int Pid = -1; ///< Also its process group's number.
  unsigned TimeoutSeconds = 0;
  std::chrono::steady_clock::time_point Started;
};

/// While registered, \p Dir is removed when the process is interrupted (with
/// the KillChildrenOnInterrupt hook), after its children are killed; with
/// \p Keep it is named in a note on stderr instead. At most 8 at a time.
/// Without \p Keep it is also registered with the watchdog, which removes it
/// if this process is killed (ProcessGroups.h).
void removeOnInterrupt(llvm::StringRef Dir, bool Keep);
/// Undoes removeOnInterrupt (the directory was removed or handed out).
void forgetOnInterrupt(llvm::StringRef Dir);

/// start() then wait().
llvm::Expected<ChildOutcome> runChild(llvm::StringRef Program,
                                      llvm::ArrayRef<std::string> Args,
                                      llvm::StringRef LogPath,
                                      unsigned TimeoutSeconds);

} // namespace irs

#endif
