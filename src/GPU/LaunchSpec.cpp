//===- LaunchSpec.cpp - Parsing and validating gpu-check launch specs -----===//
#include "ir-sanitize/GPU/LaunchSpec.h"

#include "ir-sanitize/Support/BoundedJSON.h"
#include "ir-sanitize/Support/ToolError.h"

#include "ir-sanitize/Support/InputFile.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace llvm;

namespace irs {

const BufferSpec *LaunchSpec::findBuffer(StringRef Name) const {
  for (const BufferSpec &B : Buffers)
    if (B.Name == Name)
      return &B;
  return nullptr;
}

const LeafValue *LaunchSpec::findArg(StringRef Path) const {
  for (const auto &[P, V] : Args)
    if (P == Path)
      return &V;
  return nullptr;
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

/// Reads the JSON fields of one buffer; the error names the buffer.
class SpecParser {
public:
  explicit SpecParser(StringRef File) : File(File) {}
  Expected<LaunchSpec> parse(const json::Value &V);

private:
  StringRef File;
  Error parseGeometry(const json::Object &O, LaunchSpec &S);
  Error parseBuffer(StringRef Name, const json::Value &V, BufferSpec &B);
  Error parseArg(StringRef Path, const json::Value &V, LeafValue &L);
  Error parseTolerances(const json::Object &O, LaunchSpec &S);
  Error parseDim3(const json::Object &O, StringRef Key, uint64_t (&D)[3]);
  Error checkTotalBytes(const LaunchSpec &S);
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

Error SpecParser::parseGeometry(const json::Object &O, LaunchSpec &S) {
  bool HasThreads = O.get("threads"), HasGrid = O.get("grid");
  if (HasThreads == (HasGrid || O.get("block")))
    return specError(File, "give either 'threads' or 'grid' and 'block'");
  if (HasThreads) {
    std::optional<uint64_t> N = O.get("threads")->getAsUINT64();
    if (!N || *N == 0 || *N > plan::MaxThreads)
      return specError(File, "'threads' must be an integer from 1 to " +
                                 Twine(plan::MaxThreads));
    S.Threads = *N;
    return Error::success();
  }
  uint64_t Grid[3], Block[3];
  if (Error E = parseDim3(O, "grid", Grid))
    return E;
  if (Error E = parseDim3(O, "block", Block))
    return E;
  if (const char *Problem = plan::checkGeometry(Grid, Block))
    return specError(File, Problem);
  for (int I = 0; I < 3; ++I) {
    S.Grid[I] = static_cast<unsigned>(Grid[I]); // in range: checked above
    S.Block[I] = static_cast<unsigned>(Block[I]);
  }
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
  auto Type = lookupName<ElementType>(O->getString("type"));
  if (!Type)
    return specError(File,
                     Where + "'type' must be " + spellingList<ElementType>());
  B.Type = *Type;
  const json::Value *Count = O->get("count");
  std::optional<uint64_t> N = Count ? Count->getAsUINT64() : std::nullopt;
  if (!N || *N == 0)
    return specError(File, Where + "'count' must be a positive integer");
  B.Count = *N;
  auto Init = O->get("init") ? lookupName<BufferInit>(O->getString("init"))
                             : BufferInit::Zero;
  if (!Init)
    return specError(File,
                     Where + "'init' must be " + spellingList<BufferInit>());
  B.Init = *Init;
  const json::Value *Seed = O->get("seed");
  std::optional<uint64_t> SeedValue = Seed ? Seed->getAsUINT64() : 0;
  if (!SeedValue)
    return specError(File, Where + "'seed' must be an integer from 0 to " +
                               Twine(UINT64_MAX));
  B.Seed = *SeedValue;
  B.Output = O->getBoolean("output").value_or(false);
  B.Wrt = O->getBoolean("wrt").value_or(false);
  for (const auto &KV : *O)
    if (!is_contained(ArrayRef<StringRef>{"type", "count", "init", "seed",
                                          "output", "wrt"},
                      StringRef(KV.first)))
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

Error SpecParser::checkTotalBytes(const LaunchSpec &S) {
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
  if (Error E = Positive(O, "fd_step", S.FdStep))
    return E;
  if (!O.get("tolerance"))
    return Error::success();
  const json::Object *T = O.getObject("tolerance");
  if (!T)
    return specError(File, "'tolerance' must be an object");
  if (Error E = Positive(*T, "forward", S.ForwardTolerance))
    return E;
  return Positive(*T, "reverse", S.ReverseTolerance);
}

Expected<LaunchSpec> SpecParser::parse(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return specError(File, "a launch spec must be a JSON object");
  for (const auto &KV : *O)
    if (!is_contained(ArrayRef<StringRef>{"threads", "grid", "block", "buffers",
                                          "args", "checks", "fd_step",
                                          "tolerance"},
                      StringRef(KV.first)))
      return specError(File, "unknown field '" + KV.first.str() + "'");
  LaunchSpec S;
  if (Error E = parseGeometry(*O, S))
    return E;
  const json::Object *Buffers = O->getObject("buffers");
  if (!Buffers || Buffers->empty())
    return specError(File, "'buffers' must be a non-empty object");
  for (const auto &KV : *Buffers) {
    S.Buffers.emplace_back();
    if (Error E = parseBuffer(KV.first, KV.second, S.Buffers.back()))
      return E;
  }
  llvm::sort(S.Buffers, [](const BufferSpec &A, const BufferSpec &B) {
    return A.Name < B.Name;
  });
  if (Error E = checkTotalBytes(S))
    return E;
  if (const json::Object *Args = O->getObject("args"))
    for (const auto &KV : *Args) {
      S.Args.emplace_back(KV.first.str(), LeafValue());
      if (Error E = parseArg(KV.first, KV.second, S.Args.back().second))
        return E;
    }
  else if (O->get("args"))
    return specError(File, "'args' must be an object");
  llvm::sort(S.Args,
             [](const auto &A, const auto &B) { return A.first < B.first; });
  StringRef Checks = O->getString("checks").value_or("all");
  if (Checks != "all" && Checks != "primal")
    return specError(File, "'checks' must be \"all\" or \"primal\"");
  S.DerivativeChecks = Checks == "all";
  if (Error E = parseTolerances(*O, S))
    return E;
  return S;
}

} // namespace

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
    O["threads"] = Threads;
  } else {
    O["grid"] = json::Array(Grid);
    O["block"] = json::Array(Block);
  }
  json::Object Bufs;
  for (const BufferSpec &B : Buffers) {
    json::Object J{{"type", spelling(B.Type)},
                   {"count", B.Count},
                   {"init", spelling(B.Init)}};
    if (B.Seed)
      J["seed"] = B.Seed;
    if (B.Output)
      J["output"] = true;
    if (B.Wrt)
      J["wrt"] = true;
    Bufs[B.Name] = std::move(J);
  }
  O["buffers"] = std::move(Bufs);
  json::Object ArgValues;
  for (const auto &[Path, V] : Args)
    ArgValues[Path] = V.K == LeafValue::Buffer
                          ? json::Value("buffer:" + V.BufferName)
                      : V.K == LeafValue::Integer ? json::Value(V.Int)
                                                  : json::Value(V.Real);
  O["args"] = std::move(ArgValues);
  O["checks"] = DerivativeChecks ? "all" : "primal";
  if (FdStep)
    O["fd_step"] = *FdStep;
  json::Object Tolerance;
  if (ForwardTolerance)
    Tolerance["forward"] = *ForwardTolerance;
  if (ReverseTolerance)
    Tolerance["reverse"] = *ReverseTolerance;
  if (!Tolerance.empty())
    O["tolerance"] = std::move(Tolerance);
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
