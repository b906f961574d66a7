//===- SharedTileForwarding.h - Tiles read from their source ----*- C++ -*-===//
//
// A tiled kernel copies a tile of a global array into shared memory, waits
// at a barrier, and reads the tile many times (the classic tiled matmul:
// As[ty, tx] = A[row, t*32 + ty], then acc += As[tx, k] * Bs[k, ty] for 32
// k). Every step overwrites the tile, so Enzyme must keep each value it read
// for the reverse pass: it caches them in device malloc, one slot per
// iteration and thread (the reverse of a 1024x1024 tiled matmul ran 2,400
// times slower than the primal on an H100). Where the tile is a copy of
// memory the function never writes, each read of it can read the global
// element instead, which Enzyme reloads in the reverse pass rather than
// caching. This pass does that rewrite:
//
//   store (load Src[q(tid)]), Tile[p(tid)]   ; the one store of a phase
//   barrier                                  ; B
//   ... x = load Tile[o] ...                 ; no barrier, no store between
// becomes
//   x = load Src[q(tid')], tid' the thread with p(tid') = o
//
// p must be c + a_x*tid.x + a_y*tid.y + a_z*tid.z in bytes, c the same for
// all threads and each a dividing the next larger one (a row-major tile,
// padded or not), so tid' is o - c decoded digit by digit (a division and a
// remainder per dimension, shifts for powers of two); q's computation is
// repeated with tid' in place of tid. A dimension p does not use keeps the
// reader's own index. The conditions, each checked:
//   - every write in the function that may reach the tile is a simple store
//     of a simple load of the same type, and nothing in the function may
//     write what that load reads (alias analysis: the noalias copy that
//     ir-sanitize-noalias-version makes, whose arrays are apart);
//   - every path to the read comes from the same block-wide barrier B
//     without another barrier or tile store, and the store is the last tile
//     store before B in B's block, alone in its phase;
//   - no tile store is reachable from the read before the next barrier (no
//     read-after-overwrite: a kernel that has one races).
// A block whose shape p does not cover reads elements no thread wrote, which
// the primal leaves undefined as well. Where nothing in the function reads a
// tile any more and the function is a kernel or only differentiated by
// Enzyme (nothing after it can read the block's shared memory), the tile's
// stores go too.
//
// opt: -passes='function(ir-sanitize-forward-shared-tiles)'
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_SHAREDTILEFORWARDING_H
#define IR_SANITIZE_TRANSFORMS_SHAREDTILEFORWARDING_H

#include "ir-sanitize/Transforms/PassCounters.h"

#include "llvm/IR/PassManager.h"

namespace irs {

/// The counters of the pass (Transforms/PassCounters.h).
#define IRS_SHARED_TILE_FORWARDING_COUNTERS(X)                                 \
  X(Forwarded, NumForwarded, "forwarded_tile_reads",                           \
    "Shared-memory reads replaced by a read of the element the tile copied")   \
  X(Kept, NumKept, "kept_tile_reads",                                          \
    "Shared-memory reads left: what they read could not be traced")            \
  X(StoresErased, NumStoresErased, "erased_tile_stores",                       \
    "Tile stores erased: nothing reads the tile any more")

struct SharedTileForwardingStats {
  IRS_SHARED_TILE_FORWARDING_COUNTERS(IRS_COUNTER_FIELD)

  SharedTileForwardingStats &operator+=(const SharedTileForwardingStats &O) {
    IRS_SHARED_TILE_FORWARDING_COUNTERS(IRS_COUNTER_ADD)
    return *this;
  }
};

/// Adds what it did to the run's SharedTileForwardingStats
/// (Transforms/PassResults.h) and its STATISTICs.
class SharedTileForwardingPass
    : public llvm::PassInfoMixin<SharedTileForwardingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace irs

#endif
