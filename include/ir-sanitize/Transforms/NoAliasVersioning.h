//===- NoAliasVersioning.h - A noalias copy, when disjoint ------*- C++ -*-===//
//
// Enzyme caches in its reverse pass every value it cannot prove unchanged
// since the primal computed it. Inside a loop that means device-side malloc
// per thread and trip, growing as it goes (Enzyme #2871: the malloc is never
// checked, an illegal address with CUDA's 8 MiB heap; #3219: the cache is
// never freed as it grows): the reverse kernel of a 1024-term matmul ran at
// 680x the primal. What forces the cache is memory Enzyme must assume the
// kernel may overwrite: a loaded A[i,k] could be the C[i,j] it later stores,
// unless the arrays are known apart. Given `noalias` on its array parameters
// Enzyme (both snapshots) loads the values again in the reverse pass and the
// mallocs go (measured: the matmul's eight, sum(abs2, x)'s x cache).
//
// This pass gives that knowledge where the launch makes it true, as LLVM's
// loop versioning does: in the function \p Fn (a derivative wrapper, NAME.rev),
// each call of an __enzyme_* entry point on an internal function F becomes
//
//   %disjoint = every two of [p, p + extent(p)) are apart   ; arguments only
//   br %disjoint, label %noalias, label %plain
//   noalias: __enzyme_autodiff(F.noalias, same arguments)  ; F's array
//                                                           ; parameters
//                                                           noalias
//   plain:   __enzyme_autodiff(F, same arguments)
//
// over every listed array parameter p and its shadow (Enzyme gives a shadow
// the attributes of its primal). `extent=P:E` names parameter P of F, a
// pointer, and E, an integer parameter holding how many bytes it may reach
// (a CuDeviceArray's maxsize). The copy is made only where every other
// pointer parameter F may access is none at all (noalias says nothing about
// memory reached through another argument); where one is, nothing changes
// (a missed remark), as where F has no loop (Enzyme then keeps what it needs
// in registers; a copy would only double the code). The test costs some
// comparisons of kernel arguments per thread; Enzyme differentiates both
// copies.
//
// Why this is sound: noalias on an argument promises that, during the call,
// memory accessed through it is not accessed through pointers not based on
// it. The version is taken only where every listed primal and shadow range is
// disjoint from every other, and an access outside its own array's extent is
// out of bounds (undefined in the original already: gpu-check's bounds proof
// refuses such launches).
//
// opt: -passes='ir-sanitize-noalias-version<fn=K.rev;extent=2:3;extent=6:7>'
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_NOALIASVERSIONING_H
#define IR_SANITIZE_TRANSFORMS_NOALIASVERSIONING_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <utility>
#include <vector>

namespace irs {

/// A pointer parameter and the integer parameter holding its extent in
/// bytes.
using ParamExtent = std::pair<unsigned, unsigned>;

struct NoAliasVersionParams {
  std::string Fn;
  std::vector<ParamExtent> Extents;
};

class NoAliasVersioningPass
    : public llvm::PassInfoMixin<NoAliasVersioningPass> {
public:
  explicit NoAliasVersioningPass(NoAliasVersionParams P) : P(std::move(P)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  void printPipeline(llvm::raw_ostream &OS,
                     llvm::function_ref<llvm::StringRef(llvm::StringRef)>
                         MapClassName2PassName);

private:
  NoAliasVersionParams P;
};

/// The name of \p F's noalias copy.
std::string noAliasCopyName(llvm::StringRef F);

} // namespace irs

#endif
