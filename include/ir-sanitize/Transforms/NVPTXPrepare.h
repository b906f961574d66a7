//===- NVPTXPrepare.h - A module as NVPTX code generation wants it -*- C++ -*-//
//
// What gpu-check does to a module before the NVPTX pipeline, beyond linking
// libdevice: the kernels it names get names PTX can state (NVPTX would
// rename an entry with '.' in its name, and the run plan names entries),
// debug info goes (the checks do not need it, and old DI metadata, from
// LLVM 6 era CUDAnative dumps, trips NVPTX's DWARF emission), and Julia's
// per-function target-cpu/-features go (--gpu-arch decides).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_NVPTXPREPARE_H
#define IR_SANITIZE_TRANSFORMS_NVPTXPREPARE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace irs {

/// \p Name with every character other than letters, digits, '_' and '$'
/// made '_': a name a PTX entry can have.
std::string ptxSafeName(llvm::StringRef Name);

/// `opt -passes='ir-sanitize-nvptx-prepare<kernel=NAME;...>'`: renames each
/// kernel NAME the module defines to ptxSafeName(NAME), strips debug info
/// and drops per-function target-cpu and target-features.
class NVPTXPreparePass : public llvm::PassInfoMixin<NVPTXPreparePass> {
public:
  explicit NVPTXPreparePass(std::vector<std::string> Kernels = {})
      : Kernels(std::move(Kernels)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::vector<std::string> Kernels;
};

} // namespace irs

#endif
