#include "ir-sanitize/Analysis/AggregateLeaves.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/LLVMContext.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {
const char *const NVPTXLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";
} // namespace

TEST_CASE("A 1-D Broadcasted flattens in field order with NVPTX offsets",
          "[AggregateLeaves]") {
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  auto *I8 = Type::getInt8Ty(Ctx);
  auto *I64 = Type::getInt64Ty(Ctx);
  auto *Ptr1 = PointerType::get(Ctx, 1);
  auto *Array = StructType::get(Ptr1, I64, ArrayType::get(I64, 1), I64);
  auto *Extruded =
      StructType::get(Array, ArrayType::get(I8, 1), ArrayType::get(I64, 1));
  auto *Bc = StructType::get(ArrayType::get(Extruded, 2),
                             ArrayType::get(ArrayType::get(I64, 1), 1));
  SmallVector<AggregateLeaf, 16> Leaves;
  REQUIRE(collectLeaves(Bc, DL, Leaves) == LeafWalk::Complete);
  REQUIRE(Leaves.size() == 13);
  // x's data pointer, y's data pointer, the axes.
  CHECK(joinPath(Leaves[0].Path) == "0.0.0.0");
  CHECK(Leaves[0].Ty == Ptr1);
  CHECK(Leaves[0].Offset == 0);
  CHECK(joinPath(Leaves[4].Path) == "0.0.1.0");
  CHECK(Leaves[4].Offset == 32);
  CHECK(Leaves[4].Size == 1);
  CHECK(joinPath(Leaves[5].Path) == "0.0.2.0");
  CHECK(Leaves[5].Offset == 40); // after 7 bytes of padding
  CHECK(joinPath(Leaves[6].Path) == "0.1.0.0");
  CHECK(Leaves[6].Offset == 48);
  CHECK(joinPath(Leaves[12].Path) == "1.0.0");
  CHECK(Leaves[12].Offset == 96);
  CHECK(Leaves[12].Size == 8);
}

TEST_CASE("Zero-sized fields have no leaves", "[AggregateLeaves]") {
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  auto *I32 = Type::getInt32Ty(Ctx);
  auto *I64 = Type::getInt64Ty(Ctx);
  auto *Empty = StructType::get(Ctx);
  auto *T = StructType::get(I32, Empty, ArrayType::get(I64, 0), I64,
                            ArrayType::get(Empty, 4));
  SmallVector<AggregateLeaf, 4> Leaves;
  REQUIRE(collectLeaves(T, DL, Leaves) == LeafWalk::Complete);
  REQUIRE(Leaves.size() == 2);
  CHECK(joinPath(Leaves[0].Path) == "0");
  CHECK(joinPath(Leaves[1].Path) == "3");
  CHECK(Leaves[1].Offset == 8);
  SmallVector<AggregateLeaf, 4> None;
  REQUIRE(collectLeaves(Empty, DL, None) == LeafWalk::Complete);
  CHECK(None.empty());
}

TEST_CASE("Paths join multi-digit indices", "[AggregateLeaves]") {
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  auto *T = ArrayType::get(ArrayType::get(Type::getInt8Ty(Ctx), 300), 12);
  SmallVector<AggregateLeaf, 4> Leaves;
  REQUIRE(collectLeaves(T, DL, Leaves) == LeafWalk::Complete);
  REQUIRE(Leaves.size() == 3600);
  CHECK(joinPath(Leaves[1234].Path) == "4.34");
  CHECK(joinPath(Leaves.back().Path) == "11.299");
  CHECK(Leaves.back().Offset == 3599);
  CHECK(joinPath({}) == "");
  CHECK(joinPath({0, 10, 4294967295u}) == "0.10.4294967295");
}

TEST_CASE("Leaves follow the data layout: packed structs, vectors, scalars",
          "[AggregateLeaves]") {
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  auto *I8 = Type::getInt8Ty(Ctx);
  auto *F64 = Type::getDoubleTy(Ctx);
  auto *V4 = FixedVectorType::get(Type::getFloatTy(Ctx), 4);
  auto *Packed = StructType::get(Ctx, {I8, F64, V4}, /*isPacked=*/true);
  SmallVector<AggregateLeaf, 4> Leaves;
  REQUIRE(collectLeaves(Packed, DL, Leaves) == LeafWalk::Complete);
  REQUIRE(Leaves.size() == 3);
  CHECK(Leaves[1].Offset == 1);
  CHECK(Leaves[2].Ty == V4); // a vector is one leaf
  CHECK(Leaves[2].Offset == 9);
  CHECK(Leaves[2].Size == 16);
  SmallVector<AggregateLeaf, 1> Scalar;
  REQUIRE(collectLeaves(F64, DL, Scalar) == LeafWalk::Complete);
  REQUIRE(Scalar.size() == 1);
  CHECK(Scalar[0].Path.empty());
}

TEST_CASE("The leaf limit stops the walk", "[AggregateLeaves]") {
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  auto *Big = ArrayType::get(Type::getInt64Ty(Ctx), 1u << 30);
  SmallVector<AggregateLeaf, 8> Leaves;
  CHECK(collectLeaves(Big, DL, Leaves, {8}) == LeafWalk::TooManyLeaves);
  CHECK(Leaves.size() == 8);
  SmallVector<AggregateLeaf, 8> Exact;
  CHECK(collectLeaves(ArrayType::get(Type::getInt64Ty(Ctx), 8), DL, Exact,
                      {8}) == LeafWalk::Complete);
}

/// [1 x [1 x ... i8]] nested \p Depth deep, every other level a struct
/// with a float in front: one float leaf per struct level, the i8 last.
static Type *deepType(LLVMContext &Ctx, unsigned Depth) {
  Type *Ty = Type::getInt8Ty(Ctx);
  for (unsigned Level = 0; Level != Depth; ++Level)
    Ty = Level % 2
             ? static_cast<Type *>(StructType::get(Type::getFloatTy(Ctx), Ty))
             : ArrayType::get(Ty, 1);
  return Ty;
}

TEST_CASE("The depth limit stops the walk at the first aggregate too deep",
          "[AggregateLeaves]") {
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  SmallVector<AggregateLeaf, 8> AtLimit;
  REQUIRE(collectLeaves(deepType(Ctx, 6), DL, AtLimit, {SIZE_MAX, 6}) ==
          LeafWalk::Complete);
  REQUIRE(AtLimit.size() == 4);
  CHECK(joinPath(AtLimit.back().Path) == "1.0.1.0.1.0");
  SmallVector<AggregateLeaf, 8> Deeper;
  CHECK(collectLeaves(deepType(Ctx, 7), DL, Deeper, {SIZE_MAX, 6}) ==
        LeafWalk::TooDeep);
}

TEST_CASE("Leaves of a very deep type cost time linear in the depth",
          "[AggregateLeaves]") {
  // Asking the DataLayout for each level's size is quadratic per level
  // (cubic in all) down nested arrays: 10,000 levels would take minutes.
  LLVMContext Ctx;
  DataLayout DL(NVPTXLayout);
  const unsigned Depth = 10000;
  SmallVector<AggregateLeaf, 8> Leaves;
  REQUIRE(collectLeaves(deepType(Ctx, Depth), DL, Leaves) ==
          LeafWalk::Complete);
  REQUIRE(Leaves.size() == Depth / 2 + 1);
  CHECK(Leaves.back().Path.size() == Depth);
  CHECK(Leaves.back().Ty->isIntegerTy(8));
  // Each struct level is { float, [1 x ...] }: 4 bytes of float, then the
  // rest at offset 4; the i8 sits 4 bytes further per struct level.
  CHECK(Leaves.back().Offset == 4 * (Depth / 2));
}
