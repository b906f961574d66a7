//===- IntegerPointerArguments.h - Array addresses as pointers --*- C++ -*-===//
//
// CUDAnative passed array addresses as i64 and inttoptr'd them. Enzyme types
// integer arguments of the function it differentiates as integers and then
// refuses the inttoptr, so before Enzyme gpu-check gives the kernel those
// arguments (the ones it differentiates) as pointers, the same 8 bytes, and
// converts back at entry. The function is replaced by one of the new type
// under the same name; its `!nvvm.annotations` entries go (the kernel calling
// convention stays).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_INTEGERPOINTERARGUMENTS_H
#define IR_SANITIZE_TRANSFORMS_INTEGERPOINTERARGUMENTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace irs {

/// `opt -passes='ir-sanitize-integer-pointer-args<kernel=NAME;arg=N;...>'`.
class IntegerPointerArgumentsPass
    : public llvm::PassInfoMixin<IntegerPointerArgumentsPass> {
public:
  IntegerPointerArgumentsPass(std::string Kernel, std::vector<unsigned> Args)
      : Kernel(std::move(Kernel)), Args(std::move(Args)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);
  static bool isRequired() { return true; }

private:
  std::string Kernel;
  std::vector<unsigned> Args;
};

} // namespace irs

#endif
