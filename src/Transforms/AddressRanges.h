//===- AddressRanges.h - Run-time tests of address ranges -------*- C++ -*-===//
//
// Shared by the passes that version code on addresses known only at run
// time (StoreSinkVersioning: two accesses; NoAliasVersioning: the arrays of
// an Enzyme call).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_ADDRESSRANGES_H
#define IR_SANITIZE_TRANSFORMS_ADDRESSRANGES_H

#include "llvm/IR/IRBuilder.h"

namespace irs {

/// Whether the integer ranges [\p AStart, \p AEnd) and [\p BStart, \p BEnd)
/// do not overlap: one ends where or before the other starts. Two
/// statements, so that the instructions' order does not depend on the
/// compiler's order of evaluating arguments.
inline llvm::Value *rangesApart(llvm::IRBuilderBase &B, llvm::Value *AStart,
                                llvm::Value *AEnd, llvm::Value *BStart,
                                llvm::Value *BEnd) {
  llvm::Value *AFirst = B.CreateICmpULE(AEnd, BStart);
  llvm::Value *BFirst = B.CreateICmpULE(BEnd, AStart);
  return B.CreateOr(AFirst, BFirst);
}

} // namespace irs

#endif
