//===- LaunchInferenceFuzzer.cpp - `gpu-check --dims` on random kernels ---===//
//
// The input drives a generator: a kernel whose parameters are random
// aggregates (device arrays of every known layout, Extruded, axes, tuples,
// scalars, raw pointers, nested to a few levels) whose body loads or stores
// through each address, named now and then in GPUCompiler's mangling (the
// element types read from it, right or wrong) with its first parameter
// named `state`, and random --dims, --set and --wrt. Whatever the
// inference answers, it never crashes; a launch it infers always passes the
// spec validation against the kernel's leaves (no buffer smaller than what
// its leaves declare) and survives a round trip through its JSON; the proof
// that gates every plan (GPU/LaunchBounds.h) decides on it without crashing
// and refuses in one line.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/GPU/LaunchBounds.h"
#include "ir-sanitize/GPU/LaunchInference.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Verifier.h"

#include <iterator>

using namespace llvm;

namespace {

struct Bytes {
  const uint8_t *Data;
  size_t Size;
  uint8_t next() {
    if (!Size)
      return 0;
    --Size;
    return *Data++;
  }
};

class KernelGenerator {
public:
  KernelGenerator(Bytes &B, LLVMContext &Ctx) : B(B), Ctx(Ctx) {}

  Type *type(unsigned Depth) {
    Type *I64 = Type::getInt64Ty(Ctx), *I8 = Type::getInt8Ty(Ctx);
    Type *Ptr = PointerType::get(Ctx, 1);
    unsigned N = 1 + B.next() % 3;
    switch (B.next() % (Depth > 3 ? 6 : 12)) {
    case 0:
      return Ptr;
    case 1:
      return I64;
    case 2:
      return I8;
    case 3:
      return Type::getInt32Ty(Ctx);
    case 4:
      return Type::getFloatTy(Ctx);
    case 5:
      return Type::getDoubleTy(Ctx);
    case 6:
      return array(N, B.next() % 3);
    case 7:
      return StructType::get(array(N, 0), ArrayType::get(I8, N),
                             ArrayType::get(I64, N));
    case 8: {
      Type *Stop = B.next() & 1 ? static_cast<Type *>(ArrayType::get(I64, 1))
                                : StructType::get(I64);
      return ArrayType::get(Stop, N);
    }
    case 9:
      return ArrayType::get(type(Depth + 1), B.next() % 4);
    default: {
      SmallVector<Type *, 4> Fields;
      for (unsigned I = 0, E = B.next() % 5; I < E; ++I)
        Fields.push_back(type(Depth + 1));
      return StructType::get(Ctx, Fields);
    }
    }
  }

  /// CUDA.jl 5, CUDA.jl 3 or CUDAnative.
  Type *array(unsigned Rank, unsigned Layout) {
    Type *I64 = Type::getInt64Ty(Ctx);
    Type *Dims = ArrayType::get(I64, Rank), *Ptr = PointerType::get(Ctx, 1);
    if (Layout == 0)
      return StructType::get(Ptr, I64, Dims, I64);
    if (Layout == 1)
      return StructType::get(Ptr, I64, Dims);
    return StructType::get(Dims, StructType::get(I64));
  }

  /// Each address leaf loaded or stored at the thread index (as a float,
  /// double, i64 or Dual-like pair); each integer leaf now and then a bound.
  void body(Function &F) {
    IRBuilder<> IR(BasicBlock::Create(Ctx, "entry", &F));
    Value *Tid = IR.CreateZExt(
        IR.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {}),
        IR.getInt64Ty());
    const DataLayout &DL = F.getParent()->getDataLayout();
    for (Argument &A : F.args()) {
      SmallVector<irs::AggregateLeaf, 16> Leaves;
      irs::collectLeaves(A.getType(), DL, Leaves, {256, 16});
      for (const irs::AggregateLeaf &L : Leaves)
        use(IR, L.Path.empty() ? &A : IR.CreateExtractValue(&A, L.Path), Tid);
    }
    IR.CreateRetVoid();
  }

private:
  Bytes &B;
  LLVMContext &Ctx;

  void use(IRBuilder<> &IR, Value *V, Value *Tid) {
    uint8_t How = B.next();
    if (V->getType()->isIntegerTy(64) && How % 4 == 0) {
      IR.CreateICmpSLT(Tid, V); // an extent (kept: its use is what counts)
      return;
    }
    if (!V->getType()->isPointerTy() &&
        !(V->getType()->isIntegerTy(64) && How % 4 == 1))
      return;
    Value *P = V->getType()->isPointerTy()
                   ? V
                   : IR.CreateIntToPtr(V, PointerType::get(Ctx, 1));
    Type *Elements[] = {
        IR.getFloatTy(), IR.getDoubleTy(), IR.getInt64Ty(),
        StructType::get(IR.getFloatTy(), ArrayType::get(IR.getFloatTy(), 1))};
    Type *T = Elements[(How >> 2) % 4];
    Value *Addr = IR.CreateGEP(T, P, Tid);
    if (How & 0x40)
      IR.CreateStore(Constant::getNullValue(T), Addr);
    else
      IR.CreateLoad(T, Addr);
  }
};

/// A GPUCompiler-style name for parameters \p Params, each argument picked
/// by \p B: mostly what the parameter is (an array, a Ptr, its number type),
/// now and then a ghost, another type or a dangling substitution, in
/// either dialect: what the element types are read from.
std::string mangledName(Bytes &B, ArrayRef<Type *> Params) {
  static const char *const Elements[] = {"7Float32", "7Float64", "5Int64",
                                         "5Int32",   "5UInt8",   "7Float16"};
  std::string Name = "_Z4kern";
  for (Type *T : Params) {
    uint8_t How = B.next();
    if (How % 8 == 7) // a ghost before it
      Name += "15CuKernelContext";
    std::string E = Elements[(How >> 3) % std::size(Elements)];
    if (How % 16 == 15)
      Name += "S" + std::to_string(How % 5) + "_";
    else if (auto *S = dyn_cast<StructType>(T); S && S->getNumElements() >= 2)
      Name += "13CuDeviceArrayI" + E + "Li1ELi1EE";
    else if (T->isPointerTy() || (T->isIntegerTy(64) && How & 0x80))
      Name += How & 0x40 ? "P" + E : "3PtrI" + E + "E";
    else if (T->isFloatTy() || T->isDoubleTy())
      Name += T->isFloatTy() ? "7Float32" : "7Float64";
    else if (T->isIntegerTy())
      Name += T->isIntegerTy(64) ? "5Int64" : "5Int32";
    else
      Name += "5TupleI5Int64E";
  }
  return Name;
}

/// The manifest of \p F splatted fully: one parameter per leaf.
irs::KernelManifest leafManifest(Function &F) {
  irs::KernelManifest K;
  K.Name = F.getName().str();
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (Argument &A : F.args()) {
    SmallVector<irs::AggregateLeaf, 16> Leaves;
    irs::collectLeaves(A.getType(), DL, Leaves);
    for (const irs::AggregateLeaf &L : Leaves) {
      irs::ManifestParam P;
      P.Index = K.Params.size();
      raw_string_ostream(P.Type) << *L.Ty;
      P.OrigIndex = A.getArgNo();
      P.Path.assign(L.Path.begin(), L.Path.end());
      P.Offset = L.Offset;
      P.Size = L.Size;
      P.Pointer = L.Ty->isPointerTy();
      K.Params.push_back(std::move(P));
    }
  }
  return K;
}

/// A leaf path of \p K (or a prefix of one, or a word), then \p Suffixes'
/// pick: mostly what the flags accept, now and then not.
std::string word(Bytes &B, const irs::KernelManifest &K,
                 ArrayRef<const char *> Suffixes) {
  static const char *const Words[] = {"all", "none", "x", "dest", "=", ""};
  std::string W = Words[B.next() % std::size(Words)];
  if (!K.Params.empty() && B.next() % 4) {
    W = K.Params[B.next() % K.Params.size()].pathString();
    if (B.next() & 1 && W.find('.') != std::string::npos)
      W = W.substr(0, W.rfind('.'));
  }
  return W + Suffixes[B.next() % Suffixes.size()];
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Bytes B{Data, Size};
  LLVMContext Ctx;
  Module M("fuzz", Ctx);
  M.setDataLayout("e-i64:64-i128:128-v16:16-v32:32-n16:32:64");
  M.setTargetTriple("nvptx64-nvidia-cuda");
  KernelGenerator G(B, Ctx);
  SmallVector<Type *, 6> Params;
  for (unsigned I = 0, E = B.next() % 6; I < E; ++I)
    Params.push_back(G.type(0));
  // (One name, split in parentheses: clang warns of a missing comma.)
  static const char *const Names[] = {
      ("_Z3gpu_16CompilerMetadataI11DynamicSize7NDRangeILi1ES0_10StaticSizeI6_"
       "256__EvEE"),
      "_Z3gpu_16CompilerMetadataI10StaticSizeI5_64__E",
      "_Z3gpu_16CompilerMetadataI11DynamicSize7NDRangeILi2ES0_S0_EE",
      // Every size static, as GPUCompiler mangles it; then sizes that
      // overflow a block count or a 32-bit grid.
      ("_Z16gpu_halo_kernel_16CompilerMetadataI10StaticSizeI6_8__8_E12DynamicC"
       "heckvv7NDRangeILi2ES0_I6_1__1_ES1_vvEE"),
      ("_Z2k_16CompilerMetadataI10StaticSizeI23_18446744073709551615__E12Dynam"
       "icCheckvv7NDRangeILi1ES0_I4_1__ES0_I23_18446744073709551615__EvvEE"),
      ("_Z2k_16CompilerMetadataI10StaticSizeI13_4294967296__E12DynamicCheckvv7"
       "NDRangeILi1ES0_I13_4294967296__ES0_I4_1__EvvEE"),
      "k"};
  constexpr unsigned Plain = std::size(Names) - 1;
  uint8_t Name = B.next();
  Function *F =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), Params, false),
                       GlobalValue::ExternalLinkage,
                       Name < 120   ? Names[Plain]
                       : Name < 240 ? mangledName(B, Params)
                                    : Names[Name % Plain],
                       M);
  if (F->arg_size() && B.next() % 4 == 0)
    F->getArg(0)->setName("state"); // CUDA.jl's kernel state, any shape
  F->setCallingConv(CallingConv::PTX_Kernel);
  G.body(*F);
  if (verifyModule(M, &errs()))
    irs::fuzz::fail("the generator made an invalid module");
  irs::KernelManifest K = leafManifest(*F);
  irs::LaunchRequest R;
  uint8_t Rank = B.next();
  for (unsigned I = 0, E = Rank < 128 ? 1 : 1 + Rank % 3; I < E; ++I)
    R.Dims.push_back(1 + B.next() % 64);
  for (unsigned I = 0, E = B.next() % 8 / 5; I < E; ++I)
    R.Sets.push_back(
        word(B, K,
             {"=1", "=0.5", "=ones", "=range", "=range1", "=segments",
              ".dims=4", ".dims=2x2", "=", "=1e999", "=-3"}));
  if (B.next() % 4 == 0)
    R.Wrt = std::vector<std::string>{word(B, K, {"", "", ",all", ".0"})};
  Expected<irs::InferredLaunch> L = irs::inferLaunch(*F, R, "fuzz.ll");
  if (!L) {
    consumeError(L.takeError());
    return 0;
  }
  if (Error E = irs::validateSpec(L->Spec, K, "fuzz.ll"))
    irs::fuzz::fail("an inferred launch fails the spec validation: " +
                    toString(std::move(E)));
  Expected<irs::LaunchSpec> Again =
      irs::LaunchSpec::fromJSON(L->Spec.toJSON(), "again");
  if (!Again)
    irs::fuzz::fail("an inferred spec does not read back: " +
                    toString(Again.takeError()));
  std::string A, C;
  raw_string_ostream(A) << L->Spec.toJSON();
  raw_string_ostream(C) << Again->toJSON();
  if (A != C)
    irs::fuzz::fail("an inferred spec changes when read back");
  std::string Table;
  raw_string_ostream OS(Table);
  L->print(OS);
  // The gate before any plan: the proof that the launch stays in its
  // buffers. It decides without crashing, and a refusal is one line that
  // names the access.
  if (Error E = irs::proveLaunchInBounds(M, F->getName(), L->Spec,
                                         "fuzz.ll (launch)")) {
    std::string Why = toString(std::move(E));
    if (Why.find('\n') != std::string::npos ||
        Why.rfind("fuzz.ll (launch): ", 0) != 0)
      irs::fuzz::fail("a launch refusal is not one line naming the input: " +
                      Why);
  }
  return 0;
}
