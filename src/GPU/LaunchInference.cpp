//===- LaunchInference.cpp - A launch read from the kernel itself ---------===//
#include "ir-sanitize/GPU/LaunchInference.h"

#include "ir-sanitize/Analysis/KernelLayout.h"
#include "ir-sanitize/Support/CheckedArithmetic.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatAdapters.h"
#include "llvm/Support/FormatVariadic.h"

#include <climits>
#include <cmath>

using namespace llvm;

namespace irs {

Expected<std::vector<uint64_t>> parseDims(StringRef Text, StringRef Flag,
                                          size_t MaxSizes) {
  SmallVector<StringRef, 3> Parts;
  Text.split(Parts, 'x');
  std::vector<uint64_t> Dims;
  uint64_t Product = 1;
  for (StringRef P : Parts) {
    uint64_t N;
    if (P.empty() || !all_of(P, isDigit) || P.getAsInteger(10, N) || N == 0 ||
        !checkedMul(Product, N, Product) || Product > plan::MaxThreads)
      break;
    Dims.push_back(N);
  }
  if (Dims.size() != Parts.size() || Dims.size() > MaxSizes)
    return makeToolError(ExitCode::Usage,
                         Flag + (Flag.ends_with("=") ? "" : " ") +
                             escapeForMessage(Text) + ": expected 1 to " +
                             Twine(MaxSizes) +
                             " positive sizes joined by 'x' (e.g. 1048576 or "
                             "1024x1024), at most " +
                             Twine(plan::MaxThreads) + " elements in all");
  return Dims;
}

namespace {

/// What is decided for one array of the layout.
struct ArrayPlan {
  std::vector<uint64_t> Shape;
  bool ShapeGiven = false;
  ElementType Type = ElementType::F32;
  uint64_t ElementBytes = 4, Elements = 0, Count = 0;
  std::string Buffer;
  std::optional<BufferInit> Init; ///< Given with --set.
  bool Written = false, Read = false, Output = false, Wrt = false;
};

bool underPath(StringRef Path, StringRef Prefix) {
  return Path == Prefix ||
         (Path.starts_with(Prefix) && Path[Prefix.size()] == '.');
}

std::string printType(Type *T) {
  std::string S;
  raw_string_ostream OS(S);
  T->print(OS);
  return S;
}

/// The element type the kernel's name gives array \p A, where gpu-check
/// fills that type.
std::optional<ElementType> namedElement(const LayoutArray &A) {
  static const std::pair<StringLiteral, ElementType> Types[] = {
      {"Float32", ElementType::F32}, {"Float64", ElementType::F64},
      {"Int64", ElementType::I64},   {"UInt64", ElementType::I64},
      {"Int32", ElementType::I32},   {"UInt32", ElementType::I32},
      {"UInt8", ElementType::U8},    {"Int8", ElementType::U8},
      {"Bool", ElementType::U8}};
  for (const auto &[Name, Type] : Types)
    if (A.JuliaElement == Name)
      return Type;
  return std::nullopt;
}

/// An array's element type as something other than its accesses says it.
struct DeclaredElement {
  ElementType Type;
  std::string Said; ///< "Float32 elements, as the kernel's name says"
};

/// The kernel's name, else the one floating-point type (f32, f64) its
/// addresses' GEPs index by.
std::optional<DeclaredElement> declaredElement(const LayoutArray &A) {
  if (std::optional<ElementType> Named = namedElement(A))
    return DeclaredElement{*Named, A.JuliaElement +
                                       " elements, as the kernel's name says"};
  const SmallVector<Type *, 1> &Indexed = A.Use.IndexedFloats;
  if (Indexed.size() != 1 ||
      !(Indexed[0]->isFloatTy() || Indexed[0]->isDoubleTy()))
    return std::nullopt;
  ElementType T = Indexed[0]->isFloatTy() ? ElementType::F32 : ElementType::F64;
  return DeclaredElement{T, std::string(spelling(T)) +
                                " elements, as its addresses "
                                "(getelementptr " +
                                printType(Indexed[0]) + ") say"};
}

/// "loads and stores half, float": what the kernel moves through an array.
std::string describeScalars(const ElementUse &U) {
  std::string S = "loads and stores ";
  for (Type *T : U.Scalars)
    S += (T == U.Scalars.front() ? "" : ", ") + printType(T);
  return S;
}

/// The widest integer the kernel moves through an array (0: none).
unsigned accessedBits(const ElementUse &U) {
  unsigned Bits = 0;
  for (Type *T : U.Scalars)
    if (T->isIntegerTy())
      Bits = std::max(Bits, T->getIntegerBitWidth());
  return Bits;
}

/// The element type an array's loads and stores show (f32 where they show
/// none); none where they mix f32 and f64 or move a type gpu-check does not
/// fill.
std::optional<ElementType> accessedType(const ElementUse &U) {
  bool F64 = false, F32 = false, Other = false;
  for (Type *T : U.Scalars) {
    F64 |= T->isDoubleTy();
    F32 |= T->isFloatTy();
    Other |= !T->isIntegerTy() && !T->isDoubleTy() && !T->isFloatTy();
  }
  unsigned IntBits = accessedBits(U);
  if (Other || (F64 && F32) ||
      (!F64 && !F32 && (IntBits == 16 || IntBits > 64)))
    return std::nullopt;
  return F64            ? ElementType::F64
         : F32          ? ElementType::F32
         : IntBits > 32 ? ElementType::I64
         : IntBits > 8  ? ElementType::I32
         : IntBits      ? ElementType::U8
                        : ElementType::F32;
}

uint64_t ceilDiv(uint64_t A, uint64_t B) { return A / B + (A % B != 0); }

/// \p N as an integer leaf value; beyond int64 a number, which the spec's
/// validation refuses by name for an integer leaf.
LeafValue real(double D) {
  LeafValue V;
  V.K = LeafValue::Float;
  V.Real = D;
  return V;
}

LeafValue signedInteger(int64_t I) {
  LeafValue V;
  V.K = LeafValue::Integer;
  V.Int = I;
  return V;
}

LeafValue integer(uint64_t N) {
  return N <= static_cast<uint64_t>(INT64_MAX)
             ? signedInteger(static_cast<int64_t>(N))
             : real(static_cast<double>(N));
}

LeafValue bufferAddress(StringRef Name) {
  LeafValue V;
  V.K = LeafValue::Buffer;
  V.BufferName = Name.str();
  return V;
}

class Inference {
public:
  Inference(const Function &F, const LaunchRequest &R, StringRef Input,
            KernelLayout L)
      : F(F), R(R), Input(escapeForMessage(Input)), L(std::move(L)),
        Plans(this->L.Arrays.size()), Given(this->L.Leaves.size()) {}

  Expected<InferredLaunch> run();

private:
  const Function &F;
  const LaunchRequest &R;
  std::string Input;
  KernelLayout L;
  std::vector<ArrayPlan> Plans;
  std::vector<std::optional<LeafValue>> Given; ///< --set, per leaf.
  std::vector<std::string> Notes;
  bool DerivativeChecks = true;

  Error refuse(int Leaf, const Twine &Why) const {
    return makeToolError(ExitCode::BadInput,
                         Input + ": " + where(Leaf) + ": " + Why);
  }
  Error usage(const Twine &Msg) const {
    return makeToolError(ExitCode::Usage, Msg);
  }
  std::string where(int Leaf) const;
  std::string nameOf(unsigned Param) const { return L.ParamNames[Param]; }
  /// How --set and --wrt name array \p A: its Julia name where it is a
  /// whole named parameter, else its path.
  std::string selectorFor(unsigned A) const {
    const LayoutArray &Arr = L.Arrays[A];
    unsigned Param = L.Leaves[Arr.Data].Param;
    std::string Name = nameOf(Param);
    bool Unique = count(L.ParamNames, Name) == 1;
    return Arr.Path == std::to_string(Param) && !Name.empty() && Unique
               ? escapeForMessage(Name)
               : Arr.Path;
  }

  Expected<std::string> resolve(const std::string &Flag,
                                StringRef Selector) const;
  Expected<SmallVector<unsigned, 4>> arraysNamed(const std::string &Flag,
                                                 StringRef Selector) const;
  Error applySet(StringRef Set);
  Error setShape(const std::string &Flag, StringRef Name, StringRef Value);
  Error setContents(const std::string &Flag, StringRef Name, BufferInit Init);
  Error setLeaf(const std::string &Flag, StringRef Name, StringRef Value);
  Error shapeArrays();
  Error checkBroadcast(unsigned Array);
  Error typeArray(unsigned Array);
  Error chooseActivity();
  Error checkStaticNDRange();
  Error checkUnsupported();
  Error checkExtents();
  std::string unsetBoundsMessage(ArrayRef<int> Unset, bool Raw) const;
  void nameBuffers();
  std::vector<uint64_t> workgroup() const;
  /// The elements --dims gives each array (parseDims bounded the product).
  uint64_t elements() const {
    uint64_t N = 1;
    for (uint64_t D : R.Dims)
      N *= D;
    return N;
  }
  void launch(LaunchSpec &S) const;
  std::vector<BufferSpec> buffers() const;
  std::optional<LeafValue> leafValue(size_t Leaf, unsigned &Floats) const;
  std::vector<LaunchRow> rows(const LaunchSpec &S) const;
};

std::string Inference::where(int Leaf) const {
  if (Leaf < 0)
    return "kernel " + escapeForMessage(F.getName());
  const LayoutLeaf &Lf = L.Leaves[Leaf];
  std::string Name = nameOf(Lf.Param);
  return "leaf " + Lf.path() +
         (Name.empty() ? "" : " (" + escapeForMessage(Name) + ")");
}

/// The leaf-path prefix \p Selector names: a Julia parameter name, a
/// parameter index or a leaf path. Errors start with \p Flag (the flag and
/// its value as given).
Expected<std::string> Inference::resolve(const std::string &Flag,
                                         StringRef Selector) const {
  if (!Selector.empty() &&
      all_of(Selector, [](char C) { return isDigit(C) || C == '.'; })) {
    if (any_of(L.Leaves, [&](const LayoutLeaf &Leaf) {
          return underPath(Leaf.path(), Selector);
        }))
      return Selector.str();
    return usage(Flag + ": no leaf has this path (see --print-launch)");
  }
  std::string Found;
  unsigned Matches = 0;
  for (unsigned I = 0; I < L.ParamNames.size(); ++I)
    if (!L.ParamNames[I].empty() && L.ParamNames[I] == Selector) {
      Found = std::to_string(I);
      ++Matches;
    }
  if (Matches == 1)
    return Found;
  std::string Names;
  for (const std::string &N : L.ParamNames)
    if (!N.empty())
      Names += (Names.empty() ? "" : ", ") + escapeForMessage(N);
  return usage(Flag +
               (Matches ? ": more than one parameter has this name"
                        : ": no parameter has this name") +
               " (names: " + (Names.empty() ? "none" : Names) +
               "; a parameter index or leaf path also works)");
}

/// The arrays \p Selector names: those under its path, or the one holding
/// the leaf it names.
Expected<SmallVector<unsigned, 4>>
Inference::arraysNamed(const std::string &Flag, StringRef Selector) const {
  SmallVector<unsigned, 4> Arrays;
  if (Selector == "all" || Selector == "none") {
    if (Selector == "all")
      for (unsigned I = 0; I < L.Arrays.size(); ++I)
        Arrays.push_back(I);
    return Arrays;
  }
  Expected<std::string> Prefix = resolve(Flag, Selector);
  if (!Prefix)
    return Prefix.takeError();
  for (unsigned I = 0; I < L.Arrays.size(); ++I)
    if (underPath(L.Arrays[I].Path, *Prefix) ||
        underPath(*Prefix, L.Arrays[I].Path))
      Arrays.push_back(I);
  if (Arrays.empty())
    return usage(Flag + ": names no array (see --print-launch)");
  return Arrays;
}

/// --set NAME=VALUE: an array's shape (NAME.dims=AxB) or contents
/// (NAME=zero|random|range|range1|ones|segments), or one leaf's number.
Error Inference::applySet(StringRef Set) {
  auto [Name, Value] = Set.split('=');
  std::string Flag = "--set " + escapeForMessage(Set);
  if (Name.empty() || Set.find('=') == StringRef::npos || Value.empty())
    return usage(Flag + ": expected NAME=VALUE (NAME.dims=AxB, NAME=" +
                 spellingAlternatives<BufferInit>() + ", or a leaf's number)");
  if (Name.consume_back(".dims"))
    return setShape(Flag, Name, Value);
  if (std::optional<BufferInit> Init = parseSpelling<BufferInit>(
          std::string_view(Value.data(), Value.size())))
    return setContents(Flag, Name, *Init);
  return setLeaf(Flag, Name, Value);
}

/// NAME.dims=AxB: the shape of every array NAME covers.
Error Inference::setShape(const std::string &Flag, StringRef Name,
                          StringRef Value) {
  Expected<SmallVector<unsigned, 4>> Arrays = arraysNamed(Flag, Name);
  if (!Arrays)
    return Arrays.takeError();
  size_t Rank = 1;
  for (unsigned A : *Arrays)
    Rank = std::max<size_t>(Rank, L.Arrays[A].Rank);
  Expected<std::vector<uint64_t>> Dims = parseDims(
      Value,
      "--set " + escapeForMessage(Name) + ".dims=", std::max<size_t>(Rank, 3));
  if (!Dims)
    return Dims.takeError();
  for (unsigned A : *Arrays) {
    if (L.Arrays[A].Layout != LayoutArray::Raw &&
        Dims->size() != L.Arrays[A].Rank)
      return usage(Flag + ": array " + L.Arrays[A].Path + " has " +
                   Twine(L.Arrays[A].Rank) + " dimension(s)");
    Plans[A].Shape = *Dims;
    Plans[A].ShapeGiven = true;
  }
  return Error::success();
}

/// NAME=ones (or another fill): the contents of every array NAME covers.
Error Inference::setContents(const std::string &Flag, StringRef Name,
                             BufferInit Init) {
  Expected<SmallVector<unsigned, 4>> Arrays = arraysNamed(Flag, Name);
  if (!Arrays)
    return Arrays.takeError();
  for (unsigned A : *Arrays)
    Plans[A].Init = Init;
  return Error::success();
}

/// NAME=NUMBER: the value of the one scalar leaf NAME names.
Error Inference::setLeaf(const std::string &Flag, StringRef Name,
                         StringRef Value) {
  Expected<std::string> Prefix = resolve(Flag, Name);
  if (!Prefix)
    return Prefix.takeError();
  SmallVector<size_t, 2> Leaves;
  for (size_t I = 0; I < L.Leaves.size(); ++I)
    if (underPath(L.Leaves[I].path(), *Prefix))
      Leaves.push_back(I);
  if (Leaves.size() != 1)
    return usage(Flag + ": names " + Twine(Leaves.size()) +
                 " leaves; a number sets one (see --print-launch)");
  const LayoutLeaf &Leaf = L.Leaves[Leaves[0]];
  if (Leaf.Role == LeafRole::Data || Leaf.Role == LeafRole::RawPointer)
    return usage(Flag + ": leaf " + Leaf.path() +
                 " is an array's address; set its contents with NAME=" +
                 spellingAlternatives<BufferInit>());
  int64_t Int;
  double Real;
  if (!Value.getAsInteger(10, Int) && Leaf.Ty->isIntegerTy())
    Given[Leaves[0]] = signedInteger(Int);
  else if (Leaf.Ty->isFloatingPointTy() && to_float(Value, Real) &&
           std::isfinite(Real))
    Given[Leaves[0]] = real(Real);
  else
    return usage(Flag + ": leaf " + Leaf.path() + " holds " +
                 (Leaf.Ty->isIntegerTy() ? "an integer" : "a finite number"));
  return Error::success();
}

/// Every array's shape: --dims, or its own from --set; a lower-rank
/// argument of a broadcast of --dims' rank takes the leading sizes.
Error Inference::shapeArrays() {
  size_t Rank = R.Dims.size();
  if (L.BroadcastRank && L.BroadcastRank != Rank)
    return refuse(-1, "a " + Twine(L.BroadcastRank) +
                          "-D broadcast, but --dims gives " + Twine(Rank) +
                          " size(s): give " + Twine(L.BroadcastRank) +
                          " sizes to --dims");
  for (unsigned A = 0; A < L.Arrays.size(); ++A) {
    const LayoutArray &Arr = L.Arrays[A];
    ArrayPlan &P = Plans[A];
    if (P.ShapeGiven) {
    } else if (Arr.Layout == LayoutArray::Raw || Arr.Rank == Rank) {
      P.Shape = R.Dims;
    } else if (Arr.InBroadcast && Arr.Rank < Rank) {
      P.Shape.assign(R.Dims.begin(), R.Dims.begin() + Arr.Rank);
    } else {
      return refuse(
          Arr.Data,
          "a " + Twine(Arr.Rank) + "-D array, but --dims gives " + Twine(Rank) +
              " size(s): give its shape with --set " + selectorFor(A) +
              ".dims=" + join(SmallVector<std::string, 3>(Arr.Rank, "N"), "x") +
              (Arr.Rank <= 3
                   ? ", or --dims with " + Twine(Arr.Rank) + " size(s)"
                   : Twine()));
    }
    P.Elements = 1;
    for (uint64_t D : P.Shape)
      if (!checkedMul(P.Elements, D, P.Elements))
        return refuse(Arr.Data, "its shape overflows");
    if (Error E = checkBroadcast(A))
      return E;
    if (Error E = typeArray(A))
      return E;
  }
  return Error::success();
}

/// An argument of a broadcast matches the axes in every dimension where it
/// is kept, and is 1 where it is not (its keeps say which).
Error Inference::checkBroadcast(unsigned A) {
  const LayoutArray &Arr = L.Arrays[A];
  const ArrayPlan &P = Plans[A];
  if (!Arr.InBroadcast || !L.BroadcastRank)
    return Error::success();
  for (size_t D = 0; D < P.Shape.size(); ++D) {
    uint64_t Axis = D < R.Dims.size() ? R.Dims[D] : 1;
    if (P.Shape[D] == Axis)
      continue;
    if (P.Shape[D] == 1 && D < Arr.Keeps.size())
      continue; // not kept: its default index 1
    return refuse(
        Arr.Data,
        "shape " +
            join(map_range(P.Shape,
                           [](uint64_t N) { return std::to_string(N); }),
                 "x") +
            " does not broadcast against --dims (each "
            "size must be the broadcast's or 1" +
            (Arr.Keeps.empty()
                 ? ", and this array has no keeps: the broadcast's"
                 : "") +
            ")");
  }
  return Error::success();
}
/// The element type from the loads and stores, its size from the stride
/// the indices show: a Dual { float, [1 x float] } is 8 bytes of f32.
Error Inference::typeArray(unsigned A) {
  const LayoutArray &Arr = L.Arrays[A];
  ArrayPlan &P = Plans[A];
  const ElementUse &U = Arr.Use;
  std::optional<ElementType> Accessed = accessedType(U);
  if (!Accessed)
    return refuse(Arr.Data, "elements of a type gpu-check does not fill (" +
                                describeScalars(U) +
                                "; f32, f64, i32, i64 or u8 only): give a "
                                "--spec");
  P.Type = *Accessed;
  bool Float = isFloatElement(P.Type);
  if (std::optional<DeclaredElement> Declared = declaredElement(Arr)) {
    // The name or the address arithmetic fills in what the accesses do not
    // show: no access, or floats moved as integers of their width (never
    // an index array's values).
    bool Moved = !Float && accessedBits(U) == 8 * elementSize(Declared->Type) &&
                 isFloatElement(Declared->Type) && !U.ValuesIndexAddresses;
    if (U.Scalars.empty() || Moved) {
      P.Type = Declared->Type;
      Notes.push_back("array " + Arr.Path + ": " + Declared->Said +
                      (Moved ? " (it moves them as integers)" : ""));
    }
  } else if (U.Scalars.empty()) {
    Notes.push_back("array " + Arr.Path +
                    " is never loaded or stored: f32 elements assumed");
  }
  uint64_t Size = elementSize(P.Type);
  P.ElementBytes = std::max({U.Stride, U.AccessBytes, Size});
  if (P.ElementBytes % Size)
    return refuse(Arr.Data, "its accesses (" + Twine(U.AccessBytes) +
                                " bytes, stride " + Twine(U.Stride) +
                                ") are no whole number of " + spelling(P.Type) +
                                " elements: give a --spec");
  if (!checkedMul(P.Elements, P.ElementBytes / Size, P.Count))
    return refuse(Arr.Data, "its size overflows");
  if (!isFloatElement(P.Type) && U.ValuesIndexAddresses && !P.Init)
    return refuse(Arr.Data,
                  "an integer array whose values the kernel uses as indices "
                  "(random ones would read out of bounds): give --set " +
                      selectorFor(A) + "=ones (every index 1; " +
                      (U.IndicesOneBased
                           ? "=range1 counts from 1: the kernel takes 1 off, "
                             "as Julia's 1-based indices"
                           : "=range counts from 0") +
                      ") or a --spec");
  return Error::success();
}

/// Written arrays are outputs; read-only float arrays, or those --wrt
/// names, are differentiated.
Error Inference::chooseActivity() {
  std::vector<bool> Selected(L.Arrays.size(), false);
  if (R.Wrt)
    for (const std::string &Sel : *R.Wrt) {
      Expected<SmallVector<unsigned, 4>> Arrays =
          arraysNamed("--wrt " + escapeForMessage(Sel), Sel);
      if (!Arrays)
        return Arrays.takeError();
      for (unsigned A : *Arrays) {
        if (Sel == "all") { // every float array the kernel reads
          std::optional<MemoryAccess> M = L.Arrays[A].Access;
          Selected[A] = isFloatElement(Plans[A].Type) &&
                        (!M || (static_cast<uint8_t>(*M) & 1));
          continue;
        }
        if (!isFloatElement(Plans[A].Type))
          return usage("--wrt " + escapeForMessage(Sel) + ": array " +
                       L.Arrays[A].Path + " holds " + spelling(Plans[A].Type) +
                       "; only f32 and f64 arrays can be differentiated");
        Selected[A] = true;
      }
    }
  bool AnyWrt = false, AnyFloatOutput = false;
  for (unsigned A = 0; A < L.Arrays.size(); ++A) {
    ArrayPlan &P = Plans[A];
    std::optional<MemoryAccess> M = L.Arrays[A].Access;
    auto Has = [&](MemoryAccess Bit) {
      return !M || (static_cast<uint8_t>(*M) & static_cast<uint8_t>(Bit));
    };
    P.Read = Has(MemoryAccess::Read);
    P.Written = Has(MemoryAccess::Write);
    bool Float = isFloatElement(P.Type);
    P.Wrt = Float && (R.Wrt ? Selected[A] : M == MemoryAccess::Read);
    P.Output = P.Written && Float;
    AnyWrt |= P.Wrt;
    AnyFloatOutput |= P.Output;
  }
  DerivativeChecks = AnyWrt && AnyFloatOutput;
  if (!DerivativeChecks) {
    Notes.push_back(
        AnyFloatOutput ? "no array is differentiated: primal check only"
                       : "the kernel writes no float array: primal check only");
    for (ArrayPlan &P : Plans)
      P.Output = P.Written; // integers are compared too
  }
  if (none_of(Plans, [](const ArrayPlan &P) { return P.Output; }))
    return refuse(-1, "writes no array gpu-check can see: nothing to compare "
                      "(give a --spec)");
  return Error::success();
}

/// A KernelAbstractions ndrange in the kernel's type: launched as its
/// static blocks of its static workgroup, on arrays of its shape.
Error Inference::checkStaticNDRange() {
  const SmallVector<uint64_t, 3> &N = L.StaticNDRangeSizes, &B = L.StaticBlocks,
                                 &W = L.StaticWorkgroup;
  bool Read = !N.empty() && N.size() <= 3 && B.size() == N.size() &&
              W.size() == N.size();
  for (size_t D = 0; Read && D < N.size(); ++D)
    Read = B[D] == ceilDiv(N[D], W[D]);
  bool Metadata = any_of(L.Leaves, [](const LayoutLeaf &Leaf) {
    return Leaf.Role == LeafRole::NDRange || Leaf.Role == LeafRole::Blocks ||
           Leaf.Role == LeafRole::Workgroup;
  });
  if (!Read || Metadata)
    return refuse(-1, "a KernelAbstractions kernel whose ndrange is static "
                      "(in its type) and whose blocks and workgroup are not "
                      "(or not read from its name): give a --spec");
  std::string Shape =
      join(map_range(N, [](uint64_t S) { return std::to_string(S); }), "x");
  if (!equal(N, R.Dims))
    return refuse(-1, "a KernelAbstractions kernel whose ndrange is static, " +
                          Shape + " (in its type): give --dims " + Shape);
  Notes.push_back("the ndrange is static, " + Shape +
                  " (in the kernel's type)");
  return Error::success();
}

/// Leaves whose meaning is not known, and launches the kernel's type fixes.
Error Inference::checkUnsupported() {
  if (L.StaticNDRange)
    if (Error E = checkStaticNDRange())
      return E;
  for (size_t I = 0; I < L.Leaves.size(); ++I) {
    const LayoutLeaf &Leaf = L.Leaves[I];
    if (Leaf.Role == LeafRole::Unknown)
      return refuse(
          static_cast<int>(I),
          "an address inside an aggregate of a shape gpu-check does "
          "not know (parameter type " +
              escapeForMessage(printType(F.getArg(Leaf.Param)->getType())) +
              "): give a --spec");
  }
  if (!L.KernelAbstractions && L.ThreadDims > R.Dims.size()) {
    static const char *const Axis[] = {"x", "y", "z"};
    // Launched in fewer dimensions, its other indices would stay 0: the
    // launch would cover a line or a plane of what it indexes.
    return refuse(-1, "reads " + Twine(Axis[L.ThreadDims - 1]) +
                          " thread or block indices (a " + Twine(L.ThreadDims) +
                          "-D launch), but --dims gives " +
                          Twine(R.Dims.size()) + " size(s): give --dims with " +
                          Twine(L.ThreadDims) +
                          " sizes, one per launch dimension, or a --spec");
  }
  if (!L.KernelAbstractions)
    return Error::success();
  int First = -1;
  size_t Rank = 0;
  for (size_t I = 0; I < L.Leaves.size(); ++I)
    if (L.Leaves[I].Role == LeafRole::NDRange) {
      First = First < 0 ? static_cast<int>(I) : First;
      ++Rank;
    }
  if (Rank && Rank != R.Dims.size())
    return refuse(First,
                  "a " + Twine(Rank) +
                      "-D KernelAbstractions ndrange, but --dims gives " +
                      Twine(R.Dims.size()) + " size(s)");
  if (workgroup().size() != R.Dims.size())
    return refuse(First, "a static workgroup of " + Twine(workgroup().size()) +
                             " dimension(s), but --dims gives " +
                             Twine(R.Dims.size()) + " size(s)");
  return Error::success();
}

/// A raw pointer's extent is not beside it: where the kernel compares a
/// thread index with an integer parameter, that parameter must be set, and
/// no larger than the buffers. One that bounds a loop must be set too (at
/// 1 the loop would barely run); the bounds proof checks what it reaches.
Error Inference::checkExtents() {
  // Raw pointers' extents are not beside them; device arrays' are, but an
  // explicit `i <= n` bounds the kernel by n all the same (left at 1, the
  // launch would idle).
  bool Raw = any_of(L.Arrays, [](const LayoutArray &A) {
    return A.Layout == LayoutArray::Raw;
  });
  uint64_t Elements = elements();
  std::vector<int> Unset; // named together: the user sets them in one go
  auto Visit = [&](unsigned Param, bool Extent) -> Error {
    int Leaf = L.findLeaf(std::to_string(Param));
    if (Leaf < 0)
      return Error::success();
    if (!Given[Leaf]) {
      Unset.push_back(Leaf);
      return Error::success();
    }
    std::optional<int64_t> V;
    if (Given[Leaf]->K == LeafValue::Integer)
      V = Given[Leaf]->Int;
    if (Extent && (!V || *V < 0 || static_cast<uint64_t>(*V) > Elements))
      return refuse(Leaf, Twine(Raw ? "bounds the raw pointers' indices"
                                    : "bounds the kernel's indices") +
                              ", but " + Twine(V ? *V : -1) + " exceeds the " +
                              Twine(Elements) + " elements each buffer has");
    return Error::success();
  };
  for (unsigned Param : L.ExtentParams)
    if (Error E = Visit(Param, true))
      return E;
  for (unsigned Param : L.LoopBoundParams)
    if (Error E = Visit(Param, false))
      return E;
  if (Unset.empty())
    return Error::success();
  return refuse(Unset.front(), unsetBoundsMessage(Unset, Raw));
}

/// "the kernel ... this integer: give --set n=COUNT ...", for the bounds
/// left unset, the first one's reason first.
std::string Inference::unsetBoundsMessage(ArrayRef<int> Unset, bool Raw) const {
  auto IsExtent = [&](int Leaf) {
    return is_contained(L.ExtentParams, L.Leaves[Leaf].Param);
  };
  bool FirstExtent = IsExtent(Unset.front());
  const char *Reason =
      !FirstExtent ? "bounds a loop by this integer (left at 1, the loop "
                     "would barely run)"
      : Raw        ? "bounds its raw pointers' indices by this integer"
                   : "compares its thread index with this integer (a bound "
                     "of its indices)";
  std::string Flags;
  for (int Leaf : Unset) {
    unsigned Param = L.Leaves[Leaf].Param;
    Flags += (Flags.empty() ? "--set " : " --set ") +
             escapeForMessage(nameOf(Param).empty() ? std::to_string(Param)
                                                    : nameOf(Param)) +
             "=COUNT";
  }
  bool AllExtent = all_of(Unset, IsExtent);
  std::string Limit;
  if (any_of(Unset, IsExtent))
    Limit = std::string(Unset.size() == 1 ? " (at most "
                        : AllExtent       ? " (each at most "
                                          : " (the index bounds at most ") +
            std::to_string(elements()) +
            ", the elements --dims gives each buffer)";
  return "the kernel " + std::string(Reason) +
         (Unset.size() > 1
              ? " and " + std::to_string(Unset.size() - 1) + " more"
              : "") +
         ": give " + Flags + Limit + " or a --spec";
}
/// A whole named parameter's array is called by its Julia name; the others
/// (and names taken twice) by their path.
void Inference::nameBuffers() {
  for (unsigned A = 0; A < L.Arrays.size(); ++A) {
    StringRef Path = L.Arrays[A].Path;
    unsigned Param = L.Leaves[L.Arrays[A].Data].Param;
    bool Whole = Path == std::to_string(Param);
    std::string Name = Whole ? nameOf(Param) : "";
    bool Taken =
        any_of(Plans, [&](const ArrayPlan &P) { return P.Buffer == Name; });
    Plans[A].Buffer = Name.empty() || Taken ? "arg" + Path.str() : Name;
  }
}

/// KernelAbstractions' workgroup: the static one, else 256 threads.
std::vector<uint64_t> Inference::workgroup() const {
  if (!L.StaticWorkgroup.empty())
    return {L.StaticWorkgroup.begin(), L.StaticWorkgroup.end()};
  static const std::vector<uint64_t> Default[] = {{256}, {16, 16}, {8, 8, 4}};
  return Default[R.Dims.size() - 1];
}

/// Every element one thread: `threads` for a linear kernel, a grid of
/// 16x16 blocks where it reads y thread indices, and KernelAbstractions'
/// blocks of its workgroup (launched linearly: it decodes them itself).
/// A block size the kernel hard-codes (KernelLayout's FixedBlock) is kept:
/// its indices assume it.
void Inference::launch(LaunchSpec &S) const {
  uint64_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  if (L.KernelAbstractions) {
    std::vector<uint64_t> W = workgroup();
    for (size_t D = 0; D < R.Dims.size() && D < W.size(); ++D) {
      Grid[0] *= ceilDiv(R.Dims[D], W[D]);
      Block[0] *= W[D];
    }
  } else if (L.ThreadDims > 1 && R.Dims.size() > 1) {
    const uint64_t Tile[3] = {16, 16, 1};
    const uint64_t Cube[3] = {8, 8, 4};
    for (size_t D = 0; D < R.Dims.size(); ++D)
      Block[D] = L.FixedBlock[D]      ? L.FixedBlock[D]
                 : R.Dims.size() == 3 ? Cube[D]
                                      : Tile[D];
    // The free sizes give way to the hard-coded ones: at most 1024 threads.
    for (size_t D = 0; D < 3; ++D)
      while (!L.FixedBlock[D] && Block[D] > 1 &&
             Block[0] * Block[1] * Block[2] > 1024)
        Block[D] /= 2;
    for (size_t D = 0; D < R.Dims.size(); ++D)
      Grid[D] = ceilDiv(R.Dims[D], Block[D]);
  } else if (L.FixedBlock[0] && L.FixedBlock[0] != 256) {
    Block[0] = L.FixedBlock[0];
    Grid[0] = ceilDiv(elements(), Block[0]);
  } else {
    S.Threads = elements();
    return;
  }
  // Within CUDA's limits or refused by checkLaunchSpec: saturated, never
  // wrapped, on the way.
  for (int D = 0; D < 3; ++D) {
    S.Grid[D] = static_cast<unsigned>(std::min<uint64_t>(Grid[D], UINT_MAX));
    S.Block[D] = static_cast<unsigned>(std::min<uint64_t>(Block[D], UINT_MAX));
  }
}

std::vector<BufferSpec> Inference::buffers() const {
  std::vector<BufferSpec> Buffers;
  for (unsigned A = 0; A < Plans.size(); ++A) {
    const ArrayPlan &P = Plans[A];
    BufferSpec B;
    B.Name = P.Buffer;
    B.Type = P.Type;
    B.Count = P.Count;
    B.Init = P.Init ? *P.Init : P.Read ? BufferInit::Random : BufferInit::Zero;
    if (B.Init == BufferInit::Random)
      B.Seed = A + 1;
    B.Output = P.Output;
    B.Wrt = P.Wrt;
    Buffers.push_back(std::move(B));
  }
  return Buffers;
}

/// The value of leaf \p I; nothing leaves it zero. \p Floats counts the
/// float scalars so far (each gets the next of 0.5, 1.0, 1.5, ...).
std::optional<LeafValue> Inference::leafValue(size_t I,
                                              unsigned &Floats) const {
  const LayoutLeaf &Leaf = L.Leaves[I];
  if (Given[I])
    return *Given[I];
  const ArrayPlan *P = Leaf.Array >= 0 ? &Plans[Leaf.Array] : nullptr;
  switch (Leaf.Role) {
  case LeafRole::Data:
  case LeafRole::RawPointer:
    return bufferAddress(P->Buffer);
  case LeafRole::MaxSize:
    return integer(P->Elements * P->ElementBytes);
  case LeafRole::Dim:
    return integer(Leaf.Dim < P->Shape.size() ? P->Shape[Leaf.Dim] : 1);
  case LeafRole::Len:
    return integer(P->Elements);
  case LeafRole::Keep:
    return integer(P && Leaf.Dim < P->Shape.size() &&
                           Leaf.Dim < R.Dims.size() &&
                           P->Shape[Leaf.Dim] != R.Dims[Leaf.Dim]
                       ? 0
                       : 1);
  case LeafRole::Default:
    return integer(1);
  case LeafRole::Axis:
  case LeafRole::NDRange:
    return integer(Leaf.Dim < R.Dims.size() ? R.Dims[Leaf.Dim] : 1);
  case LeafRole::Blocks:
    return integer(ceilDiv(R.Dims[Leaf.Dim], workgroup()[Leaf.Dim]));
  case LeafRole::Workgroup:
    return integer(workgroup()[Leaf.Dim]);
  case LeafRole::Scalar:
    if (Leaf.Ty->isIntegerTy())
      return integer(1);
    if (Leaf.Ty->isFloatingPointTy())
      return real(0.5 * ++Floats);
    return std::nullopt;
  case LeafRole::State:
  case LeafRole::Unknown:
    return std::nullopt;
  }
  return std::nullopt;
}
std::vector<LaunchRow> Inference::rows(const LaunchSpec &S) const {
  std::vector<LaunchRow> Rows;
  for (const LayoutLeaf &Leaf : L.Leaves) {
    LaunchRow Row;
    Row.Leaf = Leaf.path();
    Row.Name =
        nameOf(Leaf.Param).empty() ? "-" : escapeForMessage(nameOf(Leaf.Param));
    Row.Kind = spelling(Leaf.Role);
    Row.Type = printType(Leaf.Ty);
    const LeafValue *V = S.findArg(Row.Leaf);
    Row.Value = V ? formatv("{0}", toJSON(*V)).str() : "0";
    if (V && V->K == LeafValue::Buffer)
      Row.Value = "buffer:" + V->BufferName;
    if (Leaf.Role == LeafRole::Data || Leaf.Role == LeafRole::RawPointer) {
      const ArrayPlan &P = Plans[Leaf.Array];
      Row.Activity = P.Wrt && P.Output ? "wrt, output"
                     : P.Wrt           ? "wrt"
                     : P.Output        ? "output"
                                       : "const";
    }
    Rows.push_back(std::move(Row));
  }
  return Rows;
}

Expected<InferredLaunch> Inference::run() {
  if (R.Dims.empty() || R.Dims.size() > 3)
    return usage("--dims needs 1 to 3 sizes");
  for (const std::string &Set : R.Sets)
    if (Error E = applySet(Set))
      return E;
  if (Error E = checkUnsupported())
    return E;
  if (Error E = shapeArrays())
    return E;
  if (Error E = checkExtents())
    return E;
  if (Error E = chooseActivity())
    return E;
  nameBuffers();
  // The model itself, held to the rules a spec read from a file obeys.
  InferredLaunch Out;
  LaunchSpec &S = Out.Spec;
  launch(S);
  S.Buffers = buffers();
  unsigned Floats = 0;
  for (size_t I = 0; I < L.Leaves.size(); ++I)
    if (std::optional<LeafValue> V = leafValue(I, Floats))
      S.Args.emplace_back(L.Leaves[I].path(), std::move(*V));
  S.DerivativeChecks = DerivativeChecks;
  S.sortByName();
  if (Error E = checkLaunchSpec(S, Input + " (inferred launch)"))
    return E;
  Out.Rows = rows(S);
  Out.Notes = std::move(Notes);
  return Out;
}

} // namespace

void InferredLaunch::print(raw_ostream &OS) const {
  if (Spec.Threads)
    OS << "launch: threads " << Spec.Threads << "\n";
  else
    OS << formatv("launch: grid {0}x{1}x{2}, block {3}x{4}x{5}\n", Spec.Grid[0],
                  Spec.Grid[1], Spec.Grid[2], Spec.Block[0], Spec.Block[1],
                  Spec.Block[2]);
  OS << "checks: " << (Spec.DerivativeChecks ? "all" : "primal") << "\n";
  for (const BufferSpec &B : Spec.Buffers)
    OS << "buffer " << B.Name << ": " << spelling(B.Type) << " x " << B.Count
       << ", " << spelling(B.Init)
       << (B.Init == BufferInit::Random
               ? " (seed " + std::to_string(B.Seed) + ")"
               : "")
       << (B.Wrt ? ", wrt" : "") << (B.Output ? ", output" : "") << "\n";
  std::vector<LaunchRow> All = {
      {"LEAF", "NAME", "KIND", "TYPE", "VALUE", "ACTIVITY"}};
  All.insert(All.end(), Rows.begin(), Rows.end());
  size_t W[5] = {0, 0, 0, 0, 0};
  for (const LaunchRow &Row : All) {
    const std::string *Cells[5] = {&Row.Leaf, &Row.Name, &Row.Kind, &Row.Type,
                                   &Row.Value};
    for (int C = 0; C < 5; ++C)
      W[C] = std::max(W[C], Cells[C]->size());
  }
  for (const LaunchRow &Row : All) {
    std::string Line =
        formatv("{0} {1} {2} {3} {4} {5}",
                fmt_align(Row.Leaf, AlignStyle::Left, W[0]),
                fmt_align(Row.Name, AlignStyle::Left, W[1]),
                fmt_align(Row.Kind, AlignStyle::Left, W[2]),
                fmt_align(Row.Type, AlignStyle::Left, W[3]),
                fmt_align(Row.Value, AlignStyle::Left, W[4]), Row.Activity)
            .str();
    OS << StringRef(Line).rtrim() << "\n";
  }
}

Expected<InferredLaunch> inferLaunch(const Function &Kernel,
                                     const LaunchRequest &Request,
                                     StringRef InputName) {
  Expected<KernelLayout> L = describeKernelLayout(Kernel, InputName);
  if (!L)
    return L.takeError();
  return Inference(Kernel, Request, InputName, std::move(*L)).run();
}

} // namespace irs
