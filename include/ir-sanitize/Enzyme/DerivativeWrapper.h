//===- DerivativeWrapper.h - Enzyme derivative wrappers ---------*- C++ -*-===//
//
// For `--fn NAME --mode=forward|reverse`: adds a function NAME.fwd / NAME.rev
// whose parameters are NAME's, each active one followed by its shadow, and
// which calls __enzyme_fwddiff / __enzyme_autodiff on an internal copy of
// NAME with one `metadata !"enzyme_*"` marker per parameter. For a GPU kernel
// the wrapper is itself a kernel: same calling convention, attributes and
// !nvvm.annotations entries; the copy is a plain internal function, so Enzyme
// differentiates an ordinary callee.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_DERIVATIVEWRAPPER_H
#define IR_SANITIZE_ENZYME_DERIVATIVEWRAPPER_H

#include "ir-sanitize/Enzyme/ActivitySpec.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

/// Whether \p M already calls __enzyme_fwddiff / __enzyme_autodiff (or another
/// Enzyme entry point), i.e. it brings its own wrappers.
bool hasEnzymeCalls(const llvm::Module &M);

/// "NAME.fwd" / "NAME.rev".
std::string wrapperName(llvm::StringRef FnName, DiffMode Mode);

/// "NAME.primal": the internal copy of NAME a generated wrapper differentiates.
std::string primalCopyName(llvm::StringRef FnName);

/// NAME when \p Name is the copy "NAME.primal" of a function \p M defines,
/// else \p Name: what messages should call the function.
std::string userFacingName(const llvm::Module &M, llvm::StringRef Name);

/// Where each parameter of a generated wrapper comes from.
struct WrapperParam {
  unsigned PrimalIndex = 0; ///< Parameter of the differentiated function.
  bool IsShadow = false;    ///< Its shadow rather than the primal value.
};

struct DerivativeWrapper {
  llvm::Function *Wrapper = nullptr; ///< NAME.fwd / NAME.rev.
  llvm::Function *Primal = nullptr;  ///< The internal copy Enzyme sees.
  DiffMode Mode = DiffMode::Forward;
  ActivityMap Activities;           ///< One per parameter of NAME.
  std::vector<WrapperParam> Params; ///< One per parameter of Wrapper.
};

/// Adds the wrapper for \p Fn to \p M. Errors: \p Fn is a declaration, the
/// activity map does not fit, the wrapper name is taken (ExitCode::Usage).
llvm::Expected<DerivativeWrapper>
generateDerivativeWrapper(llvm::Module &M, llvm::Function &Fn, DiffMode Mode,
                          const ActivityMap &Activities);

} // namespace irs

#endif
