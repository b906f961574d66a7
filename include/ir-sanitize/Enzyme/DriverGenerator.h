//===- DriverGenerator.h - Generating Enzyme derivative drivers -*- C++ -*-===//
//
// For `--fn NAME --mode=forward|reverse`: adds a function NAME.fwd / NAME.rev
// whose parameters are NAME's, each active one followed by its shadow, and
// which calls __enzyme_fwddiff / __enzyme_autodiff on an internal copy of
// NAME with one `metadata !"enzyme_*"` marker per parameter. For a GPU kernel
// the driver is itself a kernel: same calling convention, attributes and
// !nvvm.annotations entries; the copy is a plain internal function, so Enzyme
// differentiates an ordinary callee.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_DRIVERGENERATOR_H
#define IR_SANITIZE_ENZYME_DRIVERGENERATOR_H

#include "ir-sanitize/Enzyme/ActivitySpec.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

/// Whether \p M already calls __enzyme_fwddiff / __enzyme_autodiff (or another
/// Enzyme entry point), i.e. it brings its own drivers.
bool hasEnzymeCalls(const llvm::Module &M);

/// "NAME.fwd" / "NAME.rev".
std::string driverName(llvm::StringRef FnName, DiffMode Mode);

/// "NAME.primal": the internal copy of NAME a generated driver differentiates.
std::string primalCopyName(llvm::StringRef FnName);

/// NAME when \p Name is the copy "NAME.primal" of a function \p M defines,
/// else \p Name: what messages should call the function.
std::string userFacingName(const llvm::Module &M, llvm::StringRef Name);

/// Where each parameter of a generated driver comes from.
struct DriverParam {
  unsigned PrimalIndex = 0; ///< Parameter of the differentiated function.
  bool IsShadow = false;    ///< Its shadow rather than the primal value.
};

struct GeneratedDriver {
  llvm::Function *Driver = nullptr; ///< NAME.fwd / NAME.rev.
  llvm::Function *Primal = nullptr; ///< The internal copy Enzyme sees.
  DiffMode Mode = DiffMode::Forward;
  ActivityMap Activities;          ///< One per parameter of NAME.
  std::vector<DriverParam> Params; ///< One per parameter of Driver.
};

/// Adds the driver for \p Fn to \p M. Errors: \p Fn is a declaration, the
/// activity map does not fit, the driver name is taken (ExitCode::Usage).
llvm::Expected<GeneratedDriver> generateDriver(llvm::Module &M,
                                               llvm::Function &Fn,
                                               DiffMode Mode,
                                               const ActivityMap &Activities);

} // namespace irs

#endif
