#include "GPUTestSupport.h"

#include "ir-sanitize/GPU/ArgumentPacking.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"

#include <cstring>

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

LaunchSpec specOf(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  REQUIRE(static_cast<bool>(V));
  auto S = LaunchSpec::fromJSON(*V, "spec.json");
  REQUIRE(static_cast<bool>(S));
  return std::move(*S);
}

/// The byte offset of a leaf computed independently of the manifest: the
/// offset a GEP with indices 0, PATH... has in the parameter's type.
uint64_t gepOffset(const Function &F, ArrayRef<unsigned> FullPath) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  Type *Ty = F.getArg(FullPath[0])->getType();
  SmallVector<Value *, 8> Idx{
      ConstantInt::get(Type::getInt32Ty(F.getContext()), 0)};
  for (unsigned I : FullPath.drop_front())
    Idx.push_back(ConstantInt::get(Type::getInt32Ty(F.getContext()), I));
  return DL.getIndexedOffsetInType(Ty, Idx);
}

int64_t readInt(const std::vector<uint8_t> &B, uint64_t Off, unsigned Size) {
  int64_t V = 0;
  std::memcpy(&V, B.data() + Off, Size);
  return V;
}

const char *const Spec2D = R"({"threads": 12,
  "buffers": {"d": {"type": "f32", "count": 12, "output": true},
              "x": {"type": "f32", "count": 12, "wrt": true},
              "y": {"type": "f32", "count": 3}},
  "args": {"1.0": "buffer:d", "1.2.0": 3, "1.2.1": 4, "1.3": 12,
           "2.0.0.0.0": "buffer:x", "2.0.0.0.2.0": 3, "2.0.0.0.2.1": 4,
           "2.0.0.1.0": 1, "2.0.0.1.1": 1,
           "2.0.1.0.0": "buffer:y", "2.0.1.0.2.0": 3, "2.0.1.0.2.1": 1,
           "2.0.1.1.0": 1, "2.0.1.1.1": 0, "2.0.1.2.1": 1,
           "2.1.0.0": 3, "2.1.1.0": -4}})";

} // namespace

TEST_CASE("original arguments are packed at their layout offsets",
          "[ArgumentPacking]") {
  LLVMContext Ctx;
  auto M = loadExample("kernels/bcast_add_2d.ll", Ctx);
  Function &F = *M->getFunction("_Z16broadcast_kernel_add_2d");
  KernelManifest K = manifestFor(F);
  LaunchSpec S = specOf(Spec2D);
  REQUIRE(errorText(validateSpec(S, K, "spec.json")) == "");

  std::vector<ParamImage> Orig = packOriginalArgs(K, S);
  REQUIRE(Orig.size() == F.arg_size());
  const DataLayout &DL = M->getDataLayout();
  for (unsigned I = 0; I < F.arg_size(); ++I)
    CHECK(Orig[I].Bytes.size() == DL.getTypeAllocSize(F.getArg(I)->getType()));
  // Every integer leaf of the spec, at the offset a GEP gives it.
  for (const auto &[Path, V] : S.Args) {
    if (V.K != LeafValue::Integer)
      continue;
    const ManifestParam *P = K.findByPath(Path);
    SmallVector<unsigned, 8> Full{P->OrigIndex};
    Full.append(P->Path.begin(), P->Path.end());
    uint64_t Off = gepOffset(F, Full);
    INFO(Path);
    int64_t Got = readInt(Orig[P->OrigIndex].Bytes, Off, P->Size);
    if (P->Size < 8) // sign-extend the narrow leaf for comparison
      Got = (Got << (64 - 8 * P->Size)) >> (64 - 8 * P->Size);
    CHECK(Got == V.Int);
  }
  // Buffer addresses are relocations at the pointer's offset.
  REQUIRE(Orig[2].Relocs.size() == 2);
  CHECK(Orig[2].Relocs[0].Buffer == "x");
  CHECK(Orig[2].Relocs[0].Offset == gepOffset(F, {2, 0, 0, 0, 0}));
  CHECK(Orig[2].Relocs[1].Buffer == "y");
  CHECK(Orig[2].Relocs[1].Offset == gepOffset(F, {2, 0, 1, 0, 0}));
  CHECK_FALSE(Orig[2].Relocs[1].Shadow);
  // Unlisted leaves (maxsize, the state) are zero.
  CHECK(readInt(Orig[1].Bytes, gepOffset(F, {1, 1}), 8) == 0);
  for (uint8_t B : Orig[0].Bytes)
    CHECK(B == 0);
}

TEST_CASE("splatted and wrapper arguments are slices of the originals",
          "[ArgumentPacking]") {
  LLVMContext Ctx;
  auto M = loadExample("kernels/bcast_add_2d.ll", Ctx);
  KernelManifest K =
      manifestFor(*M->getFunction("_Z16broadcast_kernel_add_2d"));
  LaunchSpec S = specOf(Spec2D);
  std::vector<ParamImage> Orig = packOriginalArgs(K, S);
  std::vector<ParamImage> Splat = sliceSplatArgs(K, Orig);
  REQUIRE(Splat.size() == K.Params.size());
  for (const ManifestParam &P : K.Params) {
    INFO(P.pathString());
    const ParamImage &Img = Splat[P.Index];
    REQUIRE(Img.Bytes.size() == P.Size);
    CHECK(std::equal(Img.Bytes.begin(), Img.Bytes.end(),
                     Orig[P.OrigIndex].Bytes.begin() + P.Offset));
    const LeafValue *V = S.findArg(P.pathString());
    bool IsBuffer = V && V->K == LeafValue::Buffer;
    REQUIRE(Img.Relocs.size() == (IsBuffer ? 1u : 0u));
    if (IsBuffer) {
      CHECK(Img.Relocs[0].Offset == 0);
      CHECK(Img.Relocs[0].Buffer == V->BufferName);
    }
  }
  // A wrapper: x's pointer, then its shadow; a const leaf without one.
  unsigned XIdx = K.findByPath("2.0.0.0.0")->Index;
  unsigned DimIdx = K.findByPath("2.0.0.0.2.0")->Index;
  std::vector<ParamImage> D =
      wrapperArgs(Splat, {{XIdx, false}, {XIdx, true}, {DimIdx, false}});
  REQUIRE(D.size() == 3);
  CHECK_FALSE(D[0].Relocs[0].Shadow);
  CHECK(D[1].Relocs[0].Shadow);
  CHECK(D[1].Relocs[0].Buffer == "x");
  CHECK(readInt(D[2].Bytes, 0, 8) == 3);
}
