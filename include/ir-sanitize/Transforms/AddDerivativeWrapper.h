//===- AddDerivativeWrapper.h - An Enzyme wrapper as a pass ----*- C++ -*-===//
// C++ -*-===//
//
// `opt -passes='ir-sanitize-derivative-wrapper<fn=NAME;mode=forward|reverse;
// activity=A.A...>'`: adds the function NAME.fwd / NAME.rev that calls
// Enzyme on NAME with one activity per parameter (const, dup, dupnoneed,
// out; '.'-separated), as Enzyme/DerivativeWrapper's generateDerivativeWrapper
// does; the last step gpu-check takes before it hands a module to Enzyme.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ADDDERIVATIVEWRAPPER_H
#define IR_SANITIZE_TRANSFORMS_ADDDERIVATIVEWRAPPER_H

#include "ir-sanitize/Enzyme/DerivativeWrapper.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

/// Where an AddDerivativeWrapperPass the tool runs hands back what it did; each
/// may be null (opt: a failure is reported to the LLVMContext).
struct DerivativeWrapperSinks {
  std::vector<DerivativeWrapper> *Wrappers = nullptr; ///< Each wrapper added.
  /// Set to generateDerivativeWrapper's error (ExitCode::Usage) instead of
  /// reporting it to the LLVMContext; the caller must check it.
  llvm::Error *Failure = nullptr;
};

class AddDerivativeWrapperPass
    : public llvm::PassInfoMixin<AddDerivativeWrapperPass> {
public:
  AddDerivativeWrapperPass(std::string Fn, DiffMode Mode,
                           ActivityMap Activities,
                           DerivativeWrapperSinks Sinks = {})
      : Fn(std::move(Fn)), Mode(Mode), Activities(std::move(Activities)),
        Sinks(Sinks) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::string Fn;
  DiffMode Mode;
  ActivityMap Activities;
  DerivativeWrapperSinks Sinks;
};

} // namespace irs

#endif
