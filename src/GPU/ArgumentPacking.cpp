//===- ArgumentPacking.cpp - Kernel argument bytes for a launch -----------===//
#include "ir-sanitize/GPU/ArgumentPacking.h"

#include <cstring>

using namespace llvm;

namespace irs {

namespace {

/// Little-endian bytes of \p V in \p Size bytes (NVPTX is little-endian).
void storeInteger(uint8_t *Dst, int64_t V, uint64_t Size) {
  for (uint64_t I = 0; I < Size && I < 8; ++I)
    Dst[I] = static_cast<uint8_t>(static_cast<uint64_t>(V) >> (8 * I));
}

void storeFloat(uint8_t *Dst, double V, const ManifestParam &P) {
  if (P.Size == 8) {
    std::memcpy(Dst, &V, 8);
  } else if (P.Size == 4) {
    float F = static_cast<float>(V);
    std::memcpy(Dst, &F, 4);
  } else {
    // half/bfloat: the spec cannot round these for us; zero is exact.
    std::memset(Dst, 0, P.Size);
  }
}

void storeLeaf(ParamImage &Img, const ManifestParam &P, const LeafValue &V) {
  uint8_t *Dst = Img.Bytes.data() + P.Offset;
  switch (V.K) {
  case LeafValue::Buffer:
    Img.Relocs.push_back({P.Offset, V.BufferName, false, std::nullopt});
    return;
  case LeafValue::Integer:
    if (leafKind(P) == LeafKind::Float)
      storeFloat(Dst, static_cast<double>(V.Int), P);
    else
      storeInteger(Dst, V.Int, P.Size);
    return;
  case LeafValue::Float:
    storeFloat(Dst, V.Real, P);
    return;
  }
}

} // namespace

std::vector<ParamImage> packOriginalArgs(const KernelManifest &K,
                                         const LaunchSpec &Spec) {
  std::vector<ParamImage> Images(K.OriginalParams.size());
  for (const ManifestOriginalParam &O : K.OriginalParams)
    Images[O.Index].Bytes.assign(O.Size, 0);
  for (const ManifestParam &P : K.Params)
    if (const LeafValue *V = Spec.findArg(P.pathString()))
      storeLeaf(Images[P.OrigIndex], P, *V);
  return Images;
}

std::vector<ParamImage> sliceSplatArgs(const KernelManifest &K,
                                       ArrayRef<ParamImage> Original) {
  std::vector<ParamImage> Images;
  for (const ManifestParam &P : K.Params) {
    const ParamImage &O = Original[P.OrigIndex];
    ParamImage Img;
    Img.Bytes.assign(O.Bytes.begin() + P.Offset,
                     O.Bytes.begin() + P.Offset + P.Size);
    for (const AddressReloc &R : O.Relocs)
      if (R.Offset >= P.Offset && R.Offset + 8 <= P.Offset + P.Size)
        Img.Relocs.push_back(
            {R.Offset - P.Offset, R.Buffer, R.Shadow, std::nullopt});
    Images.push_back(std::move(Img));
  }
  return Images;
}

std::vector<ParamImage> wrapperArgs(ArrayRef<ParamImage> Splat,
                                    ArrayRef<WrapperArg> Params) {
  std::vector<ParamImage> Images;
  for (const WrapperArg &A : Params) {
    ParamImage Img = Splat[A.PrimalIndex];
    if (A.IsShadow)
      for (AddressReloc &R : Img.Relocs)
        R.Shadow = true;
    Images.push_back(std::move(Img));
  }
  return Images;
}

} // namespace irs
