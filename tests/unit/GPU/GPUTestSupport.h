//===- GPUTestSupport.h - Fixtures for the GPU unit tests -------*- C++ -*-===//
//
// The GPU tests need a kernel's manifest without depending on the splat pass
// (tested on its own): this builds one from the kernel's parameter types with
// the same leaf enumeration the splat uses.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_GPUTESTSUPPORT_H
#define IR_SANITIZE_TESTS_GPUTESTSUPPORT_H

#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/ModuleReader.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"
#include "TestPaths.h"

#include <cstring>
#include <string>

namespace irs::test {

inline std::string printType(llvm::Type *Ty) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Ty->print(OS);
  return S;
}

/// The manifest a full splat of \p F would produce.
inline KernelManifest manifestFor(const llvm::Function &F) {
  const llvm::DataLayout &DL = F.getParent()->getDataLayout();
  KernelManifest K;
  K.Name = F.getName().str();
  for (const llvm::Argument &A : F.args()) {
    llvm::Type *Ty = A.getType();
    K.OriginalParams.push_back({A.getArgNo(), printType(Ty),
                                DL.getTypeAllocSize(Ty).getFixedValue(),
                                isAggregateType(Ty) ? "value" : "scalar"});
    llvm::SmallVector<AggregateLeaf> Leaves;
    collectLeaves(Ty, DL, Leaves);
    for (const AggregateLeaf &L : Leaves) {
      ManifestParam P;
      P.Index = K.Params.size();
      P.Type = printType(L.Ty);
      P.OrigIndex = A.getArgNo();
      P.Path.assign(L.Path.begin(), L.Path.end());
      P.Offset = L.Offset;
      P.Size = L.Size;
      P.Pointer = L.Ty->isPointerTy();
      P.AddrSpace = P.Pointer ? L.Ty->getPointerAddressSpace() : 0;
      K.Params.push_back(P);
    }
  }
  return K;
}

/// "" for success, else the error's message (Catch cannot test an Error).
inline std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : "";
}

inline std::string examplePath(llvm::StringRef Name) {
  return sourcePath("examples/" + Name.str());
}

inline std::unique_ptr<llvm::Module> loadExample(llvm::StringRef Name,
                                                 llvm::LLVMContext &Ctx) {
  auto L = readModule(examplePath(Name), Ctx);
  if (!L) {
    FAIL(llvm::toString(L.takeError()));
  }
  return std::move(L->M);
}

} // namespace irs::test

#endif
