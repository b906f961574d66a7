#include "ir-sanitize/Transforms/KernelSplat.h"
#include "../TestSupport.h"
#include "ir-sanitize/Analysis/AggregateLeaves.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"

#include <cstring>
#include <map>
#include <random>

using namespace llvm;
using namespace irs::test;
using namespace irs;

namespace {

const std::string HostKernels =
    sourcePath("tests/unit/Transforms/Inputs/host_kernels.ll");

std::unique_ptr<Module> load(StringRef Path, LLVMContext &Ctx) {
  Expected<LoadedModule> L = readModule(Path, Ctx);
  if (!L)
    FAIL(toString(L.takeError()));
  return std::move(L->M);
}

/// What a parameter's bytes hold: the value type, or the byval/byref pointee.
Type *storageType(const Argument &A) {
  if (Type *T = A.getParamByValType())
    return T;
  if (Type *T = A.getParamByRefType())
    return T;
  return A.getType();
}

/// The byte offset of \p Path inside \p Ty, computed the way a GEP would,
/// independently of the leaf walk under test.
uint64_t gepOffset(Type *Ty, ArrayRef<unsigned> Path, const DataLayout &DL) {
  LLVMContext &Ctx = Ty->getContext();
  SmallVector<Value *, 8> Indices{ConstantInt::get(Type::getInt64Ty(Ctx), 0)};
  Type *Cur = Ty;
  for (unsigned I : Path) {
    if (auto *ST = dyn_cast<StructType>(Cur)) {
      Indices.push_back(ConstantInt::get(Type::getInt32Ty(Ctx), I));
      Cur = ST->getElementType(I);
    } else {
      Indices.push_back(ConstantInt::get(Type::getInt64Ty(Ctx), I));
      Cur = cast<ArrayType>(Cur)->getElementType();
    }
  }
  return DL.getIndexedOffsetInType(Ty, Indices);
}

/// Bytes of \p Ty that hold no data (struct gaps and tails, recursively).
uint64_t paddingBytes(Type *Ty, const DataLayout &DL) {
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    uint64_t Fields = 0, Inner = 0;
    for (Type *E : ST->elements()) {
      Fields += DL.getTypeAllocSize(E);
      Inner += paddingBytes(E, DL);
    }
    return DL.getTypeAllocSize(ST) - Fields + Inner;
  }
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return AT->getNumElements() * paddingBytes(AT->getElementType(), DL);
  return DL.getTypeAllocSize(Ty) - DL.getTypeStoreSize(Ty);
}

/// One launch's argument bytes, as a GPU driver sees them: every original
/// argument in its own buffer, pointers inside them aimed at float arrays.
class LaunchArgs {
public:
  static constexpr uint64_t N = 48;

  /// Integer leaves default to N (lengths, dims, defaults), i8 to 1 (keep);
  /// \p Overrides maps "argno.path" to another integer value.
  LaunchArgs(const Function &K,
             const std::map<std::string, uint64_t> &Overrides) {
    const DataLayout &DL = K.getParent()->getDataLayout();
    std::mt19937 Rng(42);
    std::uniform_real_distribution<float> Dist(-1.0f, 1.0f);
    for (const Argument &A : K.args()) {
      Type *Ty = storageType(A);
      Bytes.emplace_back((DL.getTypeAllocSize(Ty) + 7) / 8,
                         0xABABABABABABABABull);
      SmallVector<AggregateLeaf, 16> Leaves;
      REQUIRE(collectLeaves(Ty, DL, Leaves) == LeafWalk::Complete);
      for (const AggregateLeaf &L : Leaves) {
        std::string Key = std::to_string(A.getArgNo());
        if (!L.Path.empty())
          Key += "." + joinPath(L.Path);
        auto *At = reinterpret_cast<char *>(Bytes.back().data()) +
                   gepOffset(Ty, L.Path, DL);
        if (L.Ty->isPointerTy()) {
          Arrays.emplace_back(2 * N);
          for (float &F : Arrays.back())
            F = Dist(Rng);
          ArrayOf[Key] = Arrays.size() - 1;
          void *P = Arrays.back().data();
          std::memcpy(At, &P, sizeof P);
        } else if (L.Ty->isFloatTy()) {
          float F = 1.5f;
          std::memcpy(At, &F, 4);
        } else {
          REQUIRE(L.Ty->isIntegerTy());
          auto It = Overrides.find(Key);
          uint64_t V = It != Overrides.end()   ? It->second
                       : L.Ty->isIntegerTy(8)  ? 1
                       : L.Ty->isIntegerTy(64) ? N
                                               : 0;
          std::memcpy(At, &V, L.Size); // little-endian host
        }
      }
    }
    Initial = Arrays;
  }

  std::vector<void *> originalParams() {
    std::vector<void *> P;
    for (auto &B : Bytes)
      P.push_back(B.data());
    return P;
  }

  /// new_params[k] = orig_params[OrigIndex] + Offset, as the manifest says.
  std::vector<void *> splatParams(const KernelManifest &K) {
    std::vector<void *> P;
    for (const ManifestParam &MP : K.Params)
      P.push_back(reinterpret_cast<char *>(Bytes.at(MP.OrigIndex).data()) +
                  MP.Offset);
    return P;
  }

  void resetArrays() {
    for (size_t I = 0; I != Arrays.size(); ++I)
      std::copy(Initial[I].begin(), Initial[I].end(), Arrays[I].begin());
  }

  /// Bit-exact comparison (NaN-safe).
  static bool sameBits(const std::vector<std::vector<float>> &A,
                       const std::vector<std::vector<float>> &B) {
    if (A.size() != B.size())
      return false;
    for (size_t I = 0; I != A.size(); ++I)
      if (A[I].size() != B[I].size() ||
          std::memcmp(A[I].data(), B[I].data(), A[I].size() * 4))
        return false;
    return true;
  }

  std::vector<std::vector<float>> Arrays, Initial;
  std::map<std::string, size_t> ArrayOf; ///< "argno.path" -> Arrays index.

private:
  std::vector<std::vector<uint64_t>> Bytes;
};

/// `void __irs_launch(ptr params)`: calls \p K with parameter k read from
/// params[k], like a GPU driver's kernelParams; byval/byref parameters get
/// the pointer itself.
void addLauncher(Module &M, Function &K) {
  LLVMContext &Ctx = M.getContext();
  auto *PtrTy = PointerType::get(Ctx, 0);
  Function *L =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), {PtrTy}, false),
                       GlobalValue::ExternalLinkage, "__irs_launch", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", L));
  SmallVector<Value *, 32> Args;
  for (Argument &A : K.args()) {
    Value *Slot =
        B.CreateConstInBoundsGEP1_64(PtrTy, L->getArg(0), A.getArgNo());
    Value *P = B.CreateLoad(PtrTy, Slot);
    bool InMemory = A.hasByValAttr() || A.getParamByRefType();
    Args.push_back(InMemory ? P
                            : B.CreateAlignedLoad(A.getType(), P, Align(1)));
  }
  CallInst *Call = B.CreateCall(&K, Args);
  Call->setAttributes(K.getAttributes());
  B.CreateRetVoid();
}

std::unique_ptr<orc::LLJIT> makeJIT() {
  static bool Initialized = [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)Initialized;
  Expected<std::unique_ptr<orc::LLJIT>> J = orc::LLJITBuilder().create();
  if (!J)
    FAIL(toString(J.takeError()));
  return std::move(*J);
}

/// The host kernels, retargeted to the JIT's triple and data layout so that
/// the manifest's offsets are the ones the compiled code uses.
std::unique_ptr<Module> loadForJIT(LLVMContext &Ctx, const orc::LLJIT &J) {
  std::unique_ptr<Module> M = load(HostKernels, Ctx);
  M->setDataLayout(J.getDataLayout());
  compat::setModuleTriple(*M, J.getTargetTriple());
  return M;
}

void launch(orc::LLJIT &J, std::unique_ptr<Module> M,
            std::unique_ptr<LLVMContext> Ctx, std::vector<void *> &Params) {
  std::string Problems;
  raw_string_ostream OS(Problems);
  INFO(Problems);
  REQUIRE_FALSE(verifyModule(*M, &OS));
  if (Error E =
          J.addIRModule(orc::ThreadSafeModule(std::move(M), std::move(Ctx))))
    FAIL(toString(std::move(E)));
  Expected<orc::ExecutorAddr> Fn = J.lookup("__irs_launch");
  if (!Fn)
    FAIL(toString(Fn.takeError()));
  Fn->toPtr<void (*)(void **)>()(Params.data());
}

struct RunResult {
  std::vector<std::vector<float>> Before, After; ///< Arrays in leaf order.
};

/// Runs \p Kernel before and after the splat on the same argument bytes and
/// requires every array to come out bit-identical.
RunResult checkSameResults(StringRef Kernel,
                           std::map<std::string, uint64_t> Overrides,
                           const SplatOptions &Opts = {}) {
  std::unique_ptr<orc::LLJIT> JOrig = makeJIT(), JSplat = makeJIT();
  auto CtxOrig = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> Orig = loadForJIT(*CtxOrig, *JOrig);
  auto CtxSplat = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> Splat = loadForJIT(*CtxSplat, *JSplat);

  Function *KOrig = Orig->getFunction(Kernel);
  REQUIRE(KOrig);
  LaunchArgs Args(*KOrig, Overrides);
  Expected<LaunchManifest> Manifest = splatKernels(*Splat, Opts);
  if (!Manifest)
    FAIL(toString(Manifest.takeError()));
  const KernelManifest *KM = Manifest->findKernel(Kernel);
  std::vector<void *> OrigParams = Args.originalParams();
  std::vector<void *> SplatParams = KM ? Args.splatParams(*KM) : OrigParams;
  addLauncher(*Orig, *KOrig);
  addLauncher(*Splat, *Splat->getFunction(Kernel));

  launch(*JOrig, std::move(Orig), std::move(CtxOrig), OrigParams);
  RunResult R{Args.Initial, Args.Arrays};
  CHECK_FALSE(LaunchArgs::sameBits(R.After, R.Before)); // it did some work
  Args.resetArrays();
  launch(*JSplat, std::move(Splat), std::move(CtxSplat), SplatParams);
  CHECK(LaunchArgs::sameBits(Args.Arrays, R.After));
  return R;
}

} // namespace

TEST_CASE("Splatted host kernels compute the same bytes through the manifest",
          "[KernelSplat][JIT]") {
  SECTION("x .+ y, y broadcast from its third element") {
    // y: keeps[0] = false, defaults[0] = 3.
    RunResult R =
        checkSameResults("add_1d", {{"2.0.1.1.0", 0}, {"2.0.1.2.0", 3}});
    // Arrays in leaf order: state, dest, x, y.
    for (uint64_t I = 0; I != LaunchArgs::N; ++I)
      REQUIRE(R.After[1][I] == R.Before[2][I] + R.Before[3][2]);
  }
  SECTION("2-D x .+ y with an n x 1 y, read through a spilled Broadcasted") {
    std::map<std::string, uint64_t> Dims{{"1.2.0", 6},       {"1.2.1", 8},
                                         {"2.1.0.0", 6},     {"2.1.1.0", 8},
                                         {"2.0.0.0.2.0", 6}, {"2.0.0.0.2.1", 8},
                                         {"2.0.1.0.2.0", 6}, {"2.0.1.0.2.1", 1},
                                         {"2.0.1.1.1", 0},   {"2.0.1.2.1", 1}};
    checkSameResults("add_2d", Dims);
  }
  SECTION("-b .- b, one array in two leaves") {
    checkSameResults("neg_sub", {});
  }
  SECTION("KernelAbstractions CompilerMetadata") {
    checkSameResults("ka_mul", {{"1.0.0.0.0", 40}});
  }
  SECTION("Dual.(x, true): an i8 leaf next to an array") {
    checkSameResults("dual", {});
  }
  SECTION("byval and byref closures") {
    checkSameResults("add_1d_byval", {});
    checkSameResults("scale_byref", {});
  }
  SECTION("a caller whose calls to two kernels were rewritten") {
    checkSameResults("add_1d_twice", {{"2.0.1.1.0", 0}});
  }
  SECTION("parameters over the leaf limit stay aggregates") {
    SplatOptions Opts;
    Opts.MaxLeavesPerParam = 3;
    checkSameResults("ka_mul", {}, Opts);
  }
}

TEST_CASE("Leaves over the limit keep the parameter whole, with a note",
          "[KernelSplat]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = load(HostKernels, Ctx);
  SplatOptions Opts;
  Opts.Kernels = {"ka_mul"};
  Opts.MaxLeavesPerParam = 3;
  std::vector<std::string> Notes;
  Opts.Note = [&](const Function &, const std::string &N) {
    Notes.push_back(N);
  };
  Expected<LaunchManifest> Manifest = splatKernels(*M, Opts);
  REQUIRE(static_cast<bool>(Manifest));
  REQUIRE(Manifest->Kernels.size() == 1);
  const KernelManifest &K = Manifest->Kernels[0];
  // state (2 leaves), ctx (3 leaves), then z, x, y whole.
  REQUIRE(K.Params.size() == 8);
  CHECK(K.Params[5].Path.empty());
  CHECK(K.Params[5].Type == "%Array1");
  CHECK(K.Params[5].OrigIndex == 2);
  CHECK(K.Params[5].Size == K.OriginalParams[2].Size);
  // One note per array: z, x, y.
  REQUIRE(Notes.size() == 3);
  CHECK(Notes[0] == "kernel 'ka_mul': parameter #2 stays whole: it has more "
                    "than 3 leaves");
  CHECK(Notes[2].find("parameter #4") != std::string::npos);
  // Only the selected kernel changed.
  CHECK(M->getFunction("add_1d")->getArg(1)->getType()->isStructTy());
}

TEST_CASE("A second splat changes nothing", "[KernelSplat]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = load(HostKernels, Ctx);
  Expected<LaunchManifest> First = splatKernels(*M, {});
  REQUIRE(static_cast<bool>(First));
  CHECK(First->Kernels.size() == 7);
  std::string Once = printModule(*M);
  Expected<LaunchManifest> Second = splatKernels(*M, {});
  REQUIRE(static_cast<bool>(Second));
  CHECK(Second->Kernels.empty());
  CHECK(printModule(*M) == Once);
}

TEST_CASE("A module with no aggregate kernel parameter is left as it was",
          "[KernelSplat]") {
  std::string Path = corpusPath("amdgpu_hostcall_kernel_jl1.12_unopt.ll");
  if (!sys::fs::exists(Path))
    IRS_SKIP("corpus not found at " << CorpusDir);
  LLVMContext Ctx;
  std::unique_ptr<Module> M = load(Path, Ctx);
  REQUIRE(findKernels(*M).size() == 1);
  std::string Before = printModule(*M);
  Expected<LaunchManifest> Manifest = splatKernels(*M, {});
  REQUIRE(static_cast<bool>(Manifest));
  CHECK(Manifest->Kernels.empty());
  CHECK(printModule(*M) == Before);
}

TEST_CASE("Naming a kernel that does not exist is a usage error",
          "[KernelSplat]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = load(HostKernels, Ctx);
  SplatOptions Opts;
  Opts.Kernels = {"add_1d", "extruded1"};
  Expected<LaunchManifest> Manifest = splatKernels(*M, Opts);
  REQUIRE_FALSE(static_cast<bool>(Manifest));
  ExitCode Code = ExitCode::Ok;
  std::string Msg;
  handleAllErrors(Manifest.takeError(), [&](const ToolError &E) {
    Code = E.code();
    Msg = E.message();
  });
  CHECK(Code == ExitCode::Usage);
  CHECK(Msg.find("no kernel named 'extruded1'") != std::string::npos);
  CHECK(Msg.find("add_1d, add_1d_byval, scale_byref, add_2d") !=
        std::string::npos);
  // Nothing was rewritten.
  CHECK(M->getFunction("add_1d")->arg_size() == 3);
}

TEST_CASE("Corpus kernels: manifest agrees with the data layout, output "
          "verifies, second run is a no-op",
          "[KernelSplat][corpus]") {
  std::error_code EC;
  if (!sys::fs::is_directory(CorpusDir))
    IRS_SKIP("corpus not found at " << CorpusDir);
  unsigned Parsed = 0, Kernels = 0;
  for (sys::fs::directory_iterator It(CorpusDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (sys::path::extension(It->path()) != ".ll")
      continue;
    LLVMContext Ctx;
    Expected<LoadedModule> L = readModule(It->path(), Ctx);
    if (!L) { // the unrepaired CUDAnative dumps do not parse, by design
      consumeError(L.takeError());
      continue;
    }
    ++Parsed;
    Module &M = *L->M;
    const DataLayout &DL = M.getDataLayout();
    INFO(It->path());
    Expected<LaunchManifest> Plan = planSplat(M, {});
    REQUIRE(static_cast<bool>(Plan));
    for (const KernelManifest &K : Plan->Kernels) {
      ++Kernels;
      Function *F = M.getFunction(K.Name);
      REQUIRE(F);
      for (const ManifestOriginalParam &O : K.OriginalParams) {
        Type *Ty = storageType(*F->getArg(O.Index));
        CHECK(O.Size == DL.getTypeAllocSize(Ty));
        uint64_t LeafBytes = 0, End = 0;
        bool Splatted = false;
        for (const ManifestParam &P : K.Params) {
          if (P.OrigIndex != O.Index || P.Path.empty())
            continue;
          Splatted = true;
          CHECK(P.Offset == gepOffset(Ty, P.Path, DL));
          CHECK(P.Offset >= End); // in order, no overlap
          End = P.Offset + P.Size;
          LeafBytes += P.Size;
        }
        if (Splatted) {
          CHECK(End <= O.Size);
          CHECK(LeafBytes + paddingBytes(Ty, DL) == O.Size);
        }
      }
    }
    Expected<LaunchManifest> Done = splatKernels(M, {});
    REQUIRE(static_cast<bool>(Done));
    CHECK(Done->Kernels.size() == Plan->Kernels.size());
    std::string Problems;
    raw_string_ostream OS(Problems);
    CHECK_FALSE(verifyModule(M, &OS));
    INFO(Problems);
    std::string Once = printModule(M);
    Expected<LaunchManifest> Again = splatKernels(M, {});
    REQUIRE(static_cast<bool>(Again));
    CHECK(Again->Kernels.empty());
    CHECK(printModule(M) == Once);
  }
  CHECK(Parsed >= 20);
  CHECK(Kernels >= 12);
}

TEST_CASE("Planning and summarising change nothing and agree with the splat",
          "[KernelSplat]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = load(HostKernels, Ctx);
  std::string Before = printModule(*M);
  Expected<LaunchManifest> Plan = planSplat(*M, {});
  REQUIRE(static_cast<bool>(Plan));
  Expected<std::vector<KernelSplatSummary>> Summary = summarizeSplat(*M, {});
  REQUIRE(static_cast<bool>(Summary));
  CHECK(printModule(*M) == Before);

  REQUIRE(Summary->size() == Plan->Kernels.size());
  const KernelSplatSummary &Add = Summary->front();
  CHECK(Add.Kernel->getName() == "add_1d");
  using P = std::pair<std::string, int>;
  CHECK(Add.Params ==
        std::vector<P>{{"value", 2}, {"value", 4}, {"value", 13}});
  const KernelSplatSummary &ByVal = (*Summary)[1];
  CHECK(ByVal.Params == std::vector<P>{{"byval", 13}, {"value", 4}});

  Expected<LaunchManifest> Done = splatKernels(*M, {});
  REQUIRE(static_cast<bool>(Done));
  CHECK(formatv("{0}", Done->toJSON()).str() ==
        formatv("{0}", Plan->toJSON()).str());
}

namespace {

/// The .ll files of \p Dir (none when it is missing).
std::vector<std::string> llFilesIn(StringRef Dir) {
  std::vector<std::string> Files;
  for (const std::string &Path : test::entriesOf(Dir))
    if (sys::path::extension(Path) == ".ll")
      Files.push_back(Path);
  return Files;
}

void checkSameOriginal(const ManifestOriginalParam &A,
                       const ManifestOriginalParam &B) {
  CHECK(A.Index == B.Index);
  CHECK(A.Type == B.Type);
  CHECK(A.Size == B.Size);
  CHECK(A.Passing == B.Passing);
}

/// Everything but the index, which the leaves before it shift.
void checkSameParam(const ManifestParam &A, const ManifestParam &B) {
  CHECK(A.Name == B.Name);
  CHECK(A.Type == B.Type);
  CHECK(A.Size == B.Size);
  CHECK(A.Pointer == B.Pointer);
  CHECK(A.AddrSpace == B.AddrSpace);
}

} // namespace

TEST_CASE("An unsplatted kernel is described by the code that describes a "
          "splatted one, on every corpus and example kernel",
          "[KernelSplat][corpus]") {
  std::vector<std::string> Files = llFilesIn(CorpusDir);
  for (const std::string &F : llFilesIn(sourcePath("examples/kernels")))
    Files.push_back(F);
  unsigned Kernels = 0, Splatted = 0;
  for (const std::string &Path : Files) {
    INFO(Path);
    LLVMContext Ctx;
    Expected<LoadedModule> L = readModule(Path, Ctx);
    if (!L) { // the unrepaired CUDAnative dumps do not parse, by design
      consumeError(L.takeError());
      continue;
    }
    Module &M = *L->M;
    // Before: the description of every kernel as it stands agrees with the
    // plan on the original parameters and on every parameter left whole.
    std::map<std::string, KernelManifest> Before;
    for (Function *F : findKernels(M)) {
      ++Kernels;
      KernelManifest U = describeUnsplattedKernel(*F);
      REQUIRE(U.Name == F->getName());
      REQUIRE(U.OriginalParams.size() == F->arg_size());
      REQUIRE(U.Params.size() == F->arg_size());
      for (const ManifestParam &P : U.Params) {
        CHECK(P.Path.empty());
        CHECK(P.Index == P.OrigIndex);
        CHECK(P.Offset == 0);
      }
      Before[U.Name] = std::move(U);
    }
    Expected<LaunchManifest> Plan = planSplat(M, {});
    REQUIRE(static_cast<bool>(Plan));
    for (const KernelManifest &K : Plan->Kernels) {
      const KernelManifest &U = Before.at(K.Name);
      REQUIRE(K.OriginalParams.size() == U.OriginalParams.size());
      for (size_t I = 0; I != K.OriginalParams.size(); ++I)
        checkSameOriginal(K.OriginalParams[I], U.OriginalParams[I]);
      for (const ManifestParam &P : K.Params)
        if (P.Path.empty())
          checkSameParam(P, U.Params[P.OrigIndex]);
    }
    // After: the splatted kernel, described as it stands, has exactly the
    // parameters the manifest lists.
    Expected<LaunchManifest> Done = splatKernels(M, {});
    REQUIRE(static_cast<bool>(Done));
    for (const KernelManifest &K : Done->Kernels) {
      ++Splatted;
      KernelManifest S = describeUnsplattedKernel(*M.getFunction(K.Name));
      REQUIRE(S.Params.size() == K.Params.size());
      for (size_t I = 0; I != K.Params.size(); ++I)
        checkSameParam(K.Params[I], S.Params[I]);
    }
  }
  CHECK(Kernels > 0);
  CHECK(Splatted > 0);
}
