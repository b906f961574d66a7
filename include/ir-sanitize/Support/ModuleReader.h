//===- ModuleReader.h - Reading modules safely ------------------*- C++ -*-===//
//
// .ll or .bc from a file or stdin, format detected from the content, errors
// as one line naming the file (and line:column for text IR). The input is
// verified before LLVM's own upgrades run, and inputs LLVM's readers crash
// on are refused with a message instead (ModuleReader.cpp says which).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_MODULEREADER_H
#define IR_SANITIZE_SUPPORT_MODULEREADER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>

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

/// Text IR parsed as readModule parses it, without verification or the
/// debug-info upgrade: null, with the reason in \p Diag, for text that does
/// not parse or that LLVM's parser would crash on.
std::unique_ptr<llvm::Module>
parseTextIR(std::unique_ptr<llvm::MemoryBuffer> Input, llvm::SMDiagnostic &Diag,
            llvm::LLVMContext &Ctx);

/// Reads a module; errors are ToolErrors with ExitCode::BadInput.
llvm::Expected<LoadedModule> readModule(llvm::StringRef Path,
                                        llvm::LLVMContext &Ctx);

} // namespace irs

#endif
