//===- ArgumentPacking.h - Kernel argument bytes for a launch ---*- C++ -*-===//
//
// cuLaunchKernel takes one pointer per kernel parameter, pointing at that
// argument's bytes in the C layout (docs/KernelSplat.md, the manifest). These
// functions lay out those bytes from a launch spec: for the original kernel by
// writing each leaf at its manifest offset inside its aggregate, for the
// splatted kernel as slices of the original arguments (new_params[k] = orig[i]
// + offset), and for a derivative wrapper with a shadow after every
// differentiated leaf. Buffer addresses are not known until the runner
// allocates them, so they are relocations: "write buffer B's device address at
// this offset". The images and relocations are the run plan's types
// (Launch/RunPlan.h).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPU_ARGUMENTPACKING_H
#define IR_SANITIZE_GPU_ARGUMENTPACKING_H

#include "ir-sanitize/GPU/LaunchSpec.h"
#include "ir-sanitize/Launch/RunPlan.h"
#include "ir-sanitize/Support/LaunchManifest.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irs {

/// One image per original parameter, OriginalParams[i].Size bytes each.
/// The spec must have passed validateSpec against \p K.
std::vector<ParamImage> packOriginalArgs(const KernelManifest &K,
                                         const LaunchSpec &Spec);

/// One image per splatted parameter: the bytes of its leaf inside the
/// original argument images \p Original.
std::vector<ParamImage> sliceSplatArgs(const KernelManifest &K,
                                       llvm::ArrayRef<ParamImage> Original);

/// Where a derivative wrapper's parameter comes from (the wrapper pass's
/// WrapperParam, restated so this library stays independent).
struct WrapperArg {
  unsigned PrimalIndex = 0;
  bool IsShadow = false;
};

/// A wrapper's images: the splatted parameter's, with its relocations
/// turned into shadow relocations for a shadow parameter.
std::vector<ParamImage> wrapperArgs(llvm::ArrayRef<ParamImage> Splat,
                                    llvm::ArrayRef<WrapperArg> Params);

} // namespace irs

#endif
