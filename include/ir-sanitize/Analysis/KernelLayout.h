//===- KernelLayout.h - What a Julia kernel's parameters hold ---*- C++ -*-===//
//
// The parameters of a kernel as Julia GPU code lays them out, recognised
// from their LLVM types and the kernel's own accesses: every scalar leaf
// (AggregateLeaves.h) gets a role, and every device array its leaves.
//
//   device arrays   the layouts of DeviceArrays.def (CUDA.jl 5 and 3,
//                   CUDAnative), and raw Ptr{T}: a ptr, or an i64 the kernel
//                   uses as an address
//   broadcasts      GPUArrays' Broadcasted { args..., axes } (axes [R x {i64}]
//                   or [R x [1 x i64]], OneTo stops), Extruded { array,
//                   [N x i8] keeps, [N x i64] defaults }, and CUDAnative's
//                   kernels that pass args, keeps, defaults and axes as
//                   separate parameters
//   KernelAbstractions' CompilerMetadata (ndrange, blocks, workgroup size)
//   CUDA.jl's KernelState (parameter 0: { ptr, i32 }, or `state` [1 x i64]
//   or { i64, i32 }), and scalars.
// Where the kernel's name is GPUCompiler's mangling of its Julia signature
// (JuliaMangling.h), whole-parameter arrays and pointers also get the
// element type it names.
//
// What the roles mean for a launch is GPU/LaunchInference's business; this
// only says what is there.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_KERNELLAYOUT_H
#define IR_SANITIZE_ANALYSIS_KERNELLAYOUT_H

#include "ir-sanitize/Analysis/ArgumentAccess.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace irs {

enum class LeafRole {
  Unknown,    ///< A pointer inside an aggregate of an unknown shape.
  State,      ///< CUDA.jl's KernelState: left zero.
  Data,       ///< A device array's address.
  MaxSize,    ///< Its capacity in bytes.
  Dim,        ///< One of its dims.
  Len,        ///< Its length in elements.
  Keep,       ///< Extruded keeps: Bool per dimension.
  Default,    ///< Extruded defaults: Int per dimension.
  Axis,       ///< A broadcast axis (OneTo stop).
  NDRange,    ///< KernelAbstractions: the ndrange per dimension.
  Blocks,     ///< KernelAbstractions: blocks per dimension.
  Workgroup,  ///< KernelAbstractions: workgroup size per dimension.
  Scalar,     ///< A number the kernel is given.
  RawPointer, ///< A Ptr{T} parameter: an address with no size beside it.
};
const char *spelling(LeafRole R);

struct LayoutLeaf {
  unsigned Param = 0;
  llvm::SmallVector<unsigned, 6> Path; ///< Inside the parameter.
  llvm::Type *Ty = nullptr;
  uint64_t Offset = 0; ///< Inside the parameter.
  LeafRole Role = LeafRole::Scalar;
  int Array = -1;   ///< The array it belongs to (Data ... Default).
  unsigned Dim = 0; ///< For Dim, Keep, Default, Axis and the KA roles.
  /// "2.0.1.0.0": the parameter, then the path (as the manifest prints it).
  std::string path() const;
};

/// One row of DeviceArrays.def: where a descriptor holds what.
struct DeviceArrayForm {
  unsigned Fields;
  int Data, MaxSize, Dims, Len; ///< Field indices; -1: none.
  bool WrappedAddress;
  const char *What;
};

struct LayoutArray {
  enum Form {
#define DEVICE_ARRAY(Form, Fields, Data, MaxSize, Dims, Len, WrappedAddress,   \
                     What)                                                     \
  Form,
#include "ir-sanitize/Analysis/DeviceArrays.def"
    Raw ///< A bare Ptr{T}: an address with no descriptor.
  } Layout = CUDA5;
  std::string Path; ///< Of the descriptor ("2.0.1.0"); of the leaf if Raw.
  unsigned Rank = 1;
  int Data = -1, MaxSize = -1, Len = -1; ///< Leaf indices; -1: none.
  llvm::SmallVector<int, 3> Dims, Keeps, Defaults;
  bool InBroadcast = false;           ///< An argument of a broadcast.
  std::optional<MemoryAccess> Access; ///< Nothing: not known.
  ElementUse Use;
  /// Its element type as the kernel's mangled name says ("Float64"), for a
  /// whole parameter the name's arguments line up with; else empty.
  std::string JuliaElement;
};

struct KernelLayout {
  std::vector<LayoutLeaf> Leaves;
  std::vector<LayoutArray> Arrays;
  /// The Julia name of each parameter where the dump has one
  /// (%"out::CuDeviceArray" is "out"), else empty.
  std::vector<std::string> ParamNames;
  unsigned BroadcastRank = 0; ///< Rank of the outermost broadcast's axes.
  bool KernelAbstractions = false;
  /// KernelAbstractions with its ndrange in the kernel's type: the launch
  /// has to match it.
  bool StaticNDRange = false;
  /// The sizes of a static ndrange, its static block counts and workgroup
  /// size, read from the kernel's name (StaticSize); empty where dynamic or
  /// not read (a name the demangler does not read still gives a static
  /// workgroup).
  llvm::SmallVector<uint64_t, 3> StaticNDRangeSizes;
  llvm::SmallVector<uint64_t, 3> StaticBlocks;
  llvm::SmallVector<uint64_t, 3> StaticWorkgroup;
  /// The highest thread-index dimension the kernel reads (1: x only).
  unsigned ThreadDims = 1;
  /// Per dimension, the block size the kernel hard-codes (it scales its
  /// block index by a constant and does not read blockDim); 0: any.
  std::array<uint64_t, 3> FixedBlock = {0, 0, 0};
  /// Integer parameters the kernel compares a thread index against.
  llvm::SmallVector<unsigned, 2> ExtentParams;
  /// The other integer parameters a loop's exit condition depends on
  /// (a tile count, a row length): left at 1, the loop would barely run.
  llvm::SmallVector<unsigned, 2> LoopBoundParams;

  int findLeaf(llvm::StringRef Path) const;
};

/// The rows of DeviceArrays.def, indexed by LayoutArray::Form (Raw has none).
llvm::ArrayRef<DeviceArrayForm> deviceArrayForms();

/// The row of DeviceArrays.def a descriptor's leaves are laid out as, from
/// where they are (not their types: a manifest's or a spec's leaves): its
/// fields, the first index of each leaf's path under the descriptor, are
/// exactly the row's, and its address is field \p DataField (\p Wrapped:
/// one level further down, in a struct of its own). nullptr where none is.
const DeviceArrayForm *arrayFormByFields(llvm::ArrayRef<unsigned> Fields,
                                         unsigned DataField, bool Wrapped);

/// What \p F's parameters hold. \p F must have a body. Errors (BadInput)
/// name \p InputName: too many leaves or nesting too deep to describe.
llvm::Expected<KernelLayout> describeKernelLayout(const llvm::Function &F,
                                                  llvm::StringRef InputName);

} // namespace irs

#endif
