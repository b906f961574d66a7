//===- ModuleWriter.h - Writing modules safely ------------------*- C++ -*-===//
//
// A module is verified before it is written, in the format and debug-info
// form asked for, atomically (AtomicOutput.h).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_MODULEWRITER_H
#define IR_SANITIZE_SUPPORT_MODULEWRITER_H

#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/ModuleReader.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace irs {

/// Text for "-" and *.ll, bitcode for *.bc, unless \p Emit says otherwise.
IRFormat outputFormatFor(llvm::StringRef Path, std::optional<IRFormat> Emit);

/// Parses "ll" / "bc".
std::optional<IRFormat> parseIRFormat(llvm::StringRef Name);

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

/// The output writeModule writes, for writeOutputsTogether. \p M must
/// outlive it.
OutputFile moduleOutput(llvm::Module &M, llvm::StringRef Path, IRFormat Format,
                        DebugInfoForm DbgForm);

} // namespace irs

#endif
