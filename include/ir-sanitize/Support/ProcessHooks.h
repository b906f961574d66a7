//===- ProcessHooks.h - What a process owner lets the library do -*- C++
//-*-===//
//
// The library changes no process-wide state by itself: it prints nothing,
// sets no LLVM cl::opt, installs no fatal-error handler or interrupt hook.
// A command-line front end owns its process and may let it do these things,
// by calling setProcessHooks once at start-up. An embedding program (Julia,
// a compiler) leaves them off and keeps LLVM's behaviour.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_PROCESSHOOKS_H
#define IR_SANITIZE_SUPPORT_PROCESSHOOKS_H

#include <string>

namespace irs {

struct ProcessHooks {
  /// LLVM 19/20 choose the debug-info form of written IR from process-wide
  /// cl::opts (write-experimental-debuginfo*). With this, writeModule sets
  /// them so that the output keeps the input's form (LLVM 18 reads only
  /// intrinsics); without it, the output has whatever form they give.
  bool SetDebugInfoWriterOptions = false;
  /// LLVM's bitcode reader calls report_fatal_error on a module that fails
  /// the verifier. Non-empty: readModule installs a fatal-error handler for
  /// the parse that prints "<this>: error: FILE: invalid IR: ..." and exits
  /// with ExitCode::BadInput.
  std::string ExitOnBrokenBitcodeAs;
  /// The bitcode reader upgrades debug info as it reads, which runs the
  /// verifier and aborts on a broken module. With this, readModule turns
  /// that off (the disable-auto-upgrade-debug-info cl::opt) and upgrades
  /// after its own verification, so a broken bitcode module is a one-line
  /// error like a broken text one. LLVM 16 has no such switch: there
  /// ExitOnBrokenBitcodeAs still applies.
  bool VerifyBitcodeBeforeUpgrade = false;
  /// Remove the temporary file of an output being written when the process
  /// dies of a signal (sys::RemoveFileOnSignal, which installs LLVM's signal
  /// handlers). Without it such a file stays until the next write to the
  /// same target removes it (see AtomicOutput.h).
  bool RemoveTemporariesOnSignal = false;
  /// Kill the Enzyme child processes still running when the process is
  /// interrupted (sys::SetInterruptFunction), then die of SIGINT.
  bool KillChildrenOnInterrupt = false;
  /// LLVM's bitcode reader crashes on some malformed files (LLVM 16-22: a
  /// !tbaa tag whose first operand is null, in UpgradeTBAANode; a size
  /// field of 32 GB, which it tries to allocate). With this,
  /// setProcessHooks enables LLVM's crash recovery and readModule reports
  /// such a file in one line (ExitCode::BadInput). The half-read module is
  /// left behind, never freed: after this error the process should only
  /// report and exit.
  bool RecoverFromReaderCrashes = false;
};

/// Opts in; call once, before any other library call.
void setProcessHooks(const ProcessHooks &Hooks);
/// The hooks in force (all off unless setProcessHooks was called).
const ProcessHooks &processHooks();

} // namespace irs

#endif
