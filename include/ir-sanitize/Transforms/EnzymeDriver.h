//===- EnzymeDriver.h - A derivative driver for Enzyme, as a pass -*- C++ -*-//
//
// `opt -passes='ir-sanitize-enzyme-driver<fn=NAME;mode=forward|reverse;
// activity=A.A...>'`: adds the function NAME.fwd / NAME.rev that calls
// Enzyme on NAME with one activity per parameter (const, dup, dupnoneed,
// out; '.'-separated), as Enzyme/DriverGenerator's generateDriver does; the
// last step gpu-check takes before it hands a module to Enzyme.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ENZYMEDRIVER_H
#define IR_SANITIZE_TRANSFORMS_ENZYMEDRIVER_H

#include "ir-sanitize/Enzyme/DriverGenerator.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace irs {

/// Where an EnzymeDriverPass the tool runs hands back what it did; each may
/// be null (opt: a failure is reported to the LLVMContext).
struct EnzymeDriverSinks {
  std::vector<GeneratedDriver> *Drivers = nullptr; ///< Each driver added.
  /// Set to generateDriver's error (ExitCode::Usage) instead of reporting
  /// it to the LLVMContext; the caller must check it.
  llvm::Error *Failure = nullptr;
};

class EnzymeDriverPass : public llvm::PassInfoMixin<EnzymeDriverPass> {
public:
  EnzymeDriverPass(std::string Fn, DiffMode Mode, ActivityMap Activities,
                   EnzymeDriverSinks Sinks = {})
      : Fn(std::move(Fn)), Mode(Mode), Activities(std::move(Activities)),
        Sinks(Sinks) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::string Fn;
  DiffMode Mode;
  ActivityMap Activities;
  EnzymeDriverSinks Sinks;
};

} // namespace irs

#endif
