//===- PlanLoader.cpp - A plan directory, checked before any launch -------===//
#include "PlanLoader.h"

#include "ir-sanitize/Support/CheckedArithmetic.h"
#include "ir-sanitize/Support/InputFile.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace gpurun {

namespace {

/// The size of a PTX parameter type (".u64", ".b8", ".f32"), 0 if none.
uint64_t ptxTypeSize(const std::string &T) {
  if (T.size() < 3 || T[0] != '.' ||
      std::string("bfus").find(T[1]) == std::string::npos)
    return 0;
  const std::string Bits = T.substr(2);
  if (Bits == "8")
    return 1;
  if (Bits == "16")
    return 2;
  if (Bits == "32")
    return 4;
  if (Bits == "64")
    return 8;
  return 0;
}

/// One declaration, ".param [.ptr ...] [.align N] TYPE NAME[[N]]"; 0 when
/// it is not one this reader understands.
uint64_t ptxParamSize(const std::string &Decl) {
  std::istringstream Words(Decl);
  std::string W, Type, Name;
  if (!(Words >> W) || W != ".param")
    return 0;
  while (Words >> W) {
    if (W == ".align") {
      Words >> W; // the alignment
    } else if (ptxTypeSize(W) && Type.empty()) {
      Type = W;
    } else if (W[0] != '.') {
      Name = W;
      break;
    }
  }
  if (Type.empty() || Name.empty() || (Words >> W))
    return 0;
  uint64_t Count = 1;
  if (size_t Open = Name.find('['); Open != std::string::npos) {
    if (Name.back() != ']' || Open + 2 >= Name.size())
      return 0;
    std::string Digits = Name.substr(Open + 1, Name.size() - Open - 2);
    if (Digits.size() > 12 ||
        Digits.find_first_not_of("0123456789") != std::string::npos)
      return 0;
    Count = std::strtoull(Digits.c_str(), nullptr, 10);
  }
  uint64_t Size;
  return irs::checkedMul(Count, ptxTypeSize(Type), Size) ? Size : 0;
}

/// Where the parameter list of `.entry NAME(` starts in \p PTX (after the
/// parenthesis), or npos.
size_t entryParams(const std::string &PTX, const std::string &Entry) {
  for (size_t At = PTX.find(".entry"); At != std::string::npos;
       At = PTX.find(".entry", At + 1)) {
    size_t Name = PTX.find_first_not_of(" \t", At + 6);
    if (Name == At + 6 || Name == std::string::npos ||
        PTX.compare(Name, Entry.size(), Entry) != 0)
      continue;
    size_t Paren = PTX.find_first_not_of(" \t\r\n", Name + Entry.size());
    if (Paren != std::string::npos && PTX[Paren] == '(')
      return Paren + 1;
  }
  return std::string::npos;
}

} // namespace

std::optional<std::vector<uint64_t>> ptxEntryParams(const std::string &PTX,
                                                    const std::string &Entry,
                                                    std::string &Problem) {
  size_t Start = entryParams(PTX, Entry);
  size_t End = PTX.find(')', Start);
  if (Start == std::string::npos || End == std::string::npos) {
    Problem = "declares no kernel '" + Entry + "'";
    return std::nullopt;
  }
  std::vector<uint64_t> Sizes;
  std::istringstream List(PTX.substr(Start, End - Start));
  for (std::string Decl; std::getline(List, Decl, ',');) {
    if (Decl.find_first_not_of(" \t\r\n") == std::string::npos &&
        Sizes.empty() && List.eof())
      break; // no parameters
    uint64_t Size = ptxParamSize(Decl);
    if (!Size) {
      Problem = "kernel '" + Entry + "': parameter " +
                std::to_string(Sizes.size()) + " is not understood";
      return std::nullopt;
    }
    Sizes.push_back(Size);
  }
  return Sizes;
}

namespace {

std::string sizesText(const std::vector<uint64_t> &Sizes) {
  std::string Text;
  for (uint64_t S : Sizes)
    Text += (Text.empty() ? "" : ", ") + std::to_string(S);
  return "(" + Text + ")";
}

/// Whether \p PTX declares \p Entry with parameters of \p Sizes.
bool checkEntry(const std::string &PTX, const std::string &Entry,
                const std::vector<uint64_t> &Sizes, std::string &Problem) {
  std::optional<std::vector<uint64_t>> Declared =
      ptxEntryParams(PTX, Entry, Problem);
  if (!Declared)
    return false;
  if (*Declared != Sizes) {
    Problem = "kernel '" + Entry + "' takes parameters of " +
              sizesText(*Declared) + " bytes, the plan passes " +
              sizesText(Sizes);
    return false;
  }
  return true;
}

bool checkLaunch(const PlannedKernel &L, const std::string &PTX,
                 std::string &Problem) {
  std::string What =
      std::string("the ") + irs::spelling(L.Role) + " kernel's PTX";
  if (PTX.empty()) {
    Problem = What + " is empty";
    return false;
  }
  std::vector<uint64_t> Sizes;
  for (const ParamImage &Par : L.Params)
    Sizes.push_back(Par.Bytes.size());
  std::vector<uint64_t> Strided = Sizes;
  Strided.push_back(4); // the blocks to cover
  if (!checkEntry(PTX, L.Entry, Sizes, Problem) ||
      (!L.GridStrideEntry.empty() &&
       !checkEntry(PTX, L.GridStrideEntry, Strided, Problem))) {
    Problem = What + " " + Problem;
    return false;
  }
  return true;
}

} // namespace

bool loadPlan(const std::string &Dir, LoadedPlan &Out, std::string &Error) {
  std::string PlanPath = Dir + "/" + irs::plan::FileName, Text, Problem;
  if (!irs::readInputFile(PlanPath, irs::RunPlanInput, Text, Problem)) {
    Error = PlanPath + ": cannot read the run plan: " + Problem;
    return false;
  }
  // An empty plan is reported as invalid JSON.
  if (!irs::parseRunPlan(Text, Out.P, Error)) {
    Error = PlanPath + ": " + Error;
    return false;
  }
  for (const PlannedKernel &L : Out.P.Kernels) {
    std::string Path = Dir + "/" + L.PTXFile;
    auto It = Out.PTX.find(L.PTXFile);
    if (It == Out.PTX.end()) {
      if (!irs::readInputFile(Path, irs::PTXInput, Text, Problem)) {
        Error = Path + ": cannot read the " + irs::spelling(L.Role) +
                " kernel's PTX: " + Problem;
        return false;
      }
      It = Out.PTX.emplace(L.PTXFile, std::move(Text)).first;
    }
    if (!checkLaunch(L, It->second, Problem)) {
      Error = Path + ": " + Problem;
      return false;
    }
  }
  return true;
}

} // namespace gpurun
