//===- RunPlan.cpp - Reading the line-based run plan ----------------------===//
#include "RunPlan.h"

#include <cstdlib>
#include <sstream>

namespace gpurun {

size_t elemSize(ElemType T) {
  switch (T) {
  case ElemType::F32:
  case ElemType::I32:
    return 4;
  case ElemType::F64:
  case ElemType::I64:
    return 8;
  case ElemType::U8:
    return 1;
  }
  return 1;
}

const char *typeName(ElemType T) {
  static const char *const Names[] = {"f32", "f64", "i32", "i64", "u8"};
  return Names[static_cast<int>(T)];
}

bool isFloat(ElemType T) { return T == ElemType::F32 || T == ElemType::F64; }

const KernelLaunch *Plan::launch(const std::string &Role) const {
  auto It = Launches.find(Role);
  return It == Launches.end() ? nullptr : &It->second;
}

namespace {

bool parseType(const std::string &S, ElemType &T) {
  static const std::pair<const char *, ElemType> Types[] = {
      {"f32", ElemType::F32},
      {"f64", ElemType::F64},
      {"i32", ElemType::I32},
      {"i64", ElemType::I64},
      {"u8", ElemType::U8}};
  for (const auto &[Name, Type] : Types)
    if (S == Name) {
      T = Type;
      return true;
    }
  return false;
}

bool parseInit(const std::string &S, Init &I) {
  static const std::pair<const char *, Init> Inits[] = {
      {"zero", Init::Zero},
      {"ones", Init::Ones},
      {"range", Init::Range},
      {"random", Init::Random}};
  for (const auto &[Name, Kind] : Inits)
    if (S == Name) {
      I = Kind;
      return true;
    }
  return false;
}

bool parseUnsigned(const std::string &S, uint64_t &V) {
  if (S.empty() || S[0] == '-')
    return false;
  char *End = nullptr;
  V = std::strtoull(S.c_str(), &End, 10);
  return *End == '\0';
}

bool parseDouble(const std::string &S, double &V) {
  char *End = nullptr;
  V = std::strtod(S.c_str(), &End);
  return !S.empty() && *End == '\0' && V > 0;
}

bool parseHex(const std::string &S, uint64_t Size, std::vector<uint8_t> &Out) {
  Out.assign(Size, 0);
  if (S == "-")
    return true;
  if (S.size() != 2 * Size)
    return false;
  for (uint64_t I = 0; I < Size; ++I) {
    char Byte[3] = {S[2 * I], S[2 * I + 1], 0};
    char *End = nullptr;
    Out[I] = static_cast<uint8_t>(std::strtoul(Byte, &End, 16));
    if (*End != '\0')
      return false;
  }
  return true;
}

bool isRole(const std::string &R) {
  return R == "original" || R == "splat" || R == "forward" || R == "reverse";
}

/// Parses one record into \p P; returns an error message or "".
class LineParser {
public:
  explicit LineParser(Plan &P) : P(P) {}
  std::string parse(const std::vector<std::string> &T);

private:
  Plan &P;
  std::string buffer(const std::vector<std::string> &T);
  std::string param(const std::vector<std::string> &T);
  std::string reloc(const std::vector<std::string> &T);
  std::string geometry(const std::vector<std::string> &T);
  int bufferIndex(const std::string &Name) const;
};

int LineParser::bufferIndex(const std::string &Name) const {
  for (size_t I = 0; I < P.Buffers.size(); ++I)
    if (P.Buffers[I].Name == Name)
      return static_cast<int>(I);
  return -1;
}

std::string LineParser::buffer(const std::vector<std::string> &T) {
  Buffer B;
  B.Name = T[1];
  if (!parseType(T[2], B.Type))
    return "unknown element type '" + T[2] + "'";
  if (!parseUnsigned(T[3], B.Count) || B.Count == 0)
    return "bad element count '" + T[3] + "'";
  if (!parseInit(T[4], B.InitKind))
    return "unknown init '" + T[4] + "'";
  if (!parseUnsigned(T[5], B.Seed))
    return "bad seed '" + T[5] + "'";
  B.Output = T[6].find("output") != std::string::npos;
  B.Wrt = T[6].find("wrt") != std::string::npos;
  if (bufferIndex(B.Name) >= 0)
    return "buffer '" + B.Name + "' declared twice";
  P.Buffers.push_back(B);
  return "";
}

std::string LineParser::param(const std::vector<std::string> &T) {
  uint64_t Size;
  if (!parseUnsigned(T[2], Size) || Size == 0 || Size > 4096)
    return "bad parameter size '" + T[2] + "'";
  Param Par;
  if (!parseHex(T[3], Size, Par.Bytes))
    return "parameter bytes do not match its size " + T[2];
  P.Launches[T[1]].Params.push_back(std::move(Par));
  return "";
}

std::string LineParser::reloc(const std::vector<std::string> &T) {
  uint64_t Index, Offset;
  auto &Params = P.Launches[T[1]].Params;
  if (!parseUnsigned(T[2], Index) || Index >= Params.size())
    return "reloc names parameter " + T[2] + " before it was declared";
  if (!parseUnsigned(T[3], Offset) || Offset + 8 > Params[Index].Bytes.size())
    return "reloc offset " + T[3] + " does not fit an address in the parameter";
  int Buf = bufferIndex(T[4]);
  if (Buf < 0)
    return "reloc names unknown buffer '" + T[4] + "'";
  if (T[5] != "primal" && T[5] != "shadow")
    return "reloc kind must be primal or shadow, not '" + T[5] + "'";
  Params[Index].Relocs.push_back(
      {Offset, static_cast<unsigned>(Buf), T[5] == "shadow"});
  return "";
}

std::string LineParser::geometry(const std::vector<std::string> &T) {
  uint64_t V[6];
  for (int I = 0; I < 3; ++I)
    if (!parseUnsigned(T[1 + I], V[I]) || !parseUnsigned(T[5 + I], V[3 + I]) ||
        V[I] == 0 || V[3 + I] == 0)
      return "grid and block sizes must be positive integers";
  if (T[4] != "block")
    return "expected 'grid GX GY GZ block BX BY BZ'";
  for (int I = 0; I < 3; ++I) {
    P.Grid[I] = static_cast<unsigned>(V[I]);
    P.Block[I] = static_cast<unsigned>(V[3 + I]);
  }
  return "";
}

std::string LineParser::parse(const std::vector<std::string> &T) {
  const std::string &K = T[0];
  auto Need = [&](size_t N) { return T.size() == N; };
  if (K == "kernel" && Need(2)) {
    P.Kernel = T[1];
    return "";
  }
  if (K == "threads" && Need(2))
    return parseUnsigned(T[1], P.Threads) && P.Threads > 0
               ? ""
               : "bad thread count '" + T[1] + "'";
  if (K == "grid" && Need(8))
    return geometry(T);
  if (K == "checks" && Need(2) && (T[1] == "primal" || T[1] == "all")) {
    P.DerivativeChecks = T[1] == "all";
    return "";
  }
  if (K == "fd-step" && Need(2))
    return parseDouble(T[1], P.FdStep) ? "" : "bad fd-step '" + T[1] + "'";
  if (K == "tolerance" && Need(5) && T[1] == "forward" && T[3] == "reverse")
    return parseDouble(T[2], P.ForwardTolerance) &&
                   parseDouble(T[4], P.ReverseTolerance)
               ? ""
               : "tolerances must be positive numbers";
  if (K == "buffer" && Need(7))
    return buffer(T);
  if ((K == "module" || K == "param" || K == "reloc") && T.size() > 1 &&
      !isRole(T[1]))
    return "unknown kernel role '" + T[1] + "'";
  if (K == "module" && Need(4)) {
    P.Launches[T[1]].File = T[2];
    P.Launches[T[1]].Entry = T[3];
    return "";
  }
  if (K == "param" && Need(4))
    return param(T);
  if (K == "reloc" && Need(6))
    return reloc(T);
  return "unrecognised record '" + K + "' (or wrong number of fields)";
}

} // namespace

bool parsePlan(const std::string &Text, Plan &Out, std::string &Error) {
  std::istringstream In(Text);
  std::string Line;
  unsigned LineNo = 0;
  bool SawHeader = false;
  LineParser Parser(Out);
  while (std::getline(In, Line)) {
    ++LineNo;
    Line = Line.substr(0, Line.find('#'));
    std::istringstream Fields(Line);
    std::vector<std::string> T;
    for (std::string F; Fields >> F;)
      T.push_back(F);
    if (T.empty())
      continue;
    std::string Problem;
    if (!SawHeader)
      Problem = (T.size() == 2 && T[0] == "irs-gpu-plan" && T[1] == "1")
                    ? ""
                    : "not an ir-sanitize run plan (expected 'irs-gpu-plan 1')";
    else
      Problem = Parser.parse(T);
    SawHeader = true;
    if (!Problem.empty()) {
      Error = std::to_string(LineNo) + ": " + Problem;
      return false;
    }
  }
  if (!SawHeader) {
    Error = "1: empty run plan";
    return false;
  }
  if (!Out.Threads && !Out.Grid[0]) {
    Error = std::to_string(LineNo) + ": plan has neither 'threads' nor 'grid'";
    return false;
  }
  for (const auto &[Role, L] : Out.Launches)
    if (L.File.empty()) {
      Error = std::to_string(LineNo) + ": role '" + Role + "' has no module";
      return false;
    }
  if (!Out.launch("original") || !Out.launch("splat")) {
    Error = std::to_string(LineNo) + ": plan needs 'original' and 'splat'";
    return false;
  }
  if (Out.DerivativeChecks &&
      (!Out.launch("forward") || !Out.launch("reverse"))) {
    Error = std::to_string(LineNo) +
            ": 'checks all' needs 'forward' and 'reverse' modules";
    return false;
  }
  return true;
}

} // namespace gpurun
