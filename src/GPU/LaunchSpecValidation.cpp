//===- LaunchSpecValidation.cpp - Does a launch spec fit the kernel? ------===//
//
// Everything that can be known to be wrong before a launch is rejected here,
// so that a bad spec never reaches the device: a fault there reads as a
// failed check, not as the spec's mistake.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/GPU/LaunchSpec.h"

#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

namespace {

Error specError(StringRef File, const Twine &Msg) {
  return makeToolError(ExitCode::BadInput, File + ": " + Msg);
}

/// The full path of a leaf: original index, then the aggregate indices.
SmallVector<unsigned, 8> fullPath(const ManifestParam &P) {
  SmallVector<unsigned, 8> Path{P.OrigIndex};
  Path.append(P.Path.begin(), P.Path.end());
  return Path;
}

bool hasPrefix(ArrayRef<unsigned> Path, ArrayRef<unsigned> Prefix) {
  return Path.size() > Prefix.size() &&
         Path.take_front(Prefix.size()) == Prefix;
}

std::string knownPaths(const KernelManifest &K) {
  std::string S;
  for (const ManifestParam &P : K.Params)
    S += (S.empty() ? "" : ", ") + P.pathString();
  return S;
}

bool fitsInteger(int64_t V, uint64_t Size) {
  if (Size >= 8)
    return true;
  int64_t Bits = 8 * static_cast<int64_t>(Size);
  return V >= -(int64_t(1) << (Bits - 1)) && V < (int64_t(1) << Bits);
}

Error checkValueKind(const ManifestParam &P, const LeafValue &V,
                     const LaunchSpec &Spec, StringRef File) {
  std::string Where = "args: '" + P.pathString() + "' (" + P.Type + "): ";
  LeafKind K = leafKind(P);
  switch (V.K) {
  case LeafValue::Buffer:
    if (!Spec.findBuffer(V.BufferName))
      return specError(File, Where + "no buffer named '" + V.BufferName + "'");
    if (K == LeafKind::Pointer || (K == LeafKind::Integer && P.Size == 8))
      return Error::success();
    return specError(File, Where + "a buffer address needs a pointer leaf");
  case LeafValue::Integer:
    if (K == LeafKind::Float || (K == LeafKind::Pointer && V.Int == 0))
      return Error::success();
    if (K == LeafKind::Integer)
      return fitsInteger(V.Int, P.Size)
                 ? Error::success()
                 : specError(File, Where + std::to_string(V.Int) +
                                       " does not fit the leaf");
    return specError(File, Where + "an integer cannot initialise this leaf");
  case LeafValue::Float:
    if (K == LeafKind::Float)
      return Error::success();
    if (K == LeafKind::Integer)
      return specError(File, Where + formatv("{0}", json::Value(V.Real)) +
                                 " is not an integer the leaf can hold");
    return specError(File, Where + "a float value needs a float leaf");
  }
  return Error::success();
}

int64_t intValue(const LaunchSpec &Spec, const ManifestParam &P) {
  const LeafValue *V = Spec.findArg(P.pathString());
  return V && V->K == LeafValue::Integer ? V->Int : 0;
}

/// The array descriptor a buffer-bound leaf belongs to, and the element
/// counts it declares: the product of its dims (integer leaves two levels
/// below it) and, for CUDA.jl's CuDeviceArray { ptr, i64 maxsize,
/// [N x i64] dims, i64 len }, len and maxsize (bytes).
struct ArrayExtent {
  uint64_t Elements = 0; ///< 0: nothing declared.
  uint64_t MaxBytes = 0;
};

ArrayExtent extentOf(const ManifestParam &Ptr, const KernelManifest &K,
                     const LaunchSpec &Spec) {
  SmallVector<unsigned, 8> Desc = fullPath(Ptr);
  auto Siblings = [&](ArrayRef<unsigned> D) {
    return count_if(K.Params, [&](const ManifestParam &P) {
      return hasPrefix(fullPath(P), D);
    });
  };
  Desc.pop_back();
  // CUDAnative wrapped the pointer alone in a struct ({ [2 x i64], { i64 } }).
  if (Desc.size() > 1 && Siblings(Desc) == 1)
    Desc.pop_back();
  ArrayExtent E;
  if (Desc.empty())
    return E; // A whole parameter: nothing around it declares a size.
  uint64_t Dims = 1;
  bool HasDims = false;
  // The descriptor's child that holds the pointer holds no sizes.
  SmallVector<unsigned, 8> PtrPath = fullPath(Ptr);
  ArrayRef<unsigned> PtrBranch =
      ArrayRef<unsigned>(PtrPath).take_front(Desc.size() + 1);
  for (const ManifestParam &P : K.Params) {
    SmallVector<unsigned, 8> Path = fullPath(P);
    if (!hasPrefix(Path, Desc) || leafKind(P) != LeafKind::Integer ||
        ArrayRef<unsigned>(Path).take_front(Desc.size() + 1) == PtrBranch)
      continue;
    size_t Depth = Path.size() - Desc.size();
    int64_t V = std::max<int64_t>(intValue(Spec, P), 0);
    if (Depth == 2) {
      Dims *= static_cast<uint64_t>(V);
      HasDims = true;
    } else if (Depth == 1 && Path.back() == 3 && Ptr.Path.back() == 0) {
      E.Elements = std::max<uint64_t>(E.Elements, V); // len
    } else if (Depth == 1 && Path.back() == 1 && Ptr.Path.back() == 0) {
      E.MaxBytes = static_cast<uint64_t>(V); // maxsize
    }
  }
  if (HasDims)
    E.Elements = std::max(E.Elements, Dims);
  return E;
}

Error checkExtent(const ManifestParam &P, const BufferSpec &B,
                  const KernelManifest &K, const LaunchSpec &Spec,
                  StringRef File) {
  ArrayExtent E = extentOf(P, K, Spec);
  if (E.Elements > B.Count)
    return specError(File, "buffer '" + B.Name + "' has " +
                               std::to_string(B.Count) + " elements but leaf " +
                               P.pathString() + " declares an array of " +
                               std::to_string(E.Elements));
  if (E.MaxBytes > B.sizeInBytes())
    return specError(
        File, "buffer '" + B.Name + "' has " + std::to_string(B.sizeInBytes()) +
                  " bytes but leaf " + P.pathString() + " declares maxsize " +
                  std::to_string(E.MaxBytes));
  return Error::success();
}

Error checkDerivativeBuffers(const LaunchSpec &Spec, StringRef File) {
  bool HasWrt = false, HasOutput = false;
  for (const BufferSpec &B : Spec.Buffers) {
    if (B.differentiated() && !isFloatElement(B.Type))
      return specError(File, "buffer '" + B.Name +
                                 "': only f32/f64 buffers can be 'wrt' or "
                                 "'output' when checks are \"all\"");
    HasWrt |= B.Wrt;
    HasOutput |= B.Output;
  }
  if (!HasWrt || !HasOutput)
    return specError(File, "derivative checks need at least one 'wrt' and one "
                           "'output' buffer (or \"checks\": \"primal\")");
  return Error::success();
}

} // namespace

Error validateSpec(const LaunchSpec &Spec, const KernelManifest &Kernel,
                   StringRef File) {
  for (const auto &[Path, Value] : Spec.Args) {
    const ManifestParam *P = Kernel.findByPath(Path);
    if (!P)
      return specError(File, "args: unknown leaf path '" + Path + "'; kernel " +
                                 Kernel.Name + " has " + knownPaths(Kernel));
    if (Error E = checkValueKind(*P, Value, Spec, File))
      return E;
  }
  bool AnyOutput = false;
  for (const BufferSpec &B : Spec.Buffers) {
    bool Bound = false;
    for (const ManifestParam &P : Kernel.Params) {
      const LeafValue *V = Spec.findArg(P.pathString());
      if (!V || V->K != LeafValue::Buffer || V->BufferName != B.Name)
        continue;
      Bound = true;
      if (Error E = checkExtent(P, B, Kernel, Spec, File))
        return E;
    }
    if (!Bound)
      return specError(File, "buffer '" + B.Name +
                                 "' is not bound to any argument leaf");
    AnyOutput |= B.Output;
  }
  if (!AnyOutput)
    return specError(File, "no buffer is marked 'output': nothing to compare");
  return Spec.DerivativeChecks ? checkDerivativeBuffers(Spec, File)
                               : Error::success();
}

} // namespace irs
