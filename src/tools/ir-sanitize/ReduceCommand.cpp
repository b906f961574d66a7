//===- ReduceCommand.cpp - `ir-sanitize reduce INPUT -o MIN.ll` -----------===//
//
// From an Enzyme crash dump to a minimal reproducer (the driver's Reduce):
// sanitise, let the driver pick and confirm the failure and cut the module
// down with llvm-reduce, with ir-sanitize itself as the interestingness test
// (the hidden --interestingness-test mode below), then write the result with
// a header saying how to reproduce it with plain opt. This file parses,
// calls and prints.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Config.h"
#include "ir-sanitize/Driver/Reduce.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace llvm;

namespace irs::cli {
namespace {

int exitCode(ExitCode C) { return static_cast<int>(C); }

/// \p Arg quoted for a POSIX shell where it needs to be.
std::string shellQuote(StringRef Arg) {
  if (!Arg.empty() && Arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEF"
                                            "GHIJKLMNOPQRSTUVWXYZ0123456789_"
                                            "-./=:+,@%") == StringRef::npos)
    return Arg.str();
  std::string Q = "'";
  for (char C : Arg)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

/// The exit code \p E carries, printing nothing (the interestingness test
/// answers llvm-reduce with its exit code alone).
int silentExitCode(Error E) {
  ExitCode Code = ExitCode::BadInput;
  handleAllErrors(
      std::move(E), [&](const ToolError &T) { Code = T.code(); },
      [](const ErrorInfoBase &) {});
  return exitCode(Code);
}

class ReduceCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  int runInterestingnessTest() const;
  int reduce(LoadedModule &LM);
  ReduceConfig reduceConfig() const;
  int printVerdict(const ReduceResult &R, StringRef InputName) const;
  Error writeReproducer(const ReduceResult &R, StringRef InputName) const;
  std::string reproduceCommand() const;
  void note(const Twine &Msg) const;

  std::string Input;
  std::string PluginPath; ///< --enzyme-plugin.
  DifferentiateConfig D;  ///< PluginPath: the plugin found.
  SanitizeOptions Opts;
  std::string Output; ///< MIN.ll; required.
  unsigned Jobs = std::max(1u, std::thread::hardware_concurrency());
  unsigned MaxSeconds = 0;
  bool AfterSanitize = false;
  bool BeforeSanitize = false;
  bool KeepTemps = false;
  std::string SignaturePath; ///< Set: run as llvm-reduce's test.
};

void ReduceCommand::addOptions(CLI::App &App) {
  addEnzymeRunOptions(App, Input, PluginPath, D);
  App.add_option("-o,--output", Output,
                 "the reduced module (text IR, with a header saying how to "
                 "reproduce the failure)")
      ->type_name("MIN.ll");
  App.add_option("-j,--jobs", Jobs,
                 "candidates llvm-reduce tests at once (default: the cores)")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u));
  App.add_option("--max-time", MaxSeconds,
                 "stop reducing after this long and keep the smallest module "
                 "found so far (0: no limit)")
      ->type_name("SECONDS");
  App.add_flag("--after-sanitize", AfterSanitize,
               "reduce the failure that remains after sanitising (the default "
               "when there is one)");
  App.add_flag("--before-sanitize", BeforeSanitize,
               "reduce the failure of the module as given (the default when "
               "sanitising fixes it)");
  App.add_flag("--keep-temps", KeepTemps,
               "keep the work directory (logs, llvm-reduce's candidates)");
  // What llvm-reduce runs on each candidate: exit 0 when Enzyme fails on it
  // with the signature in FILE.
  App.add_option("--interestingness-test", SignaturePath)->group("");
  addSanitizeOptions(App, Opts);
}

void ReduceCommand::note(const Twine &Msg) const {
  if (!Opts.Quiet)
    errs() << ToolName << ": " << Msg << "\n";
}

int ReduceCommand::run() {
  if (!SignaturePath.empty())
    return runInterestingnessTest();
  const char *Conflict = nullptr;
  if (AfterSanitize && BeforeSanitize)
    Conflict = "--after-sanitize and --before-sanitize exclude each other";
  else if (Output.empty())
    Conflict = "reduce needs -o MIN.ll";
  if (Conflict) {
    errs() << ToolName << ": error: " << Conflict << "\n";
    return exitCode(ExitCode::Usage);
  }
  LLVMContext Ctx;
  Expected<LoadedModule> LM = readModule(Input, Ctx);
  if (!LM)
    return reportError(LM.takeError(), ToolName);
  PluginSearch Search;
  Search.Explicit = PluginPath;
  Expected<LocatedPlugin> Plugin = locateEnzymePlugin(Search);
  if (!Plugin)
    return reportError(Plugin.takeError(), ToolName);
  D.PluginPath = Plugin->Path;
  if (Error E = checkLLVMReduce(reduceConfig()))
    return reportError(std::move(E), ToolName);
  // A reduction takes minutes: find out now that -o cannot be written.
  if (Expected<std::unique_ptr<AtomicOutputFile>> Probe =
          AtomicOutputFile::open(Output);
      !Probe)
    return reportError(Probe.takeError(), ToolName);
  return reduce(*LM);
}

int ReduceCommand::runInterestingnessTest() const {
  // Anything but 0 means "not interesting" to llvm-reduce; nothing prints.
  DifferentiateConfig Test = D;
  Test.PluginPath = PluginPath;
  Expected<bool> Fails = failsLikeSignature(Input, SignaturePath, Test);
  if (!Fails)
    return silentExitCode(Fails.takeError());
  return exitCode(*Fails ? ExitCode::Ok : ExitCode::Findings);
}

ReduceConfig ReduceCommand::reduceConfig() const {
  ReduceConfig C;
  C.Enzyme = D;
  if (AfterSanitize)
    C.Side = ReduceSide::Sanitised;
  else if (BeforeSanitize)
    C.Side = ReduceSide::Original;
  C.Jobs = Jobs;
  C.MaxSeconds = MaxSeconds;
  // The test is this program's hidden mode; the driver appends the
  // signature file (the value of --interestingness-test), llvm-reduce the
  // candidate (INPUT).
  C.TestProgram = sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&createSubcommands));
  C.TestArgs = {"reduce", "--enzyme-plugin=" + D.PluginPath,
                "--enzyme-timeout=" + std::to_string(D.TimeoutSeconds)};
  for (const std::string &A : D.ExtraOptArgs)
    C.TestArgs.push_back("--enzyme-arg=" + A);
  C.TestArgs.push_back("--interestingness-test");
  C.ReducedName = sys::path::filename(Output).str();
  C.Note = [this](const std::string &Msg) { note("reduce: " + Msg); };
  C.Progress = [this](const ReduceProgress &P) {
    note(formatv("reduce: {0,6:f1} s  {1,-40} best {2:N} bytes", P.Seconds,
                 P.Pass, P.BestBytes));
  };
  return C;
}

std::string ReduceCommand::reproduceCommand() const {
  EnzymeInvocation Inv;
  Inv.InputPath = Output;
  Inv.OutputPath = "/dev/null";
  Inv.PluginPath = D.PluginPath;
  Inv.ExtraArgs = D.ExtraOptArgs;
  std::string Cmd = shellQuote(defaultOptPath());
  for (const std::string &A : enzymeOptArgs(Inv))
    Cmd += " " + shellQuote(A);
  return Cmd;
}

Error ReduceCommand::writeReproducer(const ReduceResult &R,
                                     StringRef InputName) const {
  if (Error E = verifyModuleOrError(*R.Reduced, "the reduced module"))
    return E;
  return writeFileAtomically(Output, [&](raw_ostream &OS) {
    OS << "; Minimal module on which Enzyme fails, made by ir-sanitize reduce\n"
       << "; signature: " << R.Signature.describe() << "\n"
       << "; reduced:   " << describeSide(R.Side) << " of " << InputName << "\n"
       << "; reproduce: " << reproduceCommand() << "\n"
       << "; before:    " << R.Before.describe() << "\n"
       << "; after:     " << R.After.describe() << "\n"
       << "; version:   ir-sanitize " << IRS_VERSION << " (LLVM "
       << IRS_LLVM_VERSION_STRING << ")\n";
    R.Reduced->print(OS, nullptr);
  });
}

/// Why nothing was written; the logs are kept.
int ReduceCommand::printVerdict(const ReduceResult &R,
                                StringRef InputName) const {
  ExitCode Code = R.Verdict->Code;
  errs() << ToolName << ": " << (Code == ExitCode::Findings ? "" : "error: ")
         << InputName << ": " << R.Verdict->Message << "\n";
  errs() << ToolName << ": note: logs kept in " << R.WorkDir << "\n";
  return exitCode(Code);
}

int ReduceCommand::reduce(LoadedModule &LM) {
  Expected<EnzymeSides> Sides = prepareEnzymeSides(LM, Opts, D);
  if (!Sides)
    return reportError(Sides.takeError(), ToolName);
  Expected<ReduceResult> R = reduceEnzymeFailure(
      *Sides->Original, *LM.M, Sides->WorkDir, reduceConfig());
  if (!R)
    return reportError(R.takeError(), ToolName);
  if (R->Verdict)
    return printVerdict(*R, LM.DisplayName);
  if (Error E = writeReproducer(*R, LM.DisplayName))
    return reportError(std::move(E), ToolName);
  note("reduce: " + R->Before.describe() + " -> " + R->After.describe() +
       "; wrote " + Output);
  if (!KeepTemps)
    sys::fs::remove_directories(R->WorkDir);
  return exitCode(ExitCode::Ok);
}

} // namespace

std::unique_ptr<Command> createReduceCommand() {
  return std::make_unique<ReduceCommand>();
}

} // namespace irs::cli
