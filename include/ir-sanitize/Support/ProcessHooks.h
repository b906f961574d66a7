//===- ProcessHooks.h - What a process owner lets happen --------*- C++ -*-===//
//
// The library changes no process-wide state by itself: it prints nothing,
// sets no LLVM cl::opt, installs no fatal-error handler or interrupt hook.
// A command-line front end owns its process and may let it do these things,
// by calling setProcessHooks once at start-up; what touches the process
// (setting an LLVM option, a fatal-error handler that prints and exits) is
// the front end's own code, handed over as SetLLVMOption and
// GuardBitcodeParse (src/tools/Common/ToolHooks.h). An embedding program
// (Julia, a compiler) leaves them off and keeps LLVM's behaviour.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_PROCESSHOOKS_H
#define IR_SANITIZE_SUPPORT_PROCESSHOOKS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace irs {

struct ProcessHooks {
  /// The name the process's own messages start with ("ir-sanitize"), for
  /// what the library writes where it cannot return an error (the note of
  /// an interrupted child's kept work directory).
  std::string ToolName;
  /// Sets the LLVM cl::opt \p Name to \p Value; null: the library sets none,
  /// whatever the flags below say.
  void (*SetLLVMOption)(llvm::StringRef Name, bool Value) = nullptr;
  /// LLVM 19/20 choose the debug-info form of written IR from process-wide
  /// cl::opts (write-experimental-debuginfo*). With this (and
  /// SetLLVMOption), writeModule sets them so that the output keeps the
  /// input's form (LLVM 18 reads only intrinsics); without it, the output
  /// has whatever form they give.
  bool SetDebugInfoWriterOptions = false;
  /// LLVM's bitcode reader calls report_fatal_error on a module that fails
  /// the verifier. Non-null: readModule runs the parse of the file named
  /// \p FileName as \p Parse inside it, and the front end's handler turns
  /// such an error into its one-line message and ExitCode::BadInput.
  void (*GuardBitcodeParse)(llvm::StringRef FileName,
                            llvm::function_ref<void()> Parse) = nullptr;
  /// The bitcode reader upgrades debug info as it reads, which runs the
  /// verifier and aborts on a broken module. With this (and SetLLVMOption),
  /// readModule turns that off (the disable-auto-upgrade-debug-info cl::opt)
  /// and upgrades after its own verification, so a broken bitcode module is
  /// a one-line error like a broken text one. LLVM 16 has no such switch:
  /// there GuardBitcodeParse still applies.
  bool VerifyBitcodeBeforeUpgrade = false;
  /// Remove the temporary file of an output being written when the process
  /// dies of a signal (sys::RemoveFileOnSignal, which installs LLVM's signal
  /// handlers). Without it such a file stays until the next write to the
  /// same target removes it (see AtomicOutput.h).
  bool RemoveTemporariesOnSignal = false;
  /// Kill the Enzyme child processes still running when the process is
  /// interrupted (sys::SetInterruptFunction), remove their work
  /// directories, then die of the same signal.
  bool KillChildrenOnInterrupt = false;
  /// Start a watchdog process with the first child or work directory: if
  /// this process dies without ending its children's process groups and
  /// removing its work directories (SIGKILL), the watchdog does it
  /// (Support/ProcessGroups.h). It is a child of this process, in a process
  /// group of its own, and exits when this process does.
  bool CleanUpAfterKill = false;
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

/// Sets the LLVM option \p Name through the hooks, when they allow it.
void setLLVMOptionIfAllowed(llvm::StringRef Name, bool Value);

} // namespace irs

#endif
