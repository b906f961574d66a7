//===- ModuleVerifier.h - The LLVM verifier as one-line errors --*- C++ -*-===//
//
// Every module is verified when read and before it is written. LLVM's
// verifier prints many lines, and crashes on some malformed metadata; these
// functions give its first complaint as one line and name what it would
// crash on instead of running it there.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_MODULEVERIFIER_H
#define IR_SANITIZE_SUPPORT_MODULEVERIFIER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace irs {

/// The verifier's first complaint about \p M (one line), or none. With
/// \p BrokenDebugInfo, broken debug info is flagged there instead of being a
/// complaint, as verifyModule does. Names itself what LLVM's verifier would
/// crash on: a !tbaa tag without a first operand or that reaches a null one
/// (LLVM 16 to 22), a garbage collector it does not know, a gc.relocate
/// without a collector, untied to a statepoint or indexing past its live
/// values, and a debug record without a location, which LLVM 19 cannot
/// print (compat::functionWithUnlocatedDebugRecord).
std::optional<std::string> verifierProblem(const llvm::Module &M,
                                           bool *BrokenDebugInfo = nullptr);

/// Whether \p F passes llvm::verifyFunction, answered without running it
/// where it would crash (the cases verifierProblem names).
bool functionVerifies(const llvm::Function &F);

/// Runs the verifier; failure is a ToolError with ExitCode::VerifierFailed
/// whose message names \p What and the first problem found.
llvm::Error verifyModuleOrError(const llvm::Module &M, llvm::StringRef What);

/// Whether LLVM's TBAA upgrade (and verifier) crashes on \p Tag: it reads
/// the first operand as a node without looking (LLVM 16 to 22).
bool crashesTBAAUpgrade(const llvm::MDNode &Tag);

} // namespace irs

#endif
