//===- BundleStash.h - Recording removed bundles for `restore` --*- C++ -*-===//
//
// A stashed bundle must come back exactly, operands included. Metadata
// attached to an instruction cannot refer to function-local values
// (LocalAsMetadata is valid only as a direct call argument), so a record has
// two parts:
//
//  * on the call, `!irs.stashed_bundles !{i64 KEY, !B1, !B2, ...}` with one
//    `!Bi = !{!"TAG", i32 POSITION, OP...}` per stashed bundle, POSITION being
//    its index in the call's original bundle list. A constant operand is
//    stored inline (ConstantAsMetadata); a function-local one as `!{i32 K}`,
//    the K-th argument of the marker call below;
//  * only when some operand is function-local, immediately before the call,
//    `call void (i64, ...) @ir_sanitize.stashed_bundle_operands(i64 KEY, ...)`
//    holding those values. The declaration is `"enzyme_inactive"`, nofree and
//    touches only inaccessible memory, so Enzyme and the optimiser keep it as
//    an inert side effect, and it keeps the values alive.
//
// Cloning a call copies its metadata; cloning a function or inlining copies
// the marker with it, so the pair survives as far as both are carried along.
// restore finds the marker by KEY walking back from the call in its block,
// then anywhere in the function where a unique dominating one exists. KEY is
// unique in the module when stashed (copies share it; the search
// disambiguates). Operand bundles with a token operand cannot be passed to a
// call and are never stashed.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_UTILS_BUNDLESTASH_H
#define IR_SANITIZE_TRANSFORMS_UTILS_BUNDLESTASH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <cstdint>

namespace irs {

inline constexpr llvm::StringLiteral StashMetadataKind = "irs.stashed_bundles";
inline constexpr llvm::StringLiteral StashOperandsFunction =
    "ir_sanitize.stashed_bundle_operands";

/// A bundle removed from a call, with its index in the original bundle list.
struct StashedBundle {
  unsigned Position;
  llvm::OperandBundleDef Def;
};

/// Whether \p B can be stashed (token-typed operands cannot).
bool canStash(const llvm::OperandBundleUse &B);

/// Hands out record keys not yet used in a module.
class StashKeyAllocator {
public:
  explicit StashKeyAllocator(llvm::Module &M);
  uint64_t next() { return Next++; }

private:
  uint64_t Next = 1;
};

/// Records \p Bundles on \p CB (which no longer carries them), inserting the
/// marker call before \p CB when an operand is function-local. A non-zero
/// \p ReuseKey (the key of a record just restored from this call) keeps
/// re-stashing the same bundles idempotent.
void recordStashedBundles(llvm::CallBase &CB,
                          llvm::ArrayRef<StashedBundle> Bundles,
                          StashKeyAllocator &Keys, uint64_t ReuseKey = 0);

/// Whether \p CB carries a stash record.
bool hasStashRecord(const llvm::CallBase &CB);

struct RestoreOutcome {
  llvm::CallBase *Call = nullptr; ///< The call now in place of the old one.
  unsigned Restored = 0;          ///< Bundles put back.
  unsigned Lost = 0; ///< Bundles whose operand marker could not be found.
  uint64_t Key = 0;  ///< The record's key.
};

/// Re-attaches the bundles recorded on \p CB at their original positions and
/// removes the record and its marker. A bundle whose record is damaged or
/// whose marker is gone is counted as lost and not re-attached.
RestoreOutcome restoreStashedBundles(llvm::CallBase &CB);

/// Erases marker calls left without a record (e.g. their call was deleted)
/// and the marker declaration once unused. Returns how many were erased.
unsigned eraseStashMarkers(llvm::Module &M);

/// Replaces \p CB by an identical call or invoke carrying \p Bundles instead
/// of its own (same callee, arguments, attributes, metadata, name, uses).
llvm::CallBase *
replaceOperandBundles(llvm::CallBase &CB,
                      llvm::ArrayRef<llvm::OperandBundleDef> Bundles);

} // namespace irs

#endif
