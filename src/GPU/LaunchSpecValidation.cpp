//===- LaunchSpecValidation.cpp - Does a launch spec fit the kernel? ------===//
//
// Everything that can be known to be wrong before a launch is rejected here,
// so that a bad spec never reaches the device: a fault there reads as a
// failed check, not as the spec's mistake.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/GPU/LaunchSpec.h"

#include "ir-sanitize/Support/ToolError.h"

#include "ir-sanitize/Analysis/KernelLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <vector>

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

/// The manifest indexed once, beside the spec's own sorted lookups, so that
/// validation is n log n in the leaves (it looked each up by a scan: cubic
/// in pointer parameters).
class SpecIndex {
public:
  SpecIndex(const LaunchSpec &Spec, const KernelManifest &K) : Spec(Spec) {
    for (const ManifestParam &P : K.Params) {
      Params.try_emplace(P.pathString(), &P);
      SmallVector<unsigned, 8> Path = fullPath(P);
      for (size_t N = 1; N < Path.size(); ++N)
        Under[std::vector<unsigned>(Path.begin(), Path.begin() + N)].push_back(
            &P);
    }
  }
  const BufferSpec *buffer(StringRef Name) const {
    return Spec.findBuffer(Name);
  }
  const LeafValue *arg(StringRef Path) const { return Spec.findArg(Path); }
  const ManifestParam *param(StringRef Path) const {
    return Params.lookup(Path);
  }
  /// The leaves strictly below \p Prefix (a full path), in manifest order.
  ArrayRef<const ManifestParam *> under(ArrayRef<unsigned> Prefix) const {
    auto It = Under.find(std::vector<unsigned>(Prefix.begin(), Prefix.end()));
    return It == Under.end() ? ArrayRef<const ManifestParam *>()
                             : ArrayRef<const ManifestParam *>(It->second);
  }
  int64_t intValue(const ManifestParam &P) const {
    const LeafValue *V = arg(P.pathString());
    return V && V->K == LeafValue::Integer ? V->Int : 0;
  }

private:
  const LaunchSpec &Spec;
  StringMap<const ManifestParam *> Params;
  std::map<std::vector<unsigned>, std::vector<const ManifestParam *>> Under;
};

Error checkValueKind(const ManifestParam &P, const LeafValue &V,
                     const SpecIndex &Index, StringRef File) {
  std::string Where = "args: '" + P.pathString() + "' (" + P.Type + "): ";
  LeafKind K = leafKind(P);
  switch (V.K) {
  case LeafValue::Buffer:
    if (!Index.buffer(V.BufferName))
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

/// The element counts an array descriptor declares for the buffer its
/// address leaf is bound to: the product of its dims and its len (elements),
/// its maxsize (bytes).
struct ArrayExtent {
  uint64_t Elements = 0; ///< 0: nothing declared.
  uint64_t MaxBytes = 0;
};

bool isI64Leaf(const ManifestParam &P) {
  return leafKind(P) == LeafKind::Integer && P.Size == 8;
}

/// The extent a descriptor at \p Desc laid out as \p Row (arrayFormByFields)
/// declares, where each of its leaves has the kind its field wants.
std::optional<ArrayExtent> extentAs(const DeviceArrayForm &Row,
                                    ArrayRef<unsigned> Desc,
                                    const SpecIndex &Index) {
  ArrayExtent E;
  uint64_t Dims = 1;
  for (const ManifestParam *P : Index.under(Desc)) {
    SmallVector<unsigned, 8> Path = fullPath(*P);
    unsigned Field = Path[Desc.size()];
    size_t Depth = Path.size() - Desc.size();
    if (static_cast<int>(Field) == Row.Data)
      continue;
    int64_t V = std::max<int64_t>(Index.intValue(*P), 0);
    if (static_cast<int>(Field) == Row.Dims && Depth == 2 && isI64Leaf(*P))
      Dims *= static_cast<uint64_t>(V);
    else if (static_cast<int>(Field) == Row.Len && Depth == 1 && isI64Leaf(*P))
      E.Elements = static_cast<uint64_t>(V);
    else if (static_cast<int>(Field) == Row.MaxSize && Depth == 1 &&
             isI64Leaf(*P))
      E.MaxBytes = static_cast<uint64_t>(V);
    else
      return std::nullopt;
  }
  E.Elements = std::max(E.Elements, Dims);
  return E;
}

/// For an aggregate no row describes: integer leaves two levels below the
/// descriptor (a tuple of sizes beside the address) still bound the buffer.
ArrayExtent extentOfUnknown(const ManifestParam &Ptr, const SpecIndex &Index) {
  SmallVector<unsigned, 8> PtrPath = fullPath(Ptr);
  ArrayRef<unsigned> Desc = ArrayRef<unsigned>(PtrPath).drop_back();
  // A pointer alone in a struct ({ i64 } around an address).
  if (Desc.size() > 1 && Index.under(Desc).size() == 1)
    Desc = Desc.drop_back();
  ArrayExtent E;
  uint64_t Dims = 1;
  bool HasDims = false;
  ArrayRef<unsigned> PtrBranch =
      ArrayRef<unsigned>(PtrPath).take_front(Desc.size() + 1);
  for (const ManifestParam *P : Index.under(Desc)) {
    SmallVector<unsigned, 8> Path = fullPath(*P);
    if (leafKind(*P) != LeafKind::Integer ||
        ArrayRef<unsigned>(Path).take_front(Desc.size() + 1) == PtrBranch ||
        Path.size() - Desc.size() != 2)
      continue;
    Dims *= static_cast<uint64_t>(std::max<int64_t>(Index.intValue(*P), 0));
    HasDims = true;
  }
  if (HasDims)
    E.Elements = Dims;
  return E;
}

/// What the array descriptor around address leaf \p Ptr declares: as a
/// layout of DeviceArrays.def where one matches, else by extentOfUnknown.
/// A whole parameter (a raw pointer) declares nothing.
ArrayExtent extentOf(const ManifestParam &Ptr, const SpecIndex &Index) {
  SmallVector<unsigned, 8> PtrPath = fullPath(Ptr);
  if (PtrPath.size() < 2)
    return ArrayExtent();
  for (size_t Wrap : {1, 2}) {
    if (PtrPath.size() < Wrap + 1)
      break;
    ArrayRef<unsigned> Desc = ArrayRef<unsigned>(PtrPath).drop_back(Wrap);
    SmallVector<unsigned, 8> Fields;
    for (const ManifestParam *P : Index.under(Desc))
      Fields.push_back(fullPath(*P)[Desc.size()]);
    if (const DeviceArrayForm *Row =
            arrayFormByFields(Fields, PtrPath[Desc.size()], Wrap == 2))
      if (std::optional<ArrayExtent> E = extentAs(*Row, Desc, Index))
        return *E;
  }
  return extentOfUnknown(Ptr, Index);
}

Error checkExtent(const ManifestParam &P, const BufferSpec &B,
                  const SpecIndex &Index, StringRef File) {
  ArrayExtent E = extentOf(P, Index);
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
  // NVPTX passes a byref kernel parameter as the address of the aggregate,
  // which would have to live in device memory: the runner passes parameter
  // bytes only, so the original kernel could not be launched as dumped.
  for (const ManifestOriginalParam &O : Kernel.OriginalParams)
    if (O.Passing == "byref")
      return specError(File, "parameter " + Twine(O.Index) + " of " +
                                 Kernel.Name + " is passed ptr byref(" +
                                 O.Type +
                                 "), which PTX takes as an address: "
                                 "gpu-check launches kernels whose "
                                 "aggregates are passed by value or byval");
  SpecIndex Index(Spec, Kernel);
  for (const auto &[Path, Value] : Spec.Args) {
    const ManifestParam *P = Index.param(Path);
    if (!P)
      return specError(File, "args: unknown leaf path '" + Path + "'; kernel " +
                                 Kernel.Name + " has " + knownPaths(Kernel));
    if (Error E = checkValueKind(*P, Value, Index, File))
      return E;
  }
  // The leaves bound to each buffer, in manifest order.
  StringMap<std::vector<const ManifestParam *>> BoundTo;
  for (const ManifestParam &P : Kernel.Params) {
    const LeafValue *V = Index.arg(P.pathString());
    if (V && V->K == LeafValue::Buffer)
      BoundTo[V->BufferName].push_back(&P);
  }
  bool AnyOutput = false;
  for (const BufferSpec &B : Spec.Buffers) {
    auto It = BoundTo.find(B.Name);
    if (It == BoundTo.end())
      return specError(File, "buffer '" + B.Name +
                                 "' is not bound to any argument leaf");
    for (const ManifestParam *P : It->second)
      if (Error E = checkExtent(*P, B, Index, File))
        return E;
    AnyOutput |= B.Output;
  }
  if (!AnyOutput)
    return specError(File, "no buffer is marked 'output': nothing to compare");
  return Spec.DerivativeChecks ? checkDerivativeBuffers(Spec, File)
                               : Error::success();
}

} // namespace irs
