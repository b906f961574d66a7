//===- EnzymeCalls.h - Enzyme's entry points and wrapper names --*- C++ -*-===//
//
// What a module says about Enzyme: whether it calls an `__enzyme_*` entry
// point itself, and the names the derivative wrappers (Transforms/
// AddDerivativeWrapper) give the functions they add, which the Enzyme
// runner and messages read back.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_ENZYMECALLS_H
#define IR_SANITIZE_ANALYSIS_ENZYMECALLS_H

#include "ir-sanitize/Analysis/ActivitySpec.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"

#include <string>

namespace irs {

/// Whether \p Name is an Enzyme entry point's (__enzyme_autodiff,
/// __enzyme_fwddiff, ..., with any suffix the caller gives it).
bool isEnzymeEntryPoint(llvm::StringRef Name);

/// Whether \p M already calls __enzyme_fwddiff / __enzyme_autodiff (or another
/// Enzyme entry point), i.e. it brings its own wrappers.
bool hasEnzymeCalls(const llvm::Module &M);

/// The prefixes of the globals that register a function's rules in a
/// module (Enzyme's preserve-nvvm step reads them): [fn, forward rule] and
/// [fn, augmented primal, gradient].
inline constexpr const char *RegisterDerivativePrefix =
    "__enzyme_register_derivative_";
inline constexpr const char *RegisterGradientPrefix =
    "__enzyme_register_gradient_";

/// Whether \p G registers a function's rules (is named with one of the
/// prefixes above).
bool isRuleRegistration(const llvm::GlobalVariable &G);

/// Whether \p M registers rules for Enzyme (has a rule registration):
/// Enzyme then runs preserve-nvvm first.
bool registersEnzymeRules(const llvm::Module &M);

/// "NAME.fwd" / "NAME.rev".
std::string wrapperName(llvm::StringRef FnName, DiffMode Mode);

/// "NAME.primal": the internal copy of NAME a generated wrapper differentiates.
std::string primalCopyName(llvm::StringRef FnName);

/// NAME when \p Name is the copy "NAME.primal" of a function \p M defines,
/// else \p Name: what messages should call the function.
std::string userFacingName(const llvm::Module &M, llvm::StringRef Name);

} // namespace irs

#endif
