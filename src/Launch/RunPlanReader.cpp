//===- RunPlanReader.cpp - Reading the JSON run plan with nlohmann-json ---===//
//
// The runner runs where there is no LLVM, so the plan is read with
// nlohmann-json. Every number is range-checked: a value out of range is
// rejected, never truncated, saturated or wrapped.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Launch/RunPlan.h"

#include "ir-sanitize/Support/CheckedArithmetic.h"
#include "ir-sanitize/Support/JSONDepth.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

using nlohmann::json;

namespace irs {

const PlannedKernel *RunPlan::kernel(KernelRole Role) const {
  for (const PlannedKernel &K : Kernels)
    if (K.Role == Role)
      return &K;
  return nullptr;
}

size_t RunPlan::bufferIndex(const std::string &Name) const {
  for (size_t I = 0; I < Launch.Buffers.size(); ++I)
    if (Launch.Buffers[I].Name == Name)
      return I;
  return Launch.Buffers.size();
}

namespace {

namespace key = plan::key;

/// "FIELD: problem"; parsePlan turns it into its Error.
struct PlanError : std::runtime_error {
  PlanError(const std::string &Field, const std::string &Problem)
      : std::runtime_error(Field + ": " + Problem) {}
};

std::string member(const std::string &Where, const char *Key) {
  return Where.empty() ? Key : Where + "." + Key;
}

std::string element(const std::string &Where, size_t I) {
  return Where + "[" + std::to_string(I) + "]";
}

/// Readers of one JSON value each, named by the field path for errors.
const json &field(const json &Obj, const std::string &Where, const char *Key) {
  auto It = Obj.find(Key);
  if (It == Obj.end())
    throw PlanError(member(Where, Key), "missing");
  return *It;
}

/// \p V, an object whose keys are all among \p Keys.
template <size_t N>
const json &object(const json &V, const std::string &Where,
                   const char *const (&Keys)[N]) {
  if (!V.is_object())
    throw PlanError(Where.empty() ? "plan" : Where, "must be an object");
  for (const auto &[Key, Value] : V.items()) {
    bool Known = false;
    for (const char *K : Keys)
      Known |= Key == K;
    if (!Known)
      throw PlanError(Where.empty() ? Key : Where + "." + Key, "unknown field");
  }
  return V;
}

const json &array(const json &V, const std::string &Where) {
  if (!V.is_array())
    throw PlanError(Where, "must be an array");
  return V;
}

std::string string(const json &V, const std::string &Where) {
  if (!V.is_string())
    throw PlanError(Where, "must be a string");
  // File and entry names reach C APIs, which would stop at a NUL ("\u0000"
  // in JSON) and use another name than the plan's.
  std::string S = V.get<std::string>();
  if (S.find('\0') != std::string::npos)
    throw PlanError(Where, "contains a NUL byte");
  return S;
}

bool boolean(const json &V, const std::string &Where) {
  if (!V.is_boolean())
    throw PlanError(Where, "must be true or false");
  return V.get<bool>();
}

/// An integer in [Min, Max]. nlohmann keeps integers beyond uint64 (and
/// every literal with a fraction or exponent) as floats; they are rejected.
uint64_t integer(const json &V, const std::string &Where, uint64_t Min,
                 uint64_t Max) {
  if (!V.is_number_unsigned() || V.get<uint64_t>() < Min ||
      V.get<uint64_t>() > Max)
    throw PlanError(Where, "must be an integer from " + std::to_string(Min) +
                               " to " + std::to_string(Max) + ", not " +
                               V.dump());
  return V.get<uint64_t>();
}

double positive(const json &V, const std::string &Where) {
  if (!V.is_number() || !std::isfinite(V.get<double>()) ||
      !(V.get<double>() > 0))
    throw PlanError(Where, "must be a finite positive number, not " + V.dump());
  return V.get<double>();
}

template <typename Enum> Enum word(const json &V, const std::string &Where) {
  std::optional<Enum> E = parseSpelling<Enum>(string(V, Where));
  if (!E)
    throw PlanError(Where, "unknown " + std::string(Vocabulary<Enum>::What) +
                               " '" + V.get<std::string>() + "' (expected " +
                               spellingList<Enum>() + ")");
  return *E;
}

class PlanReader {
public:
  explicit PlanReader(RunPlan &P) : P(P), L(P.Launch) {}
  void read(const json &Root);

private:
  RunPlan &P;
  KernelLaunch &L;
  void readHeader(const json &Root);
  void readLaunch(const json &V);
  void readBuffers(const json &V);
  void readKernel(const json &V, const std::string &Where);
  ParamImage readParam(const json &V, const std::string &Where);
  AddressReloc readReloc(const json &V, const std::string &Where,
                         uint64_t Size);
  void checkRoles() const;
};

void PlanReader::readHeader(const json &Root) {
  if (string(field(Root, "", key::Format), key::Format) != plan::FormatName)
    throw PlanError(key::Format, "not an ir-sanitize run plan (expected \"" +
                                     std::string(plan::FormatName) + "\")");
  const json &Version = field(Root, "", key::Version);
  if (!Version.is_number_integer() || Version.get<int64_t>() != plan::Version)
    throw PlanError(key::Version, "plan version " + Version.dump() +
                                      " is not supported (this runner reads "
                                      "version " +
                                      std::to_string(plan::Version) + ")");
}

void PlanReader::readLaunch(const json &V) {
  object(V, key::Launch, plan::LaunchKeys);
  if (V.contains(key::Threads)) {
    if (V.contains(key::Grid) || V.contains(key::Block))
      throw PlanError(key::Launch, "give either threads or grid and block");
    L.Threads = integer(V[key::Threads], member(key::Launch, key::Threads), 1,
                        plan::MaxThreads);
    return;
  }
  uint64_t Dims[2][3];
  const char *Keys[2] = {key::Grid, key::Block};
  for (int K = 0; K < 2; ++K) {
    std::string Where = member(key::Launch, Keys[K]);
    const json &A = array(field(V, key::Launch, Keys[K]), Where);
    if (A.size() != 3)
      throw PlanError(Where, "must have 3 sizes");
    for (size_t I = 0; I < 3; ++I)
      Dims[K][I] = integer(A[I], element(Where, I), 1, plan::MaxGridX);
  }
  if (const char *Problem = plan::checkGeometry(Dims[0], Dims[1]))
    throw PlanError(key::Launch, Problem);
  for (int I = 0; I < 3; ++I) {
    L.Grid[I] = static_cast<unsigned>(Dims[0][I]); // checked above
    L.Block[I] = static_cast<unsigned>(Dims[1][I]);
  }
}

void PlanReader::readBuffers(const json &V) {
  uint64_t TotalBytes = 0;
  for (size_t I = 0; I < array(V, key::Buffers).size(); ++I) {
    std::string W = element(key::Buffers, I);
    const json &O = object(V[I], W, plan::BufferKeys);
    LaunchBuffer B;
    B.Name = string(field(O, W, key::Name), member(W, key::Name));
    for (const LaunchBuffer &Other : L.Buffers)
      if (Other.Name == B.Name)
        throw PlanError(member(W, key::Name),
                        "'" + B.Name + "' declared twice");
    B.Type = word<ElementType>(field(O, W, key::Type), member(W, key::Type));
    B.Count =
        integer(field(O, W, key::Count), member(W, key::Count), 1, UINT64_MAX);
    if (!plan::addBufferBytes(B.Type, B.Count, TotalBytes))
      throw PlanError(member(W, key::Count),
                      std::to_string(B.Count) +
                          " elements exceed the limit "
                          "of " +
                          std::to_string(plan::MaxTotalBufferBytes) +
                          " bytes for all buffers together");
    B.Init = word<BufferInit>(field(O, W, key::Init), member(W, key::Init));
    B.Seed =
        integer(field(O, W, key::Seed), member(W, key::Seed), 0, UINT64_MAX);
    B.Output = boolean(field(O, W, key::Output), member(W, key::Output));
    B.Wrt = boolean(field(O, W, key::Wrt), member(W, key::Wrt));
    L.Buffers.push_back(B);
  }
}

int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  return -1;
}

AddressReloc PlanReader::readReloc(const json &V, const std::string &Where,
                                   uint64_t Size) {
  object(V, Where, plan::RelocKeys);
  AddressReloc R;
  R.Offset = integer(field(V, Where, key::Offset), member(Where, key::Offset),
                     0, UINT64_MAX);
  if (!rangeFits(R.Offset, 8, Size))
    throw PlanError(member(Where, key::Offset),
                    "an 8-byte address at " + std::to_string(R.Offset) +
                        " does not fit the " + std::to_string(Size) +
                        "-byte parameter");
  // The kernel loads it as one 8-byte word.
  if (R.Offset % 8)
    throw PlanError(member(Where, key::Offset), "an address at " +
                                                    std::to_string(R.Offset) +
                                                    " is not 8-byte aligned");
  R.Buffer = string(field(V, Where, key::Buffer), member(Where, key::Buffer));
  const std::string &Name = R.Buffer;
  size_t I = 0;
  while (I < L.Buffers.size() && L.Buffers[I].Name != Name)
    ++I;
  if (I == L.Buffers.size())
    throw PlanError(member(Where, key::Buffer),
                    "unknown buffer '" + Name + "'");
  R.Shadow =
      word<AddressKind>(field(V, Where, key::Address),
                        member(Where, key::Address)) == AddressKind::Shadow;
  const LaunchBuffer &B = L.Buffers[I];
  // Only those buffers get a shadow the checks seed or read.
  if (R.Shadow && !B.Wrt && !B.Output)
    throw PlanError(member(Where, key::Address),
                    "the shadow of '" + Name +
                        "', a buffer that is neither wrt nor output");
  if (V.contains(key::Access))
    R.Access = word<MemoryAccess>(V[key::Access], member(Where, key::Access));
  return R;
}

ParamImage PlanReader::readParam(const json &V, const std::string &Where) {
  object(V, Where, plan::ParamKeys);
  uint64_t Size = integer(field(V, Where, key::Size), member(Where, key::Size),
                          1, plan::MaxParamBytes);
  ParamImage Par;
  Par.Bytes.assign(Size, 0);
  if (V.contains(key::Bytes)) {
    std::string Hex = string(V[key::Bytes], member(Where, key::Bytes));
    if (Hex.size() != 2 * Size)
      throw PlanError(member(Where, key::Bytes),
                      "must be " + std::to_string(2 * Size) +
                          " lowercase hex digits (size " +
                          std::to_string(Size) + ")");
    for (uint64_t I = 0; I < Size; ++I) {
      int Hi = hexDigit(Hex[2 * I]), Lo = hexDigit(Hex[2 * I + 1]);
      if (Hi < 0 || Lo < 0)
        throw PlanError(member(Where, key::Bytes), "not lowercase hex digits");
      Par.Bytes[I] = static_cast<uint8_t>(Hi * 16 + Lo);
    }
  }
  if (V.contains(key::Relocs)) {
    std::string RW = member(Where, key::Relocs);
    for (size_t I = 0; I < array(V[key::Relocs], RW).size(); ++I) {
      AddressReloc R = readReloc(V[key::Relocs][I], element(RW, I), Size);
      // Aligned, so two addresses overlap only where they start together.
      for (const AddressReloc &Other : Par.Relocs)
        if (Other.Offset == R.Offset)
          throw PlanError(member(element(RW, I), key::Offset),
                          "a second address at " + std::to_string(R.Offset));
      Par.Relocs.push_back(R);
    }
  }
  return Par;
}

void PlanReader::readKernel(const json &V, const std::string &Where) {
  object(V, Where, plan::KernelKeys);
  KernelRole Role =
      word<KernelRole>(field(V, Where, key::Role), member(Where, key::Role));
  if (P.kernel(Role))
    throw PlanError(member(Where, key::Role),
                    std::string("role '") + spelling(Role) + "' appears twice");
  PlannedKernel K;
  K.Role = Role;
  K.PTXFile = string(field(V, Where, key::PTX), member(Where, key::PTX));
  if (K.PTXFile.empty() || K.PTXFile.find('/') != std::string::npos ||
      K.PTXFile == "." || K.PTXFile == "..")
    throw PlanError(member(Where, key::PTX),
                    "must name a file in the plan directory");
  K.Entry = string(field(V, Where, key::Entry), member(Where, key::Entry));
  if (K.Entry.empty())
    throw PlanError(member(Where, key::Entry), "must name an entry of the PTX");
  std::string PW = member(Where, key::Params);
  const json &Params = array(field(V, Where, key::Params), PW);
  for (size_t I = 0; I < Params.size(); ++I)
    K.Params.push_back(readParam(Params[I], element(PW, I)));
  if (V.contains(key::GridStrideEntry)) {
    std::string GW = member(Where, key::GridStrideEntry);
    K.GridStrideEntry = string(V[key::GridStrideEntry], GW);
    if (K.GridStrideEntry.empty() || K.GridStrideEntry == K.Entry)
      throw PlanError(GW, "must name a second entry of the PTX");
    // The primal kernels are compared bit for bit as the plan launches them.
    if (Role != KernelRole::Forward && Role != KernelRole::Reverse)
      throw PlanError(GW, "only a forward or reverse kernel has a grid-stride "
                          "version");
  }
  if (V.contains(key::GradientOnly)) {
    std::string GW = member(Where, key::GradientOnly);
    K.GradientOnly = boolean(V[key::GradientOnly], GW);
    if (K.GradientOnly && Role != KernelRole::Reverse)
      throw PlanError(GW, "only a reverse kernel can leave the primal "
                          "outputs unwritten");
  }
  P.Kernels.push_back(std::move(K));
}

void PlanReader::checkRoles() const {
  if (!P.kernel(KernelRole::Original) || !P.kernel(KernelRole::Splat))
    throw PlanError(key::Kernels, "the plan needs an 'original' and a 'splat' "
                                  "kernel");
  if (L.DerivativeChecks &&
      (!P.kernel(KernelRole::Forward) || !P.kernel(KernelRole::Reverse)))
    throw PlanError(key::Kernels, "\"checks\": \"all\" needs a 'forward' and a "
                                  "'reverse' kernel");
}

void PlanReader::read(const json &Root) {
  object(Root, "", plan::PlanKeys);
  readHeader(Root);
  P.Kernel = string(field(Root, "", key::Kernel), key::Kernel);
  readLaunch(field(Root, "", key::Launch));
  std::string Checks = string(field(Root, "", key::Checks), key::Checks);
  if (Checks != plan::ChecksAll && Checks != plan::ChecksPrimal)
    throw PlanError(key::Checks, "must be \"all\" or \"primal\"");
  L.DerivativeChecks = Checks == plan::ChecksAll;
  if (Root.contains(key::ZeroDerivative)) {
    L.ZeroDerivativeExpected =
        boolean(Root[key::ZeroDerivative], key::ZeroDerivative);
    if (L.ZeroDerivativeExpected && !L.DerivativeChecks)
      throw PlanError(key::ZeroDerivative,
                      "a zero derivative expected in a plan with \"checks\": "
                      "\"primal\"");
  }
  if (Root.contains(key::Skipped)) {
    P.DerivativesSkipped = string(Root[key::Skipped], key::Skipped);
    if (L.DerivativeChecks)
      throw PlanError(key::Skipped, "derivative checks skipped in a plan with "
                                    "\"checks\": \"all\"");
  }
  P.Settings.FdStep = positive(field(Root, "", key::FdStep), key::FdStep);
  const json &Tol = object(field(Root, "", key::Tolerance), key::Tolerance,
                           plan::ToleranceKeys);
  P.Settings.ForwardTolerance =
      positive(field(Tol, key::Tolerance, key::Forward),
               member(key::Tolerance, key::Forward));
  P.Settings.ReverseTolerance =
      positive(field(Tol, key::Tolerance, key::Reverse),
               member(key::Tolerance, key::Reverse));
  readBuffers(field(Root, "", key::Buffers));
  const json &Kernels = array(field(Root, "", key::Kernels), key::Kernels);
  for (size_t I = 0; I < Kernels.size(); ++I)
    readKernel(Kernels[I], element(key::Kernels, I));
  checkRoles();
}

/// Follows the parser through the document so that a problem the JSON
/// reader itself finds (a number out of range, a duplicate key) names the
/// field it is in, like every other plan error.
class FieldTracker {
public:
  bool operator()(int, json::parse_event_t Event, json &Parsed) {
    using E = json::parse_event_t;
    switch (Event) {
    case E::object_start:
    case E::array_start:
      Frames.push_back({Event == E::array_start, 0, {}, {}});
      break;
    case E::key:
      Frames.back().Key = Parsed.get<std::string>();
      if (!Frames.back().Keys.insert(Frames.back().Key).second)
        throw PlanError(path(), "appears twice");
      break;
    case E::object_end:
    case E::array_end:
      Frames.pop_back();
      finishValue();
      break;
    case E::value:
      finishValue();
      break;
    }
    return true;
  }

  /// Where the parser is: "launch.grid[1]", or "plan" at the top.
  std::string path() const {
    std::string P;
    for (const Frame &F : Frames)
      P = F.IsArray ? element(P, F.Elements) : member(P, F.Key.c_str());
    return P.empty() ? "plan" : P;
  }

private:
  struct Frame {
    bool IsArray;
    size_t Elements; ///< elements finished so far, when IsArray
    std::set<std::string> Keys;
    std::string Key;
  };
  std::vector<Frame> Frames;

  void finishValue() {
    if (!Frames.empty() && Frames.back().IsArray)
      ++Frames.back().Elements;
  }
};

} // namespace

bool parseRunPlan(const std::string &Text, RunPlan &Out, std::string &Error) {
  Out = RunPlan();
  if (exceedsJSONDepth(Text)) {
    Error = "plan: JSON nested deeper than " + std::to_string(MaxJSONDepth) +
            " levels";
    return false;
  }
  FieldTracker Tracker;
  try {
    PlanReader(Out).read(json::parse(Text, std::ref(Tracker)));
    return true;
  } catch (const PlanError &E) {
    Error = E.what();
  } catch (const json::exception &E) {
    Error = Tracker.path() + ": not valid JSON: " + E.what();
  }
  return false;
}

} // namespace irs
