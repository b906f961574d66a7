//===- AddDerivativeWrapper.h - An Enzyme wrapper as a pass -----*- C++ -*-===//
//
// `opt -passes='ir-sanitize-derivative-wrapper<fn=NAME;mode=forward|reverse;
// activity=A.A...>'`: adds a function NAME.fwd / NAME.rev whose parameters
// are NAME's, each active one followed by its shadow, and which calls
// __enzyme_fwddiff / __enzyme_autodiff on an internal copy of NAME with one
// `metadata !"enzyme_*"` marker per parameter (activities const, dup,
// dupnoneed, out; '.'-separated). For a GPU kernel the wrapper is itself a
// kernel: same calling convention, attributes and !nvvm.annotations
// entries; the copy is a plain internal function, so Enzyme differentiates
// an ordinary callee. The last step `enzyme --fn` and gpu-check take before
// they hand a module to Enzyme.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ADDDERIVATIVEWRAPPER_H
#define IR_SANITIZE_TRANSFORMS_ADDDERIVATIVEWRAPPER_H

#include "ir-sanitize/Analysis/ActivitySpec.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

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

/// Adds each wrapper it made to the run's std::vector<DerivativeWrapper>
/// (Transforms/PassResults.h); a function it cannot wrap is a failure of the
/// run (ExitCode::Usage), after which later wrappers are not added.
class AddDerivativeWrapperPass
    : public llvm::PassInfoMixin<AddDerivativeWrapperPass> {
public:
  AddDerivativeWrapperPass(std::string Fn, DiffMode Mode,
                           ActivityMap Activities)
      : Fn(std::move(Fn)), Mode(Mode), Activities(std::move(Activities)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  std::string Fn;
  DiffMode Mode;
  ActivityMap Activities;
};

} // namespace irs

#endif
