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
#include "Memcheck.h"
#include "PlanLoader.h"
#include "PlanRunner.h"
#include "Report.h"

#include "ir-sanitize/Support/AtomicDirectory.h"
#include "ir-sanitize/Support/ExitCode.h"
#include "ir-sanitize/Support/MessageText.h"

#include <cerrno>
#include <climits>
#include <optional>
#include <vector>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

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
  --no-timing       run the checks only
  --memcheck        also run every check once under compute-sanitizer's
                    memcheck ($IRS_COMPUTE_SANITIZER, PATH or
                    /usr/local/cuda/bin), each buffer an allocation of its
                    own: a "memcheck" check fails with every invalid access,
                    named by kernel and buffer (skipped where no
                    compute-sanitizer is found)
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
  bool NoTiming = false;
  bool Memcheck = false;
  /// Internal (--memcheck's child under compute-sanitizer): buffers without
  /// guard zones, their addresses printed, the checks only.
  bool MemcheckChild = false;
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
    else if (A == "--no-timing")
      O.NoTiming = true;
    else if (A == "--memcheck")
      O.Memcheck = true;
    else if (A == "--memcheck-child")
      O.MemcheckChild = true;
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

/// The last line of \p Text that is not empty, or "(no output)".
std::string lastLine(const std::string &Text) {
  size_t End = Text.find_last_not_of('\n');
  if (End == std::string::npos)
    return "(no output)";
  size_t Start = Text.rfind('\n', End);
  Start = Start == std::string::npos ? 0 : Start + 1;
  return irs::keepOnOneLine(Text.substr(Start, End + 1 - Start));
}

/// Runs \p Argv with stdout and stderr into \p Output; its wait status, or
/// -1 when it cannot be started.
int runCapturing(const std::vector<std::string> &Argv, std::string &Output) {
  char Path[] = "/tmp/ir-sanitize-gpurun-memcheck-XXXXXX";
  int FD = ::mkstemp(Path);
  if (FD < 0)
    return -1;
  ::unlink(Path); // read back through FD, gone whatever happens
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, FD, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&Actions, FD, STDERR_FILENO);
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  pid_t Pid;
  int Err = posix_spawn(&Pid, Args[0], &Actions, nullptr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  int Status = -1;
  if (Err == 0)
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
  ::lseek(FD, 0, SEEK_SET);
  char Chunk[1 << 16];
  for (ssize_t N; (N = ::read(FD, Chunk, sizeof(Chunk))) > 0;)
    Output.append(Chunk, static_cast<size_t>(N));
  ::close(FD);
  return Err == 0 ? Status : -1;
}

/// The "memcheck" check: this runner's checks again, in a child under
/// compute-sanitizer (Memcheck.h).
CheckResult runUnderMemcheck(const Options &O) {
  std::optional<std::string> Tool = findComputeSanitizer();
  if (!Tool)
    return memcheckCheck({}, "no compute-sanitizer (IRS_COMPUTE_SANITIZER, "
                             "PATH, /usr/local/cuda/bin)");
  // This very runner (/proc/self/exe would name compute-sanitizer there).
  char Self[4096];
  ssize_t Length = ::readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (Length <= 0)
    return memcheckCheck({}, "cannot tell where this runner is");
  std::string Output;
  int Status =
      runCapturing({*Tool, "--tool", "memcheck", "--print-limit", "100",
                    std::string(Self, size_t(Length)), O.Dir,
                    "--memcheck-child", "--device", std::to_string(O.Device)},
                   Output);
  if (Status < 0 || Output.find("ERROR SUMMARY") == std::string::npos)
    return memcheckCheck({}, "compute-sanitizer did not run the checks: " +
                                 lastLine(Output));
  return memcheckCheck(parseMemcheck(Output), "");
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
    PlanRunner Runner(Loaded, Dev, /*Guards=*/!O.MemcheckChild);
    if (O.MemcheckChild)
      for (const DeviceBuffer &B : Runner.deviceBuffers())
        std::cout << bufferLine(B) << "\n";
    if (uint64_t Heap = Runner.heapBytes())
      std::cout << "device heap: " << (Heap >> 20)
                << " MiB for the kernels' malloc (Enzyme's cache of loop "
                   "values)\n";
    R = O.NoTiming || O.MemcheckChild ? Runner.runChecks()
                                      : Runner.run(O.Repeats, O.L2, O.BudgetMs);
  } catch (const std::exception &E) { // CudaError, or a bug
    return fail(Failed, planPath(O.Dir) + ": " + E.what());
  }
  if (O.Memcheck)
    R.Checks.push_back(runUnderMemcheck(O));
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
