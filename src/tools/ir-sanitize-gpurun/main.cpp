//===- main.cpp - ir-sanitize-gpurun: run a gpu-check plan on a GPU -------===//
//
// Loads the PTX and the plan that `ir-sanitize gpu-check --emit-dir DIR`
// wrote, runs the checks on a CUDA device and prints a table (and JSON with
// --report). Links only the CUDA driver API, so it runs where LLVM is absent.
//
//===----------------------------------------------------------------------===//
#include "CudaDevice.h"
#include "PlanRunner.h"
#include "Report.h"
#include "RunPlan.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace gpurun;

namespace {

const char *const Usage = R"(usage: ir-sanitize-gpurun [options] DIR
       ir-sanitize-gpurun --probe

Runs the plan in DIR/plan.txt (written by `ir-sanitize gpu-check`) on a CUDA
device: primal, forward and reverse checks, then timing.

options:
  --report FILE   also write the results as JSON to FILE
  --repeats N     timing samples per kernel, each of 20 launches (default 50)
  --device N      CUDA device ordinal (default 0)
  --probe         exit 0 when a CUDA device is usable, 7 otherwise

exit codes: 0 all checks passed, 1 a check failed or a kernel failed to load
or run, 2 usage, 3 unreadable or invalid plan, 4 report cannot be written,
7 no usable CUDA driver or device.
)";

enum Exit {
  Ok = 0,
  Failed = 1,
  BadUsage = 2,
  BadPlan = 3,
  NoOutput = 4,
  NoDevice = 7
};

struct Options {
  std::string Dir, ReportPath;
  unsigned Repeats = 50;
  int Device = 0;
  bool Probe = false;
};

int fail(int Code, const std::string &Message) {
  std::cerr << "ir-sanitize-gpurun: error: " << Message << "\n";
  return Code;
}

bool parseArgs(int Argc, char **Argv, Options &O, std::string &Error) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    bool HasValue = I + 1 < Argc;
    if (A == "--probe")
      O.Probe = true;
    else if (A == "--report" && HasValue)
      O.ReportPath = Argv[++I];
    else if ((A == "--repeats" || A == "--device") && HasValue) {
      char *End;
      long V = std::strtol(Argv[++I], &End, 10);
      if (*End || V < (A == "--repeats" ? 1 : 0)) {
        Error = "bad value '" + std::string(Argv[I]) + "' for " + A;
        return false;
      }
      if (A == "--repeats")
        O.Repeats = static_cast<unsigned>(V);
      else
        O.Device = static_cast<int>(V);
    } else if (!A.empty() && A[0] != '-' && O.Dir.empty())
      O.Dir = A;
    else {
      Error = "unexpected argument '" + A + "'";
      return false;
    }
  }
  if (!O.Probe && O.Dir.empty())
    Error = "no plan directory given";
  return Error.empty();
}

/// Writes through a temporary file so that a failure leaves no partial report.
bool writeReport(const std::string &Path, const Plan &P, const RunResults &R) {
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp);
    if (!Out)
      return false;
    printJSON(Out, P, R);
    if (!Out.flush())
      return false;
  }
  return std::rename(Tmp.c_str(), Path.c_str()) == 0;
}

int runPlan(const Options &O) {
  std::string PlanPath = O.Dir + "/plan.txt";
  std::ifstream In(PlanPath);
  if (!In)
    return fail(BadPlan, PlanPath + ": cannot read the run plan");
  std::stringstream Text;
  Text << In.rdbuf();
  Plan P;
  std::string Error;
  if (!parsePlan(Text.str(), P, Error))
    return fail(BadPlan, PlanPath + ":" + Error);
  std::string Why;
  if (!CudaDevice::probe(Why))
    return fail(NoDevice, Why);
  RunResults R;
  try {
    CudaDevice Dev(O.Device);
    PlanRunner Runner(P, O.Dir, Dev);
    R = Runner.run(O.Repeats);
  } catch (const CudaError &E) {
    return fail(Failed, PlanPath + ": " + E.what());
  }
  printTable(std::cout, P, R);
  if (!O.ReportPath.empty() && !writeReport(O.ReportPath, P, R))
    return fail(NoOutput, O.ReportPath + ": cannot write the report");
  return R.allPassed() ? Ok : Failed;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  std::string Error;
  for (int I = 1; I < Argc; ++I)
    if (std::string(Argv[I]) == "--help" || std::string(Argv[I]) == "-h") {
      std::cout << Usage;
      return Ok;
    }
  if (!parseArgs(Argc, Argv, O, Error))
    return fail(BadUsage, Error + " (see --help)");
  if (O.Probe) {
    std::string Why;
    if (CudaDevice::probe(Why))
      return Ok;
    std::cerr << "ir-sanitize-gpurun: " << Why << "\n";
    return NoDevice;
  }
  return runPlan(O);
}
