//===- Memcheck.cpp - The checks under NVIDIA's compute-sanitizer ---------===//
#include "Memcheck.h"

#include <cstdlib>
#include <sstream>

#include <unistd.h>

namespace gpurun {

namespace {

bool executable(const std::string &Path) {
  return !Path.empty() && ::access(Path.c_str(), X_OK) == 0;
}

std::string hex(uint64_t V) {
  std::ostringstream OS;
  OS << "0x" << std::hex << V;
  return OS.str();
}

/// The text after \p Marker in \p Line, up to the next space; "" if absent.
std::string wordAfter(const std::string &Line, const std::string &Marker) {
  size_t At = Line.find(Marker);
  if (At == std::string::npos)
    return "";
  At += Marker.size();
  return Line.substr(At, Line.find(' ', At) - At);
}

/// Memcheck's "and is 1 bytes after the nearest allocation at 0x.. of size
/// 4000 bytes" as "NAME: 1 bytes after its end".
std::string bufferOf(const std::string &Line,
                     const std::vector<DeviceBuffer> &Buffers) {
  std::string At = wordAfter(Line, "nearest allocation at ");
  uint64_t Address = std::strtoull(At.c_str(), nullptr, 16);
  for (const DeviceBuffer &B : Buffers)
    if (!At.empty() && B.Address == Address) {
      std::string Distance = Line.substr(Line.find("and is ") + 7);
      Distance = Distance.substr(0, Distance.find(" the nearest"));
      bool After = Distance.find("after") != std::string::npos;
      return B.Name + ": " + Distance + (After ? " its end" : " its start");
    }
  return "";
}

} // namespace

std::optional<std::string> findComputeSanitizer() {
  if (const char *Env = std::getenv("IRS_COMPUTE_SANITIZER"))
    return executable(Env) ? std::optional<std::string>(Env) : std::nullopt;
  if (const char *Path = std::getenv("PATH")) {
    std::istringstream Dirs(Path);
    for (std::string Dir; std::getline(Dirs, Dir, ':');)
      if (executable(Dir + "/compute-sanitizer"))
        return Dir + "/compute-sanitizer";
  }
  std::string Cuda = "/usr/local/cuda/bin/compute-sanitizer";
  return executable(Cuda) ? std::optional<std::string>(Cuda) : std::nullopt;
}

std::string bufferLine(const DeviceBuffer &B) {
  return "memcheck-buffer " + hex(B.Address) + " " + std::to_string(B.Bytes) +
         " " + B.Name;
}

std::vector<DeviceBuffer> parseBuffers(const std::string &Text) {
  std::vector<DeviceBuffer> Buffers;
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);) {
    std::istringstream Words(Line);
    std::string Tag, Address;
    DeviceBuffer B;
    if (!(Words >> Tag >> Address >> B.Bytes) || Tag != "memcheck-buffer")
      continue;
    B.Address = std::strtoull(Address.c_str(), nullptr, 16);
    std::getline(Words >> std::ws, B.Name);
    Buffers.push_back(B);
  }
  return Buffers;
}

std::vector<MemcheckError> parseMemcheck(const std::string &Text) {
  std::vector<DeviceBuffer> Buffers = parseBuffers(Text);
  std::vector<MemcheckError> Errors;
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);) {
    if (Line.rfind("=========", 0) != 0)
      continue;
    size_t Invalid = Line.find("Invalid ");
    if (Invalid != std::string::npos) {
      Errors.push_back({Line.substr(Invalid), "", ""});
      continue;
    }
    if (Errors.empty())
      continue;
    MemcheckError &E = Errors.back();
    if (E.Kernel.empty() && Line.find("     at ") != std::string::npos) {
      std::string At = Line.substr(Line.find("     at ") + 8);
      E.Kernel = At.substr(0, At.find("+0x"));
    } else if (E.Buffer.empty() &&
               Line.find("nearest allocation") != std::string::npos) {
      E.Buffer = bufferOf(Line, Buffers);
    }
  }
  return Errors;
}

CheckResult memcheckCheck(const std::vector<MemcheckError> &Errors,
                          const std::string &WhyNotRun) {
  CheckResult C;
  C.Name = "memcheck";
  if (!WhyNotRun.empty()) {
    C.Detail = WhyNotRun;
    return C;
  }
  C.Ran = true;
  C.Value = static_cast<double>(Errors.size());
  C.Passed = Errors.empty();
  C.Detail = std::to_string(Errors.size()) +
             " errors under compute-sanitizer --tool memcheck";
  for (size_t I = 0; I < Errors.size() && I < 3; ++I)
    C.Detail += (I ? "; " : ": ") + Errors[I].What + " in " +
                (Errors[I].Kernel.empty() ? "?" : Errors[I].Kernel) +
                (Errors[I].Buffer.empty() ? "" : " (" + Errors[I].Buffer + ")");
  return C;
}

} // namespace gpurun
