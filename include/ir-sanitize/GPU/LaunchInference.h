//===- LaunchInference.h - A launch read from the kernel itself -*- C++ -*-===//
//
// gpu-check without a hand-written spec: the launch spec (LaunchSpec.h) for
// a kernel as Julia emitted it, from the element counts the user gives
// (--dims) and what the kernel's parameters hold (Analysis/KernelLayout.h).
//
//   arrays      one buffer each, of --dims elements of the type the kernel
//               loads and stores (a 1-D argument of a 2-D broadcast: the
//               leading dims); data, maxsize, dims and len consistent
//   broadcasts  every keep true, every default 1, the axes the dims
//   KA          ndrange = dims, blocks and workgroup size to cover them
//   launch      threads = all elements; a grid and blocks where the kernel
//               reads y/z thread indices, or for KernelAbstractions
//   activity    read-only float arrays wrt, written arrays outputs
//   scalars     integers 1, floats 0.5, 1.0, 1.5, ... in leaf order
//
// --wrt and --set name leaves by Julia parameter name, parameter index, leaf
// path ("2.0.1", any prefix of the array's leaves), or all/none. What cannot
// be inferred without risking an out-of-bounds access is refused (BadInput),
// one line naming the leaf and the flag that sets it. The spec then goes
// through LaunchSpec::fromJSON, so an inferred launch obeys every rule a
// written one does.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_LAUNCHINFERENCE_H
#define IR_SANITIZE_GPU_LAUNCHINFERENCE_H

#include "ir-sanitize/GPU/LaunchSpec.h"

#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace irs {

/// The user's part of an inferred launch (gpu-check's flags).
struct LaunchRequest {
  std::vector<uint64_t> Dims; ///< --dims; must not be empty.
  /// --wrt selectors (repeatable, comma-separated); nothing: the default.
  std::optional<std::vector<std::string>> Wrt;
  std::vector<std::string> Sets; ///< --set NAME=VALUE, in order.
};

/// "1024x1024": 1 to \p MaxSizes sizes (3 for a launch, an array's rank
/// for its own shape), or a usage error naming the flag.
llvm::Expected<std::vector<uint64_t>>
parseDims(llvm::StringRef Text, llvm::StringRef Flag, size_t MaxSizes = 3);

/// One row of --print-launch's table.
struct LaunchRow {
  std::string Leaf, Name, Kind, Type, Value, Activity;
};

struct InferredLaunch {
  LaunchSpec Spec;
  std::vector<LaunchRow> Rows;
  std::vector<std::string> Notes; ///< Choices the user may want to know.
  /// --print-launch: the launch, the buffers, then one row per leaf.
  void print(llvm::raw_ostream &OS) const;
};

/// The launch for \p Kernel (a copy optimised enough that its accesses are
/// visible: inlined, SROA'd). Errors name \p InputName: usage errors for bad
/// flags, BadInput for what cannot be inferred safely.
llvm::Expected<InferredLaunch> inferLaunch(const llvm::Function &Kernel,
                                           const LaunchRequest &Request,
                                           llvm::StringRef InputName);

} // namespace irs

#endif
