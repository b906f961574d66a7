//===- LaunchSpec.h - How gpu-check launches a kernel -----------*- C++ -*-===//
//
// The launch spec (JSON) names the launch geometry, the device buffers and
// the value of every kernel argument leaf. The same spec drives the original
// kernel (its aggregate arguments are packed from the leaves) and the
// splatted one (one parameter per leaf).
//
// { "threads": N                      or "grid": [x,y,z], "block": [x,y,z]
//   "buffers": [ { "name": NAME, "type": "f32"|"f64"|"i32"|"i64"|"u8",
//                  "count": N,
//                  "init": "zero"|"random"|"range"|"range1"|"ones"|"segments",
//                  "seed": S, "output": bool, "wrt": bool } ],
//              (the plan's shape; the earlier { NAME: {...} } is read too)
//   "args": { "2.0.1.0.0": "buffer:NAME" | INTEGER | FLOAT },
//   "checks": "all" | "primal",                       (default "all")
//   "fd_step": H, "tolerance": { "forward": F, "reverse": R } }   (optional)
//
// The keys are the run plan's (Launch/RunPlanSchema.h: plan::SpecKeys).
// Sizes and counts are range-checked against the run plan's limits
// (Launch/RunPlanSchema.h): grid and block within CUDA's, all buffers
// together at most plan::MaxTotalBufferBytes. An integer argument must be a
// JSON integer in the leaf's range; a float argument must be finite.
// Leaves not listed in "args" are zero. Pointer leaves bound to `wrt` or
// `output` buffers are differentiated (enzyme_dup); everything else is const.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_LAUNCHSPEC_H
#define IR_SANITIZE_GPU_LAUNCHSPEC_H

#include "ir-sanitize/Launch/LaunchModel.h"
#include "ir-sanitize/Launch/RunPlanSchema.h"
#include "ir-sanitize/Support/LaunchManifest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irs {

/// A buffer of the spec: the launch model's (Launch/LaunchModel.h).
using BufferSpec = LaunchBuffer;

/// The value of one argument leaf.
struct LeafValue {
  enum Kind { Buffer, Integer, Float } K = Integer;
  std::string BufferName; ///< For Buffer.
  int64_t Int = 0;        ///< For Integer.
  double Real = 0;        ///< For Float.
};

/// The launch (geometry, buffers sorted by name, checks: the plan's launch
/// part) and the values of the argument leaves.
struct LaunchSpec : KernelLaunch {
  /// Sorted by path, as Buffers by name (sortByName): find* search them so.
  std::vector<std::pair<std::string, LeafValue>> Args;
  std::optional<double> FdStep;
  std::optional<double> ForwardTolerance, ReverseTolerance;

  const BufferSpec *findBuffer(llvm::StringRef Name) const;
  const LeafValue *findArg(llvm::StringRef Path) const;
  /// Buffers by name and args by path, as the spec keeps them.
  void sortByName();

  /// Errors are ToolErrors (BadInput) that start with \p File.
  static llvm::Expected<LaunchSpec> fromJSON(const llvm::json::Value &V,
                                             llvm::StringRef File);
  static llvm::Expected<LaunchSpec> readFile(llvm::StringRef Path);
  /// The spec in the form fromJSON reads (what --write-spec and the plan
  /// directory's spec.json hold).
  llvm::json::Value toJSON() const;
  /// toJSON() indented, then a newline.
  void printFile(llvm::raw_ostream &OS) const;
};

/// The rules of the launch itself, whoever made the spec (a file, the
/// inference): a launch CUDA can run, at least one buffer, positive counts,
/// all buffers within plan::MaxTotalBufferBytes, finite numbers. Errors are
/// BadInput ToolErrors that start with \p File.
llvm::Error checkLaunchSpec(const LaunchSpec &Spec, llvm::StringRef File);

/// A leaf value as "args" holds it: "buffer:NAME", an integer or a number.
llvm::json::Value toJSON(const LeafValue &V);

/// The step and tolerances the checks use: the spec's, or the defaults
/// (defaultCheckSettings) for the narrowest float type among the `wrt`
/// buffers.
CheckSettings checkSettings(const LaunchSpec &Spec);

/// Rejects a spec that does not fit \p Kernel: unknown leaf paths, values of
/// the wrong kind for their leaf, unknown or unbound buffers, buffers smaller
/// than the array extents the leaves declare. Errors start with \p File.
llvm::Error validateSpec(const LaunchSpec &Spec, const KernelManifest &Kernel,
                         llvm::StringRef File);

/// What a manifest leaf holds, from its printed LLVM type and size.
enum class LeafKind { Pointer, Integer, Float, Unsupported };
LeafKind leafKind(const ManifestParam &P);

/// The buffer the splatted parameter \p P is bound to (an address, whatever
/// its activity), or null.
const BufferSpec *boundBuffer(const LaunchSpec &Spec, const ManifestParam &P);

/// Whether the splatted parameter \p P is differentiated (enzyme_dup): a
/// pointer-sized leaf bound to an `output` or `wrt` buffer.
bool isDupLeaf(const LaunchSpec &Spec, const ManifestParam &P);

/// Whether \p P is bound to an `output` buffer that is not `wrt`: a result
/// whose primal value a gradient-only launch does not need.
bool isOutputOnlyLeaf(const LaunchSpec &Spec, const ManifestParam &P);

} // namespace irs

#endif
