//===- ToolHooks.h - What a process-owning program allows -------*- C++ -*-===//
//
// The front ends' side of Support/ProcessHooks.h: the code that sets LLVM
// options and turns LLVM's fatal errors into one-line messages, which the
// library may only call through the hooks. ir-sanitize and the fuzzers
// install them; the C interface and the opt plugin, which live in someone
// else's process, do not.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TOOLS_TOOLHOOKS_H
#define IR_SANITIZE_TOOLS_TOOLHOOKS_H

#include "ir-sanitize/Support/ProcessHooks.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace irs::tools {

/// Sets the registered LLVM cl::opt \p Name (a boolean) to \p Value, as if
/// given on the command line; nothing when this LLVM has no such option.
void setLLVMOption(llvm::StringRef Name, bool Value);

/// Runs \p Parse with a fatal-error handler that prints
/// "TOOL: error: FILE: invalid IR: REASON" (TOOL: ProcessHooks::ToolName)
/// and exits with ExitCode::BadInput.
void exitOnFatalParseError(llvm::StringRef FileName,
                           llvm::function_ref<void()> Parse);

/// Every hook on, as a command-line program that owns its process wants
/// them, its messages starting with \p ToolName.
ProcessHooks processOwnerHooks(llvm::StringRef ToolName);

} // namespace irs::tools

#endif
