//===- ModuleIO.h - Reading and writing modules safely ----------*- C++ -*-===//
//
// Reading: .ll or .bc from a file or stdin, format detected from the content,
// errors as one line naming the file (and line:column for text IR).
// Writing: to a temporary file in the destination directory, renamed into
// place only once complete, so that a failure never leaves a partial file.
// Temporaries are named `.NAME.irs-PID-XXXXXX.tmp`: a process killed while
// writing (kill -9) leaves one, and the next write to NAME removes those
// whose writer PID is no longer running.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_MODULEIO_H
#define IR_SANITIZE_SUPPORT_MODULEIO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace irs {

enum class IRFormat { Text, Bitcode };

/// How the input wrote debug-value information; the output keeps that form so
/// that the LLVM which produced the input (Julia 1.12: LLVM 18) can read it.
enum class DebugInfoForm { None, Intrinsics, Records };

struct LoadedModule {
  std::unique_ptr<llvm::Module> M;
  IRFormat Format = IRFormat::Text;
  DebugInfoForm DbgForm = DebugInfoForm::None;
  std::string Path;        ///< As given ("-" for stdin).
  std::string DisplayName; ///< For messages ("<stdin>" for "-").
};

/// Reads a module; errors are ToolErrors with ExitCode::BadInput.
llvm::Expected<LoadedModule> readModule(llvm::StringRef Path,
                                        llvm::LLVMContext &Ctx);

/// Text for "-" and *.ll, bitcode for *.bc, unless \p Emit says otherwise.
IRFormat outputFormatFor(llvm::StringRef Path, std::optional<IRFormat> Emit);

/// Parses "ll" / "bc".
std::optional<IRFormat> parseIRFormat(llvm::StringRef Name);

/// The verifier's first complaint about \p M (one line), or none. With
/// \p BrokenDebugInfo, broken debug info is flagged there instead of being a
/// complaint, as verifyModule does. Names itself what LLVM's verifier would
/// crash on: a !tbaa tag without a first operand or that reaches a null one
/// (LLVM 16 to 22), and a
/// debug record without a location, which LLVM 19 cannot print
/// (compat::functionWithUnlocatedDebugRecord).
std::optional<std::string> verifierProblem(const llvm::Module &M,
                                           bool *BrokenDebugInfo = nullptr);

/// Runs the verifier; failure is a ToolError with ExitCode::VerifierFailed
/// whose message names \p What and the first problem found.
llvm::Error verifyModuleOrError(const llvm::Module &M, llvm::StringRef What);

/// Whether LLVM's bitcode writer can hold \p M: it writes a `metadata`
/// argument of a varargs call (Enzyme's `metadata !"enzyme_dup"` markers) as
/// a reference to some unrelated value, so such a module must go as text.
bool bitcodeCanHold(const llvm::Module &M);

/// Verifies \p M, then writes it to \p Path ("-" = stdout) atomically, in
/// \p Format, with debug info in \p DbgForm where this LLVM can write it
/// (see ProcessHooks::SetDebugInfoWriterOptions).
llvm::Error writeModule(llvm::Module &M, llvm::StringRef Path, IRFormat Format,
                        DebugInfoForm DbgForm);

/// Why writing \p M in \p DbgForm loses something, for the user; empty when
/// nothing is lost (LLVM 21+ can only write debug records, which the LLVM 18
/// of Julia 1.12 cannot read).
std::string debugInfoFormWarning(const llvm::Module &M, DebugInfoForm DbgForm);

/// One output of writeOutputsTogether: \p Fill prints the content; an
/// error it returns (say, the verifier's) cancels every output.
struct OutputFile {
  std::string Path; ///< "-" = stdout.
  std::function<llvm::Error(llvm::raw_ostream &)> Fill;
};

/// The output writeModule writes, for writeOutputsTogether. \p M must
/// outlive it.
OutputFile moduleOutput(llvm::Module &M, llvm::StringRef Path, IRFormat Format,
                        DebugInfoForm DbgForm);

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
