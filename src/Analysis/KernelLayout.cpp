//===- KernelLayout.cpp - What a Julia kernel's parameters hold -----------===//
#include "ir-sanitize/Analysis/KernelLayout.h"

#include "ir-sanitize/Analysis/SpecialRegisters.h"

#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/Analysis/JuliaMangling.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <map>

using namespace llvm;

namespace irs {

ArrayRef<DeviceArrayForm> deviceArrayForms() {
  static const DeviceArrayForm Forms[] = {
#define DEVICE_ARRAY(Form, Fields, Data, MaxSize, Dims, Len, WrappedAddress,   \
                     What)                                                     \
  {Fields, Data, MaxSize, Dims, Len, WrappedAddress, What},
#include "ir-sanitize/Analysis/DeviceArrays.def"
  };
  return Forms;
}

const DeviceArrayForm *arrayFormByFields(ArrayRef<unsigned> Fields,
                                         unsigned DataField, bool Wrapped) {
  for (const DeviceArrayForm &Row : deviceArrayForms()) {
    if (static_cast<int>(DataField) != Row.Data ||
        (Wrapped && !Row.WrappedAddress))
      continue;
    SmallVector<bool, 4> Seen(Row.Fields, false);
    bool Fits = all_of(
        Fields, [&](unsigned F) { return F < Row.Fields && (Seen[F] = true); });
    if (Fits && all_of(Seen, [](bool S) { return S; }))
      return &Row;
  }
  return nullptr;
}

const char *spelling(LeafRole R) {
  static const char *const Names[] = {
      "unknown", "state",     "data",    "maxsize", "dims",
      "len",     "keep",      "default", "axis",    "ndrange",
      "blocks",  "workgroup", "scalar",  "pointer"};
  return Names[static_cast<int>(R)];
}

std::string LayoutLeaf::path() const {
  std::string S = std::to_string(Param);
  if (!Path.empty())
    S += "." + joinPath(Path);
  return S;
}

int KernelLayout::findLeaf(StringRef Path) const {
  for (size_t I = 0; I < Leaves.size(); ++I)
    if (Leaves[I].path() == Path)
      return static_cast<int>(I);
  return -1;
}

namespace {

/// Bounds on what is described: a kernel's parameters hold a few hundred
/// leaves at most; a hostile module must not cost more.
constexpr size_t MaxLeaves = 4096;
constexpr unsigned MaxDepth = 32;

/// The highest rank taken for an array (Julia's are unbounded; GPUArrays'
/// permutedims tests go to 28).
constexpr unsigned MaxRank = 64;

/// [N x iBits] with N >= 1: N.
std::optional<unsigned> intTuple(Type *T, unsigned Bits) {
  auto *A = dyn_cast<ArrayType>(T);
  if (!A || A->getNumElements() == 0 || A->getNumElements() > MaxRank ||
      !A->getElementType()->isIntegerTy(Bits))
    return std::nullopt;
  return static_cast<unsigned>(A->getNumElements());
}

/// { i64 } or { ptr } (CUDAnative's DevicePtr), or a bare ptr.
bool isWrappedAddress(Type *T) {
  if (T->isPointerTy())
    return true;
  auto *S = dyn_cast<StructType>(T);
  return S && S->getNumElements() == 1 &&
         (S->getElementType(0)->isIntegerTy(64) ||
          S->getElementType(0)->isPointerTy());
}

struct ArrayShape {
  LayoutArray::Form Layout;
  unsigned Rank;
};

/// Whether field \p Index of \p E is an i64 (or the layout has none).
bool isSizeField(ArrayRef<Type *> E, int Index) {
  return Index < 0 || E[Index]->isIntegerTy(64);
}

/// The first row of DeviceArrays.def that \p T is laid out as.
std::optional<ArrayShape> matchArray(Type *T) {
  auto *S = dyn_cast<StructType>(T);
  if (!S)
    return std::nullopt;
  ArrayRef<Type *> E = S->elements();
  ArrayRef<DeviceArrayForm> Forms = deviceArrayForms();
  for (size_t F = 0; F < Forms.size(); ++F) {
    const DeviceArrayForm &Row = Forms[F];
    if (E.size() != Row.Fields || !isSizeField(E, Row.MaxSize) ||
        !isSizeField(E, Row.Len))
      continue;
    Type *Data = E[Row.Data];
    if (!(Row.WrappedAddress ? isWrappedAddress(Data) : Data->isPointerTy()))
      continue;
    if (std::optional<unsigned> N = intTuple(E[Row.Dims], 64))
      return ArrayShape{static_cast<LayoutArray::Form>(F), *N};
  }
  return std::nullopt;
}

/// Extruded { array, [N x i8] keeps, [N x i64] defaults }.
std::optional<ArrayShape> matchExtruded(Type *T) {
  auto *S = dyn_cast<StructType>(T);
  if (!S || S->getNumElements() != 3)
    return std::nullopt;
  std::optional<ArrayShape> A = matchArray(S->getElementType(0));
  if (A && intTuple(S->getElementType(1), 8) == A->Rank &&
      intTuple(S->getElementType(2), 64) == A->Rank)
    return A;
  return std::nullopt;
}

/// Broadcast axes: [R x { i64 }] or [R x [1 x i64]] (OneTo stops).
std::optional<unsigned> axesRank(Type *T) {
  auto *A = dyn_cast<ArrayType>(T);
  if (!A || A->getNumElements() == 0 || A->getNumElements() > MaxRank)
    return std::nullopt;
  Type *E = A->getElementType();
  auto *S = dyn_cast<StructType>(E);
  if ((S && S->getNumElements() == 1 &&
       S->getElementType(0)->isIntegerTy(64)) ||
      intTuple(E, 64) == 1u)
    return static_cast<unsigned>(A->getNumElements());
  return std::nullopt;
}

bool containsArray(Type *T, unsigned Depth = 0) {
  if (matchArray(T))
    return true;
  if (Depth > MaxDepth || !isAggregateType(T))
    return false;
  for (Type *E : T->subtypes())
    if (containsArray(E, Depth + 1))
      return true;
  return false;
}

/// A tuple whose every element is an [n x iBits]: CUDAnative's keeps (8)
/// or defaults (64), one per broadcast argument. Returns the ranks.
std::optional<SmallVector<unsigned, 4>> flagTuple(Type *T, unsigned Bits) {
  if (!isAggregateType(T) || T->getNumContainedTypes() == 0)
    return std::nullopt;
  SmallVector<unsigned, 4> Ranks;
  unsigned N = isa<ArrayType>(T) ? cast<ArrayType>(T)->getNumElements()
                                 : T->getNumContainedTypes();
  for (unsigned I = 0; I < N && I < 64; ++I) {
    Type *E =
        isa<ArrayType>(T) ? T->getContainedType(0) : T->getContainedType(I);
    std::optional<unsigned> R = intTuple(E, Bits);
    if (!R)
      return std::nullopt;
    Ranks.push_back(*R);
  }
  return Ranks;
}

/// A place in the parameters: a parameter and a path inside it.
struct Loc {
  unsigned Param = 0;
  SmallVector<unsigned, 6> Path;
  Loc child(unsigned I) const {
    Loc L = *this;
    L.Path.push_back(I);
    return L;
  }
};

/// The element types of an aggregate, one per field (an array's repeated).
SmallVector<Type *, 8> fieldsOf(Type *T) {
  SmallVector<Type *, 8> F;
  if (auto *A = dyn_cast<ArrayType>(T))
    F.assign(std::min<uint64_t>(A->getNumElements(), MaxLeaves),
             A->getElementType());
  else
    F.append(T->subtype_begin(), T->subtype_end());
  return F;
}

/// Assigns every leaf its role, in one walk over the parameter types.
class LayoutBuilder {
public:
  LayoutBuilder(const Function &F, KernelLayout &L)
      : F(F), DL(F.getParent()->getDataLayout()), L(L),
        Access(analyzeArgumentAccess(F)) {}

  Error collect(StringRef InputName);
  void describe();

private:
  const Function &F;
  const DataLayout &DL;
  KernelLayout &L;
  std::vector<ArgumentAccess> Access;
  std::map<std::string, int> ByPath;
  int KAParam = -1; ///< The CompilerMetadata parameter, once found.
  /// Per parameter, the element type of the array or Ptr the name says it
  /// is (readJuliaElements).
  std::map<unsigned, std::string> JuliaElements;

  LayoutLeaf *leafAt(const Loc &At) {
    LayoutLeaf Probe;
    Probe.Param = At.Param;
    Probe.Path = At.Path;
    auto It = ByPath.find(Probe.path());
    return It == ByPath.end() ? nullptr : &L.Leaves[It->second];
  }
  /// Every leaf at or below \p At.
  SmallVector<LayoutLeaf *, 8> leavesUnder(const Loc &At) {
    SmallVector<LayoutLeaf *, 8> Found;
    for (LayoutLeaf &Leaf : L.Leaves)
      if (Leaf.Param == At.Param && Leaf.Path.size() >= At.Path.size() &&
          ArrayRef<unsigned>(Leaf.Path).take_front(At.Path.size()) ==
              ArrayRef<unsigned>(At.Path))
        Found.push_back(&Leaf);
    return Found;
  }
  int indexOf(const LayoutLeaf *Leaf) const {
    return Leaf ? static_cast<int>(Leaf - L.Leaves.data()) : -1;
  }
  /// \p Role (dimension by the path component below \p At) for the
  /// leaves under \p At.
  void assignPerDim(const Loc &At, LeafRole Role, int Array = -1) {
    for (LayoutLeaf *Leaf : leavesUnder(At)) {
      Leaf->Role = Role;
      Leaf->Array = Array;
      Leaf->Dim =
          Leaf->Path.size() > At.Path.size() ? Leaf->Path[At.Path.size()] : 0;
    }
  }
  std::optional<MemoryAccess> accessAt(const LayoutLeaf &Leaf) const {
    return Access[Leaf.Param].at(Leaf.Offset);
  }
  /// Whether the kernel may dereference the leaf (unknown uses count).
  bool usedAsAddress(const LayoutLeaf &Leaf) const {
    const ArgumentAccess &A = Access[Leaf.Param];
    return A.UsedWhole || (A.ByOffset.count(Leaf.Offset) &&
                           A.at(Leaf.Offset) != MemoryAccess::None);
  }
  /// Whether it surely does: an i64 whose uses are not known is a number.
  bool knownAddress(const LayoutLeaf &Leaf) const {
    std::optional<MemoryAccess> M = Access[Leaf.Param].at(Leaf.Offset);
    return Access[Leaf.Param].ByOffset.count(Leaf.Offset) && M &&
           *M != MemoryAccess::None;
  }

  void visit(Type *T, const Loc &At, bool InBroadcast, unsigned Depth);
  bool visitBroadcast(ArrayRef<Type *> Fields, ArrayRef<Loc> Locs,
                      unsigned Depth);
  int addArray(const ArrayShape &Shape, const Loc &At, bool InBroadcast);
  void addRawPointer(LayoutLeaf &Leaf);
  void visitScalar(const Loc &At);
  void pairFlags(ArrayRef<Loc> Locs, size_t KeepsAt, ArrayRef<unsigned> Ranks,
                 size_t Begin, size_t End);
  void describeKernelAbstractions();
  void describeThreads();
  llvm::SmallPtrSet<const llvm::Value *, 8> loopExitComparisons() const;
  void readJuliaElements(unsigned First);
};

Error LayoutBuilder::collect(StringRef InputName) {
  for (const Argument &A : F.args()) {
    StringRef Name = A.getName();
    Name = Name.substr(0, Name.find("::"));
    L.ParamNames.push_back(Name.empty() || isDigit(Name.front()) ? ""
                                                                 : Name.str());
    Type *T = passedType(A);
    SmallVector<AggregateLeaf, 16> Leaves;
    LeafLimits Limits{MaxLeaves - L.Leaves.size(), MaxDepth};
    if (collectLeaves(T, DL, Leaves, Limits) != LeafWalk::Complete)
      return makeToolError(
          ExitCode::BadInput,
          escapeForMessage(InputName) + ": parameter " + Twine(A.getArgNo()) +
              " of " + escapeForMessage(F.getName()) +
              ": too many leaves or nested too deep to describe a launch "
              "(give a --spec)");
    for (AggregateLeaf &AL : Leaves) {
      LayoutLeaf Leaf;
      Leaf.Param = A.getArgNo();
      Leaf.Path.assign(AL.Path.begin(), AL.Path.end());
      Leaf.Ty = AL.Ty;
      Leaf.Offset = AL.Offset;
      ByPath[Leaf.path()] = static_cast<int>(L.Leaves.size());
      L.Leaves.push_back(std::move(Leaf));
    }
  }
  return Error::success();
}

int LayoutBuilder::addArray(const ArrayShape &Shape, const Loc &At,
                            bool InBroadcast) {
  int Index = static_cast<int>(L.Arrays.size());
  LayoutArray A;
  A.Layout = Shape.Layout;
  A.Rank = Shape.Rank;
  A.InBroadcast = InBroadcast;
  LayoutLeaf Desc;
  Desc.Param = At.Param;
  Desc.Path = At.Path;
  A.Path = Desc.path();
  const DeviceArrayForm &Row = deviceArrayForms()[Shape.Layout];
  Loc Data = At.child(Row.Data), Dims = At.child(Row.Dims);
  LayoutLeaf *DataLeaf = leafAt(Data);
  if (!DataLeaf && Row.WrappedAddress)
    DataLeaf = leafAt(Data.child(0)); // { i64 } around the address
  assignPerDim(Dims, LeafRole::Dim, Index);
  for (LayoutLeaf *D : leavesUnder(Dims))
    A.Dims.push_back(indexOf(D));
  auto Assign = [&](int Field, LeafRole Role, int &Slot) {
    if (Field < 0)
      return;
    if (LayoutLeaf *Leaf = leafAt(At.child(Field))) {
      Leaf->Role = Role;
      Leaf->Array = Index;
      Slot = indexOf(Leaf);
    }
  };
  Assign(Row.MaxSize, LeafRole::MaxSize, A.MaxSize);
  Assign(Row.Len, LeafRole::Len, A.Len);
  if (DataLeaf) {
    DataLeaf->Role = LeafRole::Data;
    DataLeaf->Array = Index;
    A.Data = indexOf(DataLeaf);
    A.Access = accessAt(*DataLeaf);
    A.Use = Access[DataLeaf->Param].Elements[DataLeaf->Offset];
  }
  L.Arrays.push_back(std::move(A));
  return Index;
}

void LayoutBuilder::addRawPointer(LayoutLeaf &Leaf) {
  LayoutArray A;
  A.Layout = LayoutArray::Raw;
  A.Path = Leaf.path();
  A.Data = indexOf(&Leaf);
  A.Access = accessAt(Leaf);
  A.Use = Access[Leaf.Param].Elements[Leaf.Offset];
  Leaf.Role = LeafRole::RawPointer;
  Leaf.Array = static_cast<int>(L.Arrays.size());
  L.Arrays.push_back(std::move(A));
}

/// A leaf outside every known shape: a number, a raw pointer when it is a
/// whole parameter the kernel uses as an address (or the name says is a
/// Ptr), else unknown.
void LayoutBuilder::visitScalar(const Loc &At) {
  LayoutLeaf *Leaf = leafAt(At);
  if (!Leaf)
    return;
  bool Named = At.Path.empty() && JuliaElements.count(At.Param);
  bool Address = Leaf->Ty->isPointerTy() ? Named || usedAsAddress(*Leaf)
                                         : Leaf->Ty->isIntegerTy(64) &&
                                               (Named || knownAddress(*Leaf));
  if (!Address)
    Leaf->Role = LeafRole::Scalar;
  else if (At.Path.empty())
    addRawPointer(*Leaf);
  else
    Leaf->Role = LeafRole::Unknown;
}

/// CUDAnative's keeps and defaults tuples at \p KeepsAt and the next field,
/// one [n x i8] and one [n x i64] per array of the field before them (the
/// arrays [Begin, End)); paired with those arrays when the ranks agree.
void LayoutBuilder::pairFlags(ArrayRef<Loc> Locs, size_t KeepsAt,
                              ArrayRef<unsigned> Ranks, size_t Begin,
                              size_t End) {
  SmallVector<unsigned, 4> ArgRanks;
  for (size_t I = Begin; I < End; ++I)
    ArgRanks.push_back(L.Arrays[I].Rank);
  bool Paired = ArrayRef<unsigned>(ArgRanks) == Ranks;
  for (unsigned K = 0; K < Ranks.size(); ++K) {
    int Array = Paired ? static_cast<int>(Begin + K) : -1;
    Loc Keep = Locs[KeepsAt].child(K), Default = Locs[KeepsAt + 1].child(K);
    assignPerDim(Keep, LeafRole::Keep, Array);
    assignPerDim(Default, LeafRole::Default, Array);
    if (Array < 0)
      continue;
    for (LayoutLeaf *Leaf : leavesUnder(Keep))
      L.Arrays[Array].Keeps.push_back(indexOf(Leaf));
    for (LayoutLeaf *Leaf : leavesUnder(Default))
      L.Arrays[Array].Defaults.push_back(indexOf(Leaf));
  }
}

/// Fields ending in broadcast axes, with arrays before them: a Broadcasted
/// (or CUDAnative's broadcast kernel, whose parameters are its fields).
bool LayoutBuilder::visitBroadcast(ArrayRef<Type *> Fields, ArrayRef<Loc> Locs,
                                   unsigned Depth) {
  if (Fields.size() < 2)
    return false;
  std::optional<unsigned> Rank = axesRank(Fields.back());
  if (!Rank ||
      none_of(Fields.drop_back(), [](Type *T) { return containsArray(T); }))
    return false;
  if (!L.BroadcastRank)
    L.BroadcastRank = *Rank;
  assignPerDim(Locs.back(), LeafRole::Axis);
  size_t N = Fields.size() - 1, Begin = L.Arrays.size(), End = Begin;
  for (size_t I = 0; I < N; ++I) {
    auto Keeps = flagTuple(Fields[I], 8);
    auto Defaults = I + 1 < N ? flagTuple(Fields[I + 1], 64) : std::nullopt;
    if (Keeps && Defaults && *Keeps == *Defaults) {
      pairFlags(Locs, I, *Keeps, Begin, End);
      ++I;
      continue;
    }
    Begin = L.Arrays.size();
    visit(Fields[I], Locs[I], true, Depth + 1);
    End = L.Arrays.size();
  }
  return true;
}

void LayoutBuilder::visit(Type *T, const Loc &At, bool InBroadcast,
                          unsigned Depth) {
  if (std::optional<ArrayShape> A = matchArray(T)) {
    addArray(*A, At, InBroadcast);
    return;
  }
  if (std::optional<ArrayShape> E = matchExtruded(T)) {
    int Index = addArray(*E, At.child(0), InBroadcast);
    assignPerDim(At.child(1), LeafRole::Keep, Index);
    assignPerDim(At.child(2), LeafRole::Default, Index);
    for (LayoutLeaf *Leaf : leavesUnder(At.child(1)))
      L.Arrays[Index].Keeps.push_back(indexOf(Leaf));
    for (LayoutLeaf *Leaf : leavesUnder(At.child(2)))
      L.Arrays[Index].Defaults.push_back(indexOf(Leaf));
    return;
  }
  if (!isAggregateType(T) || Depth > MaxDepth)
    return visitScalar(At);
  SmallVector<Type *, 8> Fields = fieldsOf(T);
  SmallVector<Loc, 8> Locs;
  for (unsigned I = 0; I < Fields.size(); ++I)
    Locs.push_back(At.child(I));
  if (visitBroadcast(Fields, Locs, Depth))
    return;
  for (unsigned I = 0; I < Fields.size(); ++I)
    visit(Fields[I], Locs[I], InBroadcast, Depth + 1);
}

/// The sizes of a tuple literal as the name spells it ("_256__" is (256,),
/// "_16__16_" (16, 16)); nothing unless every one is a positive integer.
SmallVector<uint64_t, 3> sizeTuple(StringRef Literal) {
  SmallVector<StringRef, 3> Parts;
  Literal.split(Parts, '_', -1, /*KeepEmpty=*/false);
  SmallVector<uint64_t, 3> Sizes;
  for (StringRef P : Parts) {
    uint64_t N;
    if (P.getAsInteger(10, N) || N == 0)
      return {};
    Sizes.push_back(N);
  }
  return Sizes;
}

/// The numbers of the last size literal ("6_256__", "8_16__16_": a length,
/// then the tuple) among \p Mangled's NDRange parameters: a StaticSize. For
/// names the demangler does not read (kaStaticSizes).
SmallVector<uint64_t, 3> staticWorkgroup(StringRef Mangled) {
  SmallVector<uint64_t, 3> Sizes;
  size_t At = Mangled.find("NDRangeI");
  if (At == StringRef::npos)
    return Sizes;
  StringRef Rest = Mangled.substr(At);
  Rest = Rest.substr(0, Rest.find("EE"));
  for (size_t I = 0; I + 1 < Rest.size(); ++I) {
    if (Rest[I] != 'I' || !isDigit(Rest[I + 1]))
      continue;
    StringRef Tail = Rest.substr(I + 1);
    size_t Digits = Tail.find_first_not_of("0123456789");
    unsigned Length;
    if (Digits == StringRef::npos ||
        Tail.substr(0, Digits).getAsInteger(10, Length) ||
        Tail.size() < Digits + Length || Tail[Digits] != '_')
      continue;
    SmallVector<uint64_t, 3> Found = sizeTuple(Tail.substr(Digits, Length));
    if (!Found.empty())
      Sizes = Found;
  }
  return Sizes;
}

/// The static sizes of KernelAbstractions' CompilerMetadata{StaticNDRange,
/// CheckBounds, I, NDRange, Iterspace}, Iterspace an NDRange{N, Blocks,
/// Workitems, ...}: each a StaticSize{tuple} or DynamicSize (empty).
struct KASizes {
  SmallVector<uint64_t, 3> NDRange, Blocks, Workgroup;
};

SmallVector<uint64_t, 3> staticSize(const JuliaType &T) {
  if (T.Name != "StaticSize" || T.Params.size() != 1 || !T.Params[0].Literal)
    return {};
  return sizeTuple(T.Params[0].Name);
}

/// The first CompilerMetadata argument \p Mangled names, read in either
/// mangling; nothing where neither reads it, or the two disagree.
std::optional<KASizes> kaStaticSizes(StringRef Mangled) {
  std::optional<KASizes> Found;
  for (JuliaMangling D : {JuliaMangling::AllTypes, JuliaMangling::NamesOnly}) {
    std::optional<std::vector<JuliaType>> Args =
        demangleJuliaArguments(Mangled, D);
    if (!Args)
      continue;
    const JuliaType *Meta = nullptr;
    for (const JuliaType &T : *Args)
      if (!Meta && T.Name == "CompilerMetadata" && T.Params.size() == 5)
        Meta = &T;
    if (!Meta)
      continue;
    KASizes S;
    S.NDRange = staticSize(Meta->Params[0]);
    const JuliaType &Iterspace = Meta->Params[4];
    if (Iterspace.Name == "NDRange" && Iterspace.Params.size() >= 3) {
      S.Blocks = staticSize(Iterspace.Params[1]);
      S.Workgroup = staticSize(Iterspace.Params[2]);
    }
    if (Found && (Found->NDRange != S.NDRange || Found->Blocks != S.Blocks ||
                  Found->Workgroup != S.Workgroup))
      return std::nullopt;
    Found = std::move(S);
  }
  return Found;
}

/// CUDA.jl's KernelState, parameter 0. GPUCompiler names it `state` where
/// the dump keeps names, and its shape changed with CUDA.jl and Julia:
/// [1 x i64] (CUDA.jl 4: the exception flag), { i64, i32 } (5, a Ptr as an
/// integer before Julia 1.12: + the random seed), { ptr, i32 } (Julia 1.12).
/// Unnamed, only the last is taken: its pointer is generic (an
/// exception-info slot), where a { ptr addrspace(1), i32 } is someone's
/// array view and a { i64, i32 } someone's tuple.
bool isKernelState(const Argument &A) {
  auto *S = dyn_cast<StructType>(A.getType());
  if (S && S->getNumElements() == 2 && S->getElementType(0)->isPointerTy() &&
      S->getElementType(0)->getPointerAddressSpace() == 0 &&
      S->getElementType(1)->isIntegerTy(32))
    return true;
  if (A.getName() != "state" || !isAggregateType(A.getType()))
    return false;
  SmallVector<Type *, 8> Fields = fieldsOf(A.getType());
  return Fields.size() <= 2 && all_of(Fields, [](Type *T) {
           return T->isIntegerTy(64) || T->isIntegerTy(32) ||
                  (T->isPointerTy() && T->getPointerAddressSpace() == 0);
         });
}

/// KernelAbstractions' CompilerMetadata: ndrange, blocks and workgroup size
/// (the last from the kernel's type where it is static), one i64 each per
/// dimension, in the first all-i64 aggregate parameter.
void LayoutBuilder::describeKernelAbstractions() {
  StringRef Name = F.getName();
  size_t At = Name.find("CompilerMetadata");
  // Names without Julia's mangling (older GPUCompiler) still name the
  // parameter's type where the dump keeps names.
  const Argument *Named = nullptr;
  for (const Argument &A : F.args())
    if (A.getName().contains("::CompilerMetadata"))
      Named = Named ? Named : &A;
  if (At == StringRef::npos && !Named)
    return;
  if (At == StringRef::npos)
    At = Name.size();
  L.KernelAbstractions = true;
  if (std::optional<KASizes> S = kaStaticSizes(Name)) {
    L.StaticNDRange = !S->NDRange.empty();
    L.StaticNDRangeSizes = S->NDRange;
    L.StaticBlocks = S->Blocks;
    L.StaticWorkgroup = S->Workgroup;
  } else {
    // A static ndrange lives in the type; unread, the launch cannot match it.
    L.StaticNDRange =
        Name.substr(At).starts_with("CompilerMetadataI10StaticSize") ||
        Name.substr(At).starts_with("CompilerMetadataI16OffsetStaticSize");
    L.StaticWorkgroup = staticWorkgroup(Name.substr(At));
  }
  // A static ndrange with a static iteration space leaves no metadata to
  // pass; any other is refused by the launch inference.
  if (L.StaticNDRange)
    return;
  for (const Argument &A : F.args()) {
    if (Named && &A != Named)
      continue;
    SmallVector<LayoutLeaf *, 8> Leaves = leavesUnder(Loc{A.getArgNo(), {}});
    if (!isAggregateType(A.getType()) || Leaves.empty() ||
        any_of(Leaves,
               [](LayoutLeaf *Leaf) { return !Leaf->Ty->isIntegerTy(64); }))
      continue;
    size_t N = Leaves.size(),
           R = L.StaticWorkgroup.empty() ? N / 3 : L.StaticWorkgroup.size();
    KAParam = static_cast<int>(A.getArgNo());
    bool Dynamic = L.StaticWorkgroup.empty() && N % 3 == 0;
    if (!Dynamic && !(N == 2 * R && R > 0)) {
      for (LayoutLeaf *Leaf : Leaves) // refused with the aggregate's path
        Leaf->Role = LeafRole::Unknown;
      return;
    }
    const LeafRole Roles[] = {LeafRole::NDRange, LeafRole::Blocks,
                              LeafRole::Workgroup};
    for (size_t I = 0; I < N; ++I) {
      Leaves[I]->Role = Roles[I / R];
      Leaves[I]->Dim = static_cast<unsigned>(I % R);
    }
    return;
  }
}

bool isThreadIndex(const Value &V) {
  const auto *Call = dyn_cast<CallInst>(&V);
  const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  return Callee && Callee->getName().starts_with("llvm.nvvm.read.ptx.sreg.");
}

/// Whether \p V is computed from its operands alone: arithmetic, a cast, a
/// phi, a select, a freeze or an intrinsic that touches no memory.
bool computesFrom(const Value *V) {
  const auto *Pure = dyn_cast<IntrinsicInst>(V);
  return isa<BinaryOperator>(V) || isa<CastInst>(V) || isa<PHINode>(V) ||
         isa<SelectInst>(V) || isa<FreezeInst>(V) ||
         (Pure && !Pure->mayReadOrWriteMemory());
}

/// \p Roots and every value computed from them by arithmetic, casts, phis
/// and selects (bounded).
SmallPtrSet<const Value *, 32> derivedFrom(ArrayRef<const Value *> Roots) {
  SmallPtrSet<const Value *, 32> Seen(Roots.begin(), Roots.end());
  SmallVector<const Value *, 32> Work(Roots.begin(), Roots.end());
  while (!Work.empty() && Seen.size() < 4096) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users())
      if (computesFrom(U) && Seen.insert(U).second)
        Work.push_back(U);
  }
  return Seen;
}

/// \p V's constant integer in lane \p Lane (-1: \p V is a scalar).
const ConstantInt *laneConstant(const Value *V, int Lane) {
  // A vector built lane by lane: the lane's own element.
  for (unsigned Depth = 0; Lane >= 0 && Depth < 8; ++Depth) {
    const auto *IE = dyn_cast<InsertElementInst>(V);
    const auto *Idx = IE ? dyn_cast<ConstantInt>(IE->getOperand(2)) : nullptr;
    if (!Idx)
      break;
    if (Idx->getZExtValue() == static_cast<uint64_t>(Lane))
      return dyn_cast<ConstantInt>(IE->getOperand(1));
    V = IE->getOperand(0);
  }
  const auto *C = dyn_cast<Constant>(V);
  if (C && Lane >= 0 && V->getType()->isVectorTy())
    C = C->getAggregateElement(static_cast<unsigned>(Lane));
  return dyn_cast_or_null<ConstantInt>(C);
}

/// The constant a block index is scaled by (Julia's `(blockIdx().x - 1) *
/// 32`, LLVM's `shl %ctaid, 5`) through casts and constant offsets, also in
/// one lane of a vector (the SLP vectorizer pairs such additions); 0 where
/// it is none or more than one.
uint64_t blockScale(const Instruction &CtaId) {
  SmallVector<std::pair<const Value *, int>, 8> Work{{&CtaId, -1}};
  SmallPtrSet<const Value *, 8> Seen{&CtaId};
  uint64_t Found = 0;
  auto Follow = [&](const Value *U, int Lane) {
    if (Seen.insert(U).second)
      Work.push_back({U, Lane});
  };
  while (!Work.empty() && Seen.size() < 64) {
    auto [V, Lane] = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (const auto *IE = dyn_cast<InsertElementInst>(U)) {
        const auto *Idx = dyn_cast<ConstantInt>(IE->getOperand(2));
        if (!Idx)
          continue;
        int At = static_cast<int>(Idx->getZExtValue());
        if (Lane < 0 && IE->getOperand(1) == V)
          Follow(U, At); // into a vector
        else if (Lane >= 0 && IE->getOperand(0) == V && At != Lane)
          Follow(U, Lane); // another lane filled beside it
        continue;
      }
      if (const auto *EE = dyn_cast<ExtractElementInst>(U)) {
        const auto *Idx = dyn_cast<ConstantInt>(EE->getIndexOperand());
        if (Idx && static_cast<int>(Idx->getZExtValue()) == Lane)
          Follow(U, -1);
        continue;
      }
      // The other operand, in the lane: first for add and mul (a vector's
      // constant lanes stay on the left), second for sub and shl.
      const auto *Op = dyn_cast<BinaryOperator>(U);
      const Value *Other = !Op                      ? nullptr
                           : Op->getOperand(0) == V ? Op->getOperand(1)
                           : Op->isCommutative()    ? Op->getOperand(0)
                                                    : nullptr;
      const ConstantInt *C = Other ? laneConstant(Other, Lane) : nullptr;
      if (isa<CastInst>(U) || (C && (Op->getOpcode() == Instruction::Add ||
                                     Op->getOpcode() == Instruction::Sub))) {
        Follow(U, Lane);
        continue;
      }
      uint64_t Scale = 0;
      if (C && Op->getOpcode() == Instruction::Mul)
        Scale = C->getLimitedValue();
      else if (C && Op->getOpcode() == Instruction::Shl &&
               C->getLimitedValue() < 16)
        Scale = uint64_t(1) << C->getLimitedValue();
      if (Scale && Found && Scale != Found)
        return 0;
      Found = Scale ? Scale : Found;
    }
  }
  return Found;
}

/// The thread-index dimensions the kernel reads, the block sizes it
/// hard-codes, and the integer parameters it compares a thread index
/// against (loop or guard bounds).
void LayoutBuilder::describeThreads() {
  SmallVector<const Value *, 8> Indices;
  bool ReadsBlockDim[3] = {false, false, false};
  uint64_t Scales[3] = {0, 0, 0};
  for (const Instruction &I : instructions(F)) {
    if (!isThreadIndex(I))
      continue;
    Indices.push_back(&I);
    // Registers outside the table (the lane, the warp) count as dimension x.
    const SpecialRegister *R = specialRegisterRead(&I);
    unsigned Dim = R ? R->Dim : 0;
    L.ThreadDims = std::max(L.ThreadDims, Dim + 1);
    if (R && !R->Index && !R->OfGrid)
      ReadsBlockDim[Dim] = true;
    if (R && R->Index && R->OfGrid)
      if (uint64_t Scale = blockScale(I))
        Scales[Dim] = Scales[Dim] && Scales[Dim] != Scale ? UINT64_MAX : Scale;
  }
  // A kernel that reads blockDim adapts to any block; one that scales its
  // block index by a constant takes that many threads per block.
  uint64_t Threads = 1;
  for (unsigned D = 0; D < 3; ++D) {
    uint64_t Scale = ReadsBlockDim[D] || Scales[D] > 1024 ? 0 : Scales[D];
    L.FixedBlock[D] = Scale;
    Threads *= Scale ? Scale : 1;
  }
  if (Threads > 1024)
    L.FixedBlock = {0, 0, 0};
  SmallPtrSet<const Value *, 32> FromThreads = derivedFrom(Indices);
  SmallPtrSet<const Value *, 8> LoopExits = loopExitComparisons();
  for (const Argument &A : F.args()) {
    if (!A.getType()->isIntegerTy())
      continue;
    bool Extent = false, LoopBound = false;
    for (const Value *V : derivedFrom({&A}))
      for (const User *U : V->users())
        if (const auto *Cmp = dyn_cast<ICmpInst>(U)) {
          Extent |= FromThreads.count(Cmp->getOperand(0) == V
                                          ? Cmp->getOperand(1)
                                          : Cmp->getOperand(0)) != 0;
          LoopBound |= LoopExits.count(Cmp) != 0;
        }
    if (Extent)
      L.ExtentParams.push_back(A.getArgNo());
    else if (LoopBound)
      L.LoopBoundParams.push_back(A.getArgNo());
  }
}

/// The comparisons a branch that leaves a loop decides by: its condition,
/// or those it is computed from (computesFrom, bounded).
SmallPtrSet<const Value *, 8> LayoutBuilder::loopExitComparisons() const {
  // LoopInfo reads the function; it changes nothing.
  DominatorTree DT(const_cast<Function &>(F));
  LoopInfo LI(DT);
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<const Value *, 16> Work;
  for (const Loop *Lp : LI.getLoopsInPreorder()) {
    SmallVector<BasicBlock *, 4> Exiting;
    Lp->getExitingBlocks(Exiting);
    for (const BasicBlock *BB : Exiting)
      if (const auto *Br = dyn_cast<BranchInst>(BB->getTerminator()))
        if (Br->isConditional() && Seen.insert(Br->getCondition()).second)
          Work.push_back(Br->getCondition());
  }
  SmallPtrSet<const Value *, 8> Comparisons;
  while (!Work.empty() && Seen.size() < 4096) {
    const Value *V = Work.pop_back_val();
    if (isa<ICmpInst>(V))
      Comparisons.insert(V);
    else if (computesFrom(V))
      for (const Value *Op : cast<User>(V)->operands())
        if (Seen.insert(Op).second)
          Work.push_back(Op);
  }
  return Comparisons;
}

/// How a Julia argument or an LLVM parameter takes part in lining the two
/// up: ghosts and composites (Julia) and aggregates (LLVM) are left out,
/// since which composite is a ghost the name does not say.
enum class ArgKind { Skip, Array, Pointer, Number };

ArgKind kindOf(const JuliaType &J) {
  static constexpr StringLiteral Numbers[] = {
      "Int64", "UInt64", "Int32", "UInt32",  "Int16",   "UInt16", "Int8",
      "UInt8", "Bool",   "Char",  "Float16", "Float32", "Float64"};
  if (J.Literal)
    return ArgKind::Skip;
  if (isJuliaDeviceArray(J))
    return ArgKind::Array;
  if (juliaElementType(J))
    return ArgKind::Pointer;
  return is_contained(Numbers, J.Name) && J.Params.empty() ? ArgKind::Number
                                                           : ArgKind::Skip;
}

ArgKind kindOf(Type *T) {
  if (matchArray(T))
    return ArgKind::Array;
  return isAggregateType(T) ? ArgKind::Skip : ArgKind::Number;
}

/// Whether Julia number type \p Name is passed as \p T.
bool passedAs(StringRef Name, Type *T) {
  unsigned Bits = T->isIntegerTy() ? T->getIntegerBitWidth() : 0;
  if (Name == "Float16" || Name == "Float32" || Name == "Float64")
    return (Name == "Float16" && T->isHalfTy()) ||
           (Name == "Float32" && T->isFloatTy()) ||
           (Name == "Float64" && T->isDoubleTy());
  if (Name == "Bool")
    return Bits == 1 || Bits == 8;
  unsigned Want = Name.ends_with("64")   ? 64
                  : Name.ends_with("32") ? 32
                  : Name.ends_with("16") ? 16
                  : Name == "Char"       ? 32
                                         : 8;
  return Bits == Want;
}

/// Per LLVM parameter, the element type the name gives it, when the name's
/// arrays, pointers and numbers line up one to one with the parameters'
/// arrays and scalars (parameters before \p First are left out).
std::optional<std::map<unsigned, std::string>>
elementsNamed(const Function &F, ArrayRef<JuliaType> Args, unsigned First) {
  SmallVector<const JuliaType *, 8> Julia;
  for (const JuliaType &J : Args)
    if (kindOf(J) != ArgKind::Skip)
      Julia.push_back(&J);
  SmallVector<std::pair<unsigned, Type *>, 8> Params;
  for (unsigned I = First; I < F.arg_size(); ++I) {
    const Argument *A = F.getArg(I);
    Type *T = passedType(*A);
    if (kindOf(T) != ArgKind::Skip)
      Params.push_back({I, T});
  }
  if (Julia.size() != Params.size())
    return std::nullopt;
  std::map<unsigned, std::string> Named;
  for (size_t I = 0; I < Julia.size(); ++I) {
    const JuliaType &J = *Julia[I];
    auto [Param, T] = Params[I];
    ArgKind K = kindOf(J);
    bool Fits = K == ArgKind::Array     ? kindOf(T) == ArgKind::Array
                : K == ArgKind::Pointer ? T->isPointerTy() || T->isIntegerTy(64)
                                        : passedAs(J.Name, T);
    if (!Fits)
      return std::nullopt;
    if (std::optional<std::string> E = juliaElementType(J))
      Named[Param] = *E;
  }
  return Named;
}

/// The element types the kernel's name gives its whole-parameter arrays and
/// pointers, read in each mangling that lines up with the parameters; none
/// where two readings disagree.
void LayoutBuilder::readJuliaElements(unsigned First) {
  std::optional<std::map<unsigned, std::string>> Found;
  for (JuliaMangling D : {JuliaMangling::AllTypes, JuliaMangling::NamesOnly}) {
    std::optional<std::vector<JuliaType>> Args =
        demangleJuliaArguments(F.getName(), D);
    std::optional<std::map<unsigned, std::string>> Named =
        Args ? elementsNamed(F, *Args, First) : std::nullopt;
    if (Named && Found && *Named != *Found)
      return;
    if (Named)
      Found = std::move(Named);
  }
  if (Found)
    JuliaElements = std::move(*Found);
}

void LayoutBuilder::describe() {
  unsigned First = 0;
  if (F.arg_size() && isKernelState(*F.getArg(0))) {
    assignPerDim(Loc{0, {}}, LeafRole::State);
    First = 1;
  }
  describeKernelAbstractions();
  readJuliaElements(First);
  SmallVector<Type *, 8> Fields;
  SmallVector<Loc, 8> Locs;
  for (unsigned I = First; I < F.arg_size(); ++I) {
    if (static_cast<int>(I) == KAParam)
      continue;
    const Argument *A = F.getArg(I);
    Fields.push_back(passedType(*A));
    Locs.push_back(Loc{I, {}});
  }
  if (L.KernelAbstractions || !visitBroadcast(Fields, Locs, 0))
    for (size_t I = 0; I < Fields.size(); ++I)
      visit(Fields[I], Locs[I], false, 0);
  describeThreads();
  for (LayoutArray &A : L.Arrays) {
    unsigned Param = L.Leaves[A.Data].Param;
    auto It = JuliaElements.find(Param);
    if (It != JuliaElements.end() && A.Path == std::to_string(Param))
      A.JuliaElement = It->second;
  }
}

} // namespace

Expected<KernelLayout> describeKernelLayout(const Function &F,
                                            StringRef InputName) {
  assert(!F.isDeclaration() && "needs the kernel's body");
  KernelLayout L;
  LayoutBuilder B(F, L);
  if (Error E = B.collect(InputName))
    return E;
  B.describe();
  return L;
}

} // namespace irs
