//===- LaunchSpec.cpp - Parsing and validating gpu-check launch specs -----===//
#include "ir-sanitize/GPU/LaunchSpec.h"

#include "ir-sanitize/Support/BoundedJSON.h"
#include "ir-sanitize/Support/ToolError.h"

#include "ir-sanitize/Support/InputFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace irs {

// Binary searches: the spec keeps both sorted (sortByName), and the driver
// looks a leaf up per parameter (10,000 pointer parameters: 40,000 leaves).
const BufferSpec *LaunchSpec::findBuffer(StringRef Name) const {
  auto It = llvm::partition_point(
      Buffers, [&](const BufferSpec &B) { return StringRef(B.Name) < Name; });
  return It != Buffers.end() && It->Name == Name ? &*It : nullptr;
}

const LeafValue *LaunchSpec::findArg(StringRef Path) const {
  auto It = llvm::partition_point(
      Args, [&](const auto &A) { return StringRef(A.first) < Path; });
  return It != Args.end() && It->first == Path ? &It->second : nullptr;
}

void LaunchSpec::sortByName() {
  llvm::sort(Buffers, [](const BufferSpec &A, const BufferSpec &B) {
    return A.Name < B.Name;
  });
  llvm::sort(Args,
             [](const auto &A, const auto &B) { return A.first < B.first; });
}

LeafKind leafKind(const ManifestParam &P) {
  StringRef T = P.Type;
  if (P.Pointer || T.starts_with("ptr"))
    return LeafKind::Pointer;
  if (T == "half" || T == "bfloat" || T == "float" || T == "double")
    return LeafKind::Float;
  unsigned Bits;
  if (T.consume_front("i") && !T.getAsInteger(10, Bits) && Bits <= 64)
    return LeafKind::Integer;
  return LeafKind::Unsupported;
}

namespace {

Error specError(StringRef File, const Twine &Msg) {
  return makeToolError(ExitCode::BadInput, File + ": " + Msg);
}

namespace key = plan::key;

/// Whether \p Key is one of \p Keys.
template <size_t N> bool isKey(const char *const (&Keys)[N], StringRef Key) {
  return llvm::any_of(Keys, [&](const char *K) { return Key == K; });
}

/// Reads the JSON fields of one buffer; the error names the buffer.
class SpecParser {
public:
  explicit SpecParser(StringRef File) : File(File) {}
  Expected<LaunchSpec> parse(const json::Value &V);

private:
  StringRef File;
  Error parseGeometry(const json::Object &O, LaunchSpec &S);
  Error parseBuffers(const json::Value *V, LaunchSpec &S);
  Error parseBuffer(StringRef Name, const json::Value &V, BufferSpec &B);
  Error parseArg(StringRef Path, const json::Value &V, LeafValue &L);
  Error parseTolerances(const json::Object &O, LaunchSpec &S);
  Error parseDim3(const json::Object &O, StringRef Key, uint64_t (&D)[3]);
};

Error SpecParser::parseDim3(const json::Object &O, StringRef Key,
                            uint64_t (&D)[3]) {
  const json::Array *A = O.getArray(Key);
  if (!A || A->empty() || A->size() > 3)
    return specError(File, "'" + Key + "' must be an array of 1 to 3 sizes");
  for (size_t I = 0; I < 3; ++I) {
    std::optional<uint64_t> N =
        I < A->size() ? (*A)[I].getAsUINT64() : std::optional<uint64_t>(1);
    if (!N || *N == 0)
      return specError(File, "'" + Key + "' sizes must be positive integers");
    D[I] = *N;
  }
  return Error::success();
}

Error checkThreads(uint64_t N, StringRef File) {
  if (N == 0 || N > plan::MaxThreads)
    return specError(File, Twine("'") + key::Threads +
                               "' must be an integer from 1 to " +
                               Twine(plan::MaxThreads));
  return Error::success();
}

Error SpecParser::parseGeometry(const json::Object &O, LaunchSpec &S) {
  bool HasThreads = O.get(key::Threads), HasGrid = O.get(key::Grid);
  if (HasThreads == (HasGrid || O.get(key::Block)))
    return specError(File, "give either 'threads' or 'grid' and 'block'");
  if (HasThreads) {
    std::optional<uint64_t> N = O.get(key::Threads)->getAsUINT64();
    if (Error E = checkThreads(N.value_or(0), File))
      return E;
    S.Threads = *N;
    return Error::success();
  }
  uint64_t Grid[3], Block[3];
  if (Error E = parseDim3(O, key::Grid, Grid))
    return E;
  if (Error E = parseDim3(O, key::Block, Block))
    return E;
  if (const char *Problem = plan::checkGeometry(Grid, Block))
    return specError(File, Problem);
  for (int I = 0; I < 3; ++I) {
    S.Grid[I] = static_cast<unsigned>(Grid[I]); // in range: checked above
    S.Block[I] = static_cast<unsigned>(Block[I]);
  }
  return Error::success();
}

/// "buffers": the plan's array of objects with a name, or the earlier object
/// keyed by name.
Error SpecParser::parseBuffers(const json::Value *V, LaunchSpec &S) {
  if (const json::Object *ByName = V ? V->getAsObject() : nullptr) {
    for (const auto &KV : *ByName) {
      S.Buffers.emplace_back();
      if (Error E = parseBuffer(KV.first, KV.second, S.Buffers.back()))
        return E;
    }
  } else if (const json::Array *List = V ? V->getAsArray() : nullptr) {
    StringSet<> Names;
    for (const json::Value &B : *List) {
      const json::Object *O = B.getAsObject();
      std::optional<StringRef> Name =
          O ? O->getString(key::Name) : std::nullopt;
      if (!Name || Name->empty())
        return specError(File, "each element of 'buffers' must be an object "
                               "with a non-empty \"name\"");
      if (!Names.insert(*Name).second)
        return specError(File, "buffer '" + *Name + "' is given twice");
      S.Buffers.emplace_back();
      if (Error E = parseBuffer(*Name, B, S.Buffers.back()))
        return E;
    }
  }
  if (S.Buffers.empty())
    return specError(File, "'buffers' must be a non-empty array (or object)");
  return Error::success();
}

template <typename Enum>
std::optional<Enum> lookupName(std::optional<StringRef> Name) {
  return Name
             ? parseSpelling<Enum>(std::string_view(Name->data(), Name->size()))
             : std::nullopt;
}

Error SpecParser::parseBuffer(StringRef Name, const json::Value &V,
                              BufferSpec &B) {
  const json::Object *O = V.getAsObject();
  std::string Where = ("buffer '" + Name + "': ").str();
  if (!O)
    return specError(File, Where + "must be an object");
  B.Name = Name.str();
  if (std::optional<StringRef> Named = O->getString(key::Name);
      Named && *Named != Name)
    return specError(File, Where + "'name' differs from the key it is under");
  auto Type = lookupName<ElementType>(O->getString(key::Type));
  if (!Type)
    return specError(File,
                     Where + "'type' must be " + spellingList<ElementType>());
  B.Type = *Type;
  const json::Value *Count = O->get(key::Count);
  std::optional<uint64_t> N = Count ? Count->getAsUINT64() : std::nullopt;
  if (!N || *N == 0)
    return specError(File, Where + "'count' must be a positive integer");
  B.Count = *N;
  auto Init = O->get(key::Init)
                  ? lookupName<BufferInit>(O->getString(key::Init))
                  : BufferInit::Zero;
  if (!Init)
    return specError(File,
                     Where + "'init' must be " + spellingList<BufferInit>());
  B.Init = *Init;
  const json::Value *Seed = O->get(key::Seed);
  std::optional<uint64_t> SeedValue = Seed ? Seed->getAsUINT64() : 0;
  if (!SeedValue)
    return specError(File, Where + "'seed' must be an integer from 0 to " +
                               Twine(UINT64_MAX));
  B.Seed = *SeedValue;
  B.Output = O->getBoolean(key::Output).value_or(false);
  B.Wrt = O->getBoolean(key::Wrt).value_or(false);
  for (const auto &KV : *O)
    if (!isKey(plan::BufferKeys, KV.first))
      return specError(File, Where + "unknown field '" + KV.first.str() + "'");
  return Error::success();
}

/// Whether the number \p V is held as an integer. llvm::json keeps an
/// integer literal beyond int64/uint64 as a double, and getAsInteger() would
/// then round -9223372036854775809 to INT64_MIN; such a value prints in
/// floating-point notation, an integer one does not.
bool holdsInteger(const json::Value &V) {
  if (!V.getAsInteger())
    return false;
  std::string Printed;
  raw_string_ostream(Printed) << V;
  return Printed.find_first_of(".eE") == std::string::npos;
}

Error checkTotalBytes(const LaunchSpec &S, StringRef File) {
  uint64_t Total = 0;
  for (const BufferSpec &B : S.Buffers)
    if (!plan::addBufferBytes(B.Type, B.Count, Total))
      return specError(File, "buffer '" + B.Name + "': " + Twine(B.Count) +
                                 " " + spelling(B.Type) +
                                 " elements exceed the limit of " +
                                 Twine(plan::MaxTotalBufferBytes) +
                                 " bytes for all buffers together");
  return Error::success();
}

Error SpecParser::parseArg(StringRef Path, const json::Value &V, LeafValue &L) {
  if (std::optional<StringRef> S = V.getAsString()) {
    if (!S->starts_with("buffer:") || S->size() == 7)
      return specError(File, "args: '" + Path +
                                 "': a string value must be \"buffer:NAME\"");
    L.K = LeafValue::Buffer;
    L.BufferName = S->drop_front(7).str();
  } else if (holdsInteger(V)) {
    L.K = LeafValue::Integer;
    L.Int = *V.getAsInteger();
  } else if (std::optional<double> D = V.getAsNumber()) {
    if (!std::isfinite(*D))
      return specError(File, "args: '" + Path + "': value must be finite");
    L.K = LeafValue::Float;
    L.Real = *D;
  } else {
    return specError(File, "args: '" + Path +
                               "': value must be \"buffer:NAME\" or a number");
  }
  return Error::success();
}

Error SpecParser::parseTolerances(const json::Object &O, LaunchSpec &S) {
  auto Positive = [&](const json::Object &Obj, StringRef Key,
                      std::optional<double> &Out) -> Error {
    if (!Obj.get(Key))
      return Error::success();
    std::optional<double> D = Obj.getNumber(Key);
    if (!D || !(*D > 0) || !std::isfinite(*D))
      return specError(File, "'" + Key + "' must be a positive number");
    Out = D;
    return Error::success();
  };
  if (Error E = Positive(O, key::FdStep, S.FdStep))
    return E;
  if (!O.get(key::Tolerance))
    return Error::success();
  const json::Object *T = O.getObject(key::Tolerance);
  if (!T)
    return specError(File, "'tolerance' must be an object");
  if (Error E = Positive(*T, key::Forward, S.ForwardTolerance))
    return E;
  return Positive(*T, key::Reverse, S.ReverseTolerance);
}

Expected<LaunchSpec> SpecParser::parse(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return specError(File, "a launch spec must be a JSON object");
  for (const auto &KV : *O)
    if (!isKey(plan::SpecKeys, KV.first))
      return specError(File, "unknown field '" + KV.first.str() + "'");
  LaunchSpec S;
  if (Error E = parseGeometry(*O, S))
    return E;
  if (Error E = parseBuffers(O->get(key::Buffers), S))
    return E;
  S.sortByName();
  if (Error E = checkTotalBytes(S, File))
    return E;
  if (const json::Object *Args = O->getObject(key::Args))
    for (const auto &KV : *Args) {
      S.Args.emplace_back(KV.first.str(), LeafValue());
      if (Error E = parseArg(KV.first, KV.second, S.Args.back().second))
        return E;
    }
  else if (O->get(key::Args))
    return specError(File, "'args' must be an object");
  S.sortByName();
  StringRef Checks = O->getString(key::Checks).value_or(plan::ChecksAll);
  if (Checks != plan::ChecksAll && Checks != plan::ChecksPrimal)
    return specError(File, "'checks' must be \"all\" or \"primal\"");
  S.DerivativeChecks = Checks == plan::ChecksAll;
  if (const json::Value *Zero = O->get(key::ZeroDerivative)) {
    std::optional<bool> B = Zero->getAsBoolean();
    if (!B)
      return specError(File, "'zero_derivative' must be true or false");
    if (*B && !S.DerivativeChecks)
      return specError(File, "'zero_derivative' needs \"checks\": \"all\"");
    S.ZeroDerivativeExpected = *B;
  }
  if (Error E = parseTolerances(*O, S))
    return E;
  if (Error E = checkLaunchSpec(S, File))
    return E;
  return S;
}

} // namespace

Error checkLaunchSpec(const LaunchSpec &S, StringRef File) {
  if (S.Threads) {
    if (Error E = checkThreads(S.Threads, File))
      return E;
  } else {
    uint64_t Grid[3], Block[3];
    for (int I = 0; I < 3; ++I) {
      Grid[I] = S.Grid[I];
      Block[I] = S.Block[I];
    }
    if (const char *Problem = plan::checkGeometry(Grid, Block))
      return specError(File, Problem);
  }
  if (S.Buffers.empty())
    return specError(File, "'buffers' must be a non-empty array (or object)");
  for (const BufferSpec &B : S.Buffers)
    if (B.Count == 0)
      return specError(File, "buffer '" + B.Name +
                                 "': 'count' must be a positive integer");
  if (Error E = checkTotalBytes(S, File))
    return E;
  for (const auto &[Path, V] : S.Args)
    if (V.K == LeafValue::Float && !std::isfinite(V.Real))
      return specError(File, "args: '" + Path + "': value must be finite");
  return Error::success();
}

json::Value toJSON(const LeafValue &V) {
  switch (V.K) {
  case LeafValue::Buffer:
    return "buffer:" + V.BufferName;
  case LeafValue::Integer:
    return V.Int;
  case LeafValue::Float:
    return V.Real;
  }
  llvm_unreachable("unknown leaf value kind");
}

Expected<LaunchSpec> LaunchSpec::fromJSON(const json::Value &V,
                                          StringRef File) {
  return SpecParser(File).parse(V);
}

Expected<LaunchSpec> LaunchSpec::readFile(StringRef Path) {
  std::string Text, Problem;
  if (!readInputFile(Path.str(), LaunchSpecInput, Text, Problem))
    return specError(Path, "cannot read the launch spec: " + Problem);
  Expected<json::Value> V = parseBoundedJSON(Text, Path);
  if (!V)
    return V.takeError();
  return fromJSON(*V, Path);
}

json::Value LaunchSpec::toJSON() const {
  json::Object O;
  if (Threads) {
    O[key::Threads] = Threads;
  } else {
    O[key::Grid] = json::Array(Grid);
    O[key::Block] = json::Array(Block);
  }
  // The plan's shape: an array, each buffer with its name.
  json::Array Bufs;
  for (const BufferSpec &B : Buffers) {
    json::Object J{{key::Name, B.Name},
                   {key::Type, spelling(B.Type)},
                   {key::Count, B.Count},
                   {key::Init, spelling(B.Init)}};
    if (B.Seed)
      J[key::Seed] = B.Seed;
    if (B.Output)
      J[key::Output] = true;
    if (B.Wrt)
      J[key::Wrt] = true;
    Bufs.push_back(std::move(J));
  }
  O[key::Buffers] = std::move(Bufs);
  json::Object ArgValues;
  for (const auto &[Path, V] : Args)
    ArgValues[Path] = irs::toJSON(V);
  O[key::Args] = std::move(ArgValues);
  O[key::Checks] = DerivativeChecks ? plan::ChecksAll : plan::ChecksPrimal;
  if (ZeroDerivativeExpected)
    O[key::ZeroDerivative] = true;
  if (FdStep)
    O[key::FdStep] = *FdStep;
  json::Object Tolerance;
  if (ForwardTolerance)
    Tolerance[key::Forward] = *ForwardTolerance;
  if (ReverseTolerance)
    Tolerance[key::Reverse] = *ReverseTolerance;
  if (!Tolerance.empty())
    O[key::Tolerance] = std::move(Tolerance);
  return O;
}

void LaunchSpec::printFile(raw_ostream &OS) const {
  OS << formatv("{0:2}", toJSON()) << "\n";
}

CheckSettings checkSettings(const LaunchSpec &Spec) {
  bool AllDouble = !Spec.Buffers.empty();
  for (const BufferSpec &B : Spec.Buffers)
    if (B.Wrt && B.Type != ElementType::F64)
      AllDouble = false;
  CheckSettings C = defaultCheckSettings(AllDouble);
  C.FdStep = Spec.FdStep.value_or(C.FdStep);
  C.ForwardTolerance = Spec.ForwardTolerance.value_or(C.ForwardTolerance);
  C.ReverseTolerance = Spec.ReverseTolerance.value_or(C.ReverseTolerance);
  return C;
}

const BufferSpec *boundBuffer(const LaunchSpec &Spec, const ManifestParam &P) {
  const LeafValue *V = Spec.findArg(P.pathString());
  return V && V->K == LeafValue::Buffer ? Spec.findBuffer(V->BufferName)
                                        : nullptr;
}

bool isDupLeaf(const LaunchSpec &Spec, const ManifestParam &P) {
  const BufferSpec *B = boundBuffer(Spec, P);
  return B && B->differentiated();
}

bool isOutputOnlyLeaf(const LaunchSpec &Spec, const ManifestParam &P) {
  const BufferSpec *B = boundBuffer(Spec, P);
  return B && B->Output && !B->Wrt;
}

} // namespace irs
