//===- ir-sanitize-gpurun.cpp - Run a gpu-check plan on a GPU ------------===//
//
// Loads the PTX and the plan that `ir-sanitize gpu-check --emit-dir DIR`
// wrote, runs the checks on a CUDA device and prints a table (and JSON with
// --report). No LLVM, and the CUDA driver is loaded at run time, so it starts
// anywhere: without a driver it still validates the plan and exits 7.
//
//===----------------------------------------------------------------------===//
#include "Checks.h"
#include "CudaDevice.h"
#include "PlanLoader.h"
#include "PlanRunner.h"
#include "Report.h"

#include "ir-sanitize/Support/AtomicDirectory.h"
#include "ir-sanitize/Support/ExitCode.h"
#include "ir-sanitize/Support/MessageText.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

using namespace gpurun;

namespace {

const char *const Usage = R"(usage: ir-sanitize-gpurun [options] DIR
       ir-sanitize-gpurun --probe

Runs the plan in DIR/plan.json (written by `ir-sanitize gpu-check`; schema
in docs/run-plan.md) on a CUDA device: primal, forward and reverse checks,
then timing.

options:
  --report FILE     also write the results as JSON to FILE
  --repeats N       timing samples per kernel and L2 state (a warm sample
                    is the mean of up to 20 launches)
                    (1 to 100000, default 50)
  --time-budget MS  about how long one kernel's timing in one L2 state may
                    take: a slower kernel gets fewer launches per warm
                    sample, then fewer samples (at least 3)
                    (1 to 3600000, default 2000)
  --l2 STATE        time with the L2 cache warm (back-to-back launches),
                    cold (L2 flushed before each launch) or both (default)
  --device N        CUDA device ordinal (default 0)
  --validate-only   check the plan and its PTX files (every entry it
                    launches, with the parameters it passes), run nothing,
                    exit 0
  --probe           exit 0 when a CUDA device is usable, 7 otherwise

exit codes: 0 all checks passed, 1 a check failed or a kernel failed to load
or run, 2 usage, 3 unreadable or invalid plan, 4 report cannot be written,
7 no usable CUDA driver or device, 8 no check failed but some were skipped,
9 no check failed but one was vacuous (exercised nothing).
)";

// The codes of ir-sanitize/Support/ExitCode.h, as the runner uses them.
enum Exit {
  Ok = static_cast<int>(irs::ExitCode::Ok),
  Failed = static_cast<int>(irs::ExitCode::Findings),
  BadUsage = static_cast<int>(irs::ExitCode::Usage),
  BadPlan = static_cast<int>(irs::ExitCode::BadInput),
  NoOutput = static_cast<int>(irs::ExitCode::OutputError),
  NoDevice = static_cast<int>(irs::ExitCode::NoDevice),
  Skipped = static_cast<int>(irs::ExitCode::ChecksSkipped),
  Vacuous = static_cast<int>(irs::ExitCode::ChecksVacuous),
};

struct Options {
  std::string Dir, ReportPath;
  unsigned Repeats = 50;
  unsigned BudgetMs = gpurun::DefaultTimingBudgetMs;
  L2Timing L2 = L2Timing::Both;
  int Device = 0;
  bool Probe = false;
  bool ValidateOnly = false;
};

int fail(int Code, const std::string &Message) {
  std::cerr << "ir-sanitize-gpurun: error: " << irs::keepOnOneLine(Message)
            << "\n";
  return Code;
}

/// A decimal integer in [Min, Max], rejected (not clamped) outside it.
bool parseInt(const char *S, long Min, long Max, long &V) {
  char *End;
  errno = 0;
  V = std::strtol(S, &End, 10);
  return *S && !*End && errno == 0 && V >= Min && V <= Max;
}

/// The rule ir-sanitize's options follow too: an option's value is the next
/// argument, neither empty nor another option (`--report --l2 cold` took
/// "--l2" as the report's path).
bool hasValue(int Argc, char **Argv, int I, std::string &Error) {
  if (I + 1 >= Argc)
    return false;
  std::string Next = Argv[I + 1];
  if (Next.empty())
    Error = std::string(Argv[I]) + ": an empty value ('')";
  else if (Next.size() > 1 && Next[0] == '-')
    Error = std::string(Argv[I]) + " needs a value; '" + Next +
            "' reads as an option";
  return Error.empty();
}

bool parseArgs(int Argc, char **Argv, Options &O, std::string &Error) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    bool TakesValue = A == "--report" || A == "--l2" || A == "--repeats" ||
                      A == "--device" || A == "--time-budget";
    bool HasValue = TakesValue && hasValue(Argc, Argv, I, Error);
    if (!Error.empty())
      return false;
    if (A == "--probe")
      O.Probe = true;
    else if (A == "--validate-only")
      O.ValidateOnly = true;
    else if (A == "--report" && HasValue)
      O.ReportPath = Argv[++I];
    else if (A == "--l2" && HasValue) {
      std::string V = Argv[++I];
      if (V != "warm" && V != "cold" && V != "both") {
        Error = "bad value '" + V + "' for --l2 (warm, cold or both)";
        return false;
      }
      O.L2 = V == "warm"   ? L2Timing::Warm
             : V == "cold" ? L2Timing::Cold
                           : L2Timing::Both;
    } else if ((A == "--repeats" || A == "--device" || A == "--time-budget") &&
               HasValue) {
      long Min = A == "--device" ? 0 : 1;
      long Max = A == "--repeats"  ? 100000
                 : A == "--device" ? INT_MAX
                                   : 3600000;
      long V;
      if (!parseInt(Argv[++I], Min, Max, V)) {
        Error = "bad value '" + std::string(Argv[I]) + "' for " + A;
        return false;
      }
      if (A == "--repeats")
        O.Repeats = static_cast<unsigned>(V);
      else if (A == "--device")
        O.Device = static_cast<int>(V);
      else
        O.BudgetMs = static_cast<unsigned>(V);
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

/// Whole or not at all (AtomicDirectory.h), never a partial report.
bool writeReport(const std::string &Path, const RunPlan &P, const RunResults &R,
                 std::string &Error) {
  std::ostringstream Text;
  printJSON(Text, P, R);
  return irs::writeFileAtomically(Path, Text.str(), Error);
}

std::string planPath(const std::string &Dir) {
  return Dir + "/" + irs::plan::FileName;
}

int runPlan(const Options &O) {
  // The run relies on nothing --validate-only does not check.
  LoadedPlan Loaded;
  std::string Error;
  if (!loadPlan(O.Dir, Loaded, Error))
    return fail(BadPlan, Error);
  const RunPlan &P = Loaded.P;
  if (O.ValidateOnly) {
    std::cout << planPath(O.Dir) << ": valid plan for " << P.Kernel << " ("
              << P.Launch.Buffers.size() << " buffers, " << P.Kernels.size()
              << " kernels)\n";
    return Ok;
  }
  std::string Why;
  if (!CudaDevice::probe(Why))
    return fail(NoDevice, Why);
  RunResults R;
  try {
    CudaDevice Dev(O.Device);
    PlanRunner Runner(Loaded, Dev);
    if (uint64_t Heap = Runner.heapBytes())
      std::cout << "device heap: " << (Heap >> 20)
                << " MiB for the kernels' malloc (Enzyme's cache of loop "
                   "values)\n";
    R = Runner.run(O.Repeats, O.L2, O.BudgetMs);
  } catch (const std::exception &E) { // CudaError, or a bug
    return fail(Failed, planPath(O.Dir) + ": " + E.what());
  }
  printTable(std::cout, P, R);
  if (!O.ReportPath.empty() && !writeReport(O.ReportPath, P, R, Error))
    return fail(NoOutput, O.ReportPath + ": cannot write the report: " + Error);
  return static_cast<int>(exitCodeOf(verdict(tally(R.Checks))));
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
