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
// Records and markers are untrusted input (any tool or person may have
// written them): every record is decoded and checked before the IR changes
// (key, entry shape, tags, positions, operand kinds, marker signature, uses
// and identity), the restored calls of a function must pass the verifier or
// their bundles count as lost, and no instruction that has uses or that a
// record still names is erased. A bundle that cannot be restored is lost
// (counted, with a reason), never invented, and never a crash.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_UTILS_BUNDLESTASH_H
#define IR_SANITIZE_TRANSFORMS_UTILS_BUNDLESTASH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <string>
#include <vector>

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

/// Why \p B cannot be stashed from \p CB ("" when it can): a token operand,
/// or a function-local operand while the marker's name is taken by another
/// symbol or declaration.
std::string whyCannotStash(const llvm::CallBase &CB,
                           const llvm::OperandBundleUse &B);

/// Hands out record keys not yet used in a module.
class StashKeyAllocator {
public:
  explicit StashKeyAllocator(llvm::Module &M);
  uint64_t next() { return Next++; }

private:
  uint64_t Next = 1;
};

/// Records \p Bundles on \p CB (which no longer carries them), inserting the
/// marker call before \p CB when an operand is function-local (callers check
/// whyCannotStash first). A non-zero
/// \p ReuseKey (the key of a record just restored from this call) keeps
/// re-stashing the same bundles idempotent.
void recordStashedBundles(llvm::CallBase &CB,
                          llvm::ArrayRef<StashedBundle> Bundles,
                          StashKeyAllocator &Keys, uint64_t ReuseKey = 0);

/// Whether \p CB carries a stash record.
bool hasStashRecord(const llvm::CallBase &CB);

/// A recorded bundle that could not be restored.
struct LostBundle {
  std::string Tag; ///< "" when the record did not say.
  std::string Why;
};

struct RestoreOutcome {
  llvm::CallBase *Call = nullptr; ///< The call now in place of the old one.
  unsigned Restored = 0;          ///< Bundles put back.
  std::vector<LostBundle> Lost;   ///< Bundles that could not be put back.
  uint64_t Key = 0;               ///< The record's key.
};

/// Re-attaches the bundles recorded on \p Calls (calls in \p F carrying a
/// record) at their original positions, removes their records and the
/// markers no record names any more. Every record is checked before the IR
/// changes; a bundle whose record is damaged, whose marker is gone or
/// forged, or whose return would make \p F fail the verifier is lost.
/// Returns one outcome per call, in order.
std::vector<RestoreOutcome>
restoreStashedBundles(llvm::Function &F,
                      llvm::ArrayRef<llvm::CallBase *> Calls);

/// The same for one call.
RestoreOutcome restoreStashedBundles(llvm::CallBase &CB);

/// Erases marker calls left without a record (e.g. their call was deleted)
/// and without uses, and the marker declaration once unused. Returns how
/// many were erased.
unsigned eraseStashMarkers(llvm::Module &M);

/// Replaces \p CB by an identical call or invoke carrying \p Bundles instead
/// of its own (same callee, arguments, attributes, metadata, name, uses).
llvm::CallBase *
replaceOperandBundles(llvm::CallBase &CB,
                      llvm::ArrayRef<llvm::OperandBundleDef> Bundles);

} // namespace irs

#endif
