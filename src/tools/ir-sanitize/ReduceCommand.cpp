//===- ReduceCommand.cpp - `ir-sanitize reduce INPUT -o MIN.ll` -----------===//
//
// From an Enzyme crash dump to a minimal reproducer: run Enzyme on the module
// as given and sanitised, take the failure signature of the side to reduce,
// run it again to rule out a flaky failure, let llvm-reduce cut the module
// down with ir-sanitize itself as the interestingness test (the hidden
// --interestingness-test mode below), then write the result with a header
// saying how to reproduce it with plain opt.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EnzymeOptions.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Config.h"
#include "ir-sanitize/Enzyme/EnzymeSlice.h"
#include "ir-sanitize/Enzyme/FailureSignature.h"
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Enzyme/Reducer.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <thread>

using namespace llvm;

namespace irs::cli {
namespace {

int exitCode(ExitCode C) { return static_cast<int>(C); }

/// Which failure to reduce: the module as given or the sanitised one.
enum class Side { Original, Sanitised };

StringRef sideName(Side S) {
  return S == Side::Original ? "the module as given (before sanitising)"
                             : "the sanitised module (after sanitising)";
}

/// The side chosen, with the run that failed on it.
struct FailingSide {
  Side Which;
  EnzymeInvocation Inv;
  EnzymeResult First;
};

/// `reduce` ends early, with this exit code and message (not an error of
/// the tool: "nothing to reduce" is an answer).
struct Verdict {
  ExitCode Code;
  std::string Message;
};

std::string inDir(StringRef Dir, StringRef File) {
  SmallString<256> P(Dir);
  sys::path::append(P, File);
  return std::string(P);
}

/// llvm-reduce's best module: its output if it wrote one (only when it made
/// the module smaller) and that output is complete (a --max-time kill can
/// catch it half-written), else \p InputPath.
Expected<LoadedModule> readReduced(StringRef WorkDir, StringRef InputPath,
                                   LLVMContext &Ctx) {
  std::string Path = inDir(WorkDir, "reduced.ll");
  if (sys::fs::exists(Path)) {
    if (Expected<LoadedModule> M = readModule(Path, Ctx))
      return M;
    else
      consumeError(M.takeError());
  }
  return readModule(InputPath, Ctx);
}

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

class ReduceCommand : public Command {
public:
  void addOptions(CLI::App &App) override;
  int run() override;

private:
  int runInterestingnessTest() const;
  int reduce(LoadedModule &LM);
  Expected<FailingSide> pickSide(Module &Original, Module &Sanitised,
                                 StringRef WorkDir,
                                 std::optional<Verdict> &Stop) const;
  Expected<std::string> sliceFirst(const Module &Chosen, const FailingSide &S,
                                   const FailureSignature &Sig,
                                   StringRef WorkDir) const;
  Expected<ReduceOutcome> runReducer(StringRef InputPath, StringRef WorkDir,
                                     StringRef SignaturePath) const;
  Error writeReproducer(Module &M, const FailureSignature &Sig, Side Which,
                        const ModuleSize &Before, StringRef InputName) const;
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
  if (!sys::fs::can_execute(defaultLLVMReducePath()))
    return reportError(
        makeToolError(ExitCode::NoEnzyme, "no llvm-reduce at " +
                                              defaultLLVMReducePath() +
                                              " (it comes with opt, in llvm-" +
                                              Twine(hostLLVMMajor()) + ")"),
        ToolName);
  // A reduction takes minutes: find out now that -o cannot be written.
  if (Expected<std::unique_ptr<AtomicOutputFile>> Probe =
          AtomicOutputFile::open(Output);
      !Probe)
    return reportError(Probe.takeError(), ToolName);
  return reduce(*LM);
}

int ReduceCommand::runInterestingnessTest() const {
  // Anything but 0 means "not interesting" to llvm-reduce; nothing prints.
  auto Sig = MemoryBuffer::getFile(SignaturePath);
  auto Candidate = MemoryBuffer::getFile(Input);
  if (!Sig || !Candidate)
    return exitCode(ExitCode::BadInput);
  Expected<FailureSignature> Want = parseFailureSignature((*Sig)->getBuffer());
  if (!Want) {
    consumeError(Want.takeError());
    return exitCode(ExitCode::BadInput);
  }
  // A candidate without its Enzyme entry calls fails for some other reason.
  if (!callsEnzymeEntryPoint((*Candidate)->getBuffer()))
    return exitCode(ExitCode::Findings);
  SmallString<128> Log;
  if (sys::fs::createTemporaryFile("ir-sanitize-reduce-test", "log", Log))
    return exitCode(ExitCode::OutputError);
  EnzymeInvocation Inv;
  Inv.InputPath = Input;
  Inv.OutputPath = "/dev/null";
  Inv.LogPath = std::string(Log);
  Inv.PluginPath = PluginPath;
  Inv.TimeoutSeconds = D.TimeoutSeconds;
  Inv.ExtraArgs = D.ExtraOptArgs;
  Inv.Symbolize = false;
  Expected<bool> Same = failsWithSignature(Inv, *Want);
  sys::fs::remove(Log);
  if (!Same) {
    consumeError(Same.takeError());
    return exitCode(ExitCode::NoEnzyme);
  }
  return exitCode(*Same ? ExitCode::Ok : ExitCode::Findings);
}

/// Runs Enzyme on the sides the options ask about (both at once) and picks
/// the failure to reduce; sets \p Stop when there is none.
Expected<FailingSide>
ReduceCommand::pickSide(Module &Original, Module &Sanitised, StringRef WorkDir,
                        std::optional<Verdict> &Stop) const {
  struct Candidate {
    Side Which;
    Module *M;
    std::optional<PendingEnzymeRun> Run;
    EnzymeInvocation Inv;
  };
  std::vector<Candidate> Sides;
  // The sanitised failure first: what remains after sanitising is what to
  // report upstream.
  if (!BeforeSanitize)
    Sides.push_back({Side::Sanitised, &Sanitised, std::nullopt, {}});
  if (!AfterSanitize)
    Sides.push_back({Side::Original, &Original, std::nullopt, {}});
  for (Candidate &C : Sides) {
    Expected<EnzymeInvocation> Inv = prepareEnzymeRun(
        *C.M, WorkDir, C.Which == Side::Original ? "original" : "sanitised", "",
        D);
    if (!Inv)
      return Inv.takeError();
    Inv->OutputPath = "/dev/null";
    Inv->Symbolize = false; // As llvm-reduce runs its tests.
    Expected<PendingEnzymeRun> Run = startEnzyme(*Inv);
    if (!Run)
      return Run.takeError();
    C.Inv = *Inv;
    C.Run.emplace(std::move(*Run));
  }
  std::optional<FailingSide> Picked;
  for (Candidate &C : Sides) {
    EnzymeResult R = C.Run->finish();
    if (!R.ok() && !Picked)
      Picked = FailingSide{C.Which, C.Inv, R};
  }
  if (Picked)
    return *Picked;
  std::string What = AfterSanitize    ? "the sanitised module"
                     : BeforeSanitize ? "the module as given"
                                      : "the module as given and sanitised";
  Stop = Verdict{ExitCode::Findings,
                 "nothing to reduce: Enzyme differentiates " + What};
  return FailingSide{};
}

/// The module llvm-reduce starts from: \p Chosen cut down to what its Enzyme
/// calls reach when that still fails the same way (one Enzyme run instead of
/// minutes of bisection), else \p Chosen as written for the first run.
Expected<std::string> ReduceCommand::sliceFirst(const Module &Chosen,
                                                const FailingSide &S,
                                                const FailureSignature &Sig,
                                                StringRef WorkDir) const {
  std::unique_ptr<Module> Slice = CloneModule(Chosen);
  SliceStats Stats = sliceToEnzymeCalls(*Slice);
  if (Stats.Removed == 0)
    return S.Inv.InputPath;
  EnzymeInvocation Inv = S.Inv;
  Inv.InputPath = inDir(WorkDir, "slice.ll");
  Inv.LogPath = inDir(WorkDir, "slice.enzyme.log");
  if (Error E = writeModule(*Slice, Inv.InputPath, IRFormat::Text,
                            DebugInfoForm::Records))
    return E;
  Expected<bool> Same = failsWithSignature(Inv, Sig);
  if (!Same)
    return Same.takeError();
  note(formatv("reduce: {0} what the Enzyme calls reach ({1} global values "
               "kept, {2} removed): {3}",
               *Same ? "cut to" : "not cut to", Stats.Kept, Stats.Removed,
               *Same ? ModuleSize::of(*Slice).describe()
                     : "it does not fail the same way"));
  return *Same ? Inv.InputPath : S.Inv.InputPath;
}

Expected<ReduceOutcome>
ReduceCommand::runReducer(StringRef InputPath, StringRef WorkDir,
                          StringRef SignaturePath) const {
  ReduceRequest R;
  R.InputPath = InputPath.str();
  R.OutputPath = inDir(WorkDir, "reduced.ll");
  R.LogPath = inDir(WorkDir, "llvm-reduce.log");
  R.TestProgram = sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&createSubcommands));
  R.TestArgs = {"reduce", "--interestingness-test=" + SignaturePath.str(),
                "--enzyme-plugin=" + D.PluginPath,
                "--enzyme-timeout=" + std::to_string(D.TimeoutSeconds)};
  for (const std::string &A : D.ExtraOptArgs)
    R.TestArgs.push_back("--enzyme-arg=" + A);
  R.Jobs = Jobs;
  R.MaxSeconds = MaxSeconds;
  return runLLVMReduce(R, [&](const ReduceProgress &P) {
    note(formatv("reduce: {0,6:f1} s  {1,-40} best {2:N} bytes", P.Seconds,
                 P.Pass, P.BestBytes));
  });
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

Error ReduceCommand::writeReproducer(Module &M, const FailureSignature &Sig,
                                     Side Which, const ModuleSize &Before,
                                     StringRef InputName) const {
  if (Error E = verifyModuleOrError(M, "the reduced module"))
    return E;
  // Not the work file llvm-reduce named it after.
  M.setModuleIdentifier(sys::path::filename(Output));
  M.setSourceFileName(sys::path::filename(Output));
  ModuleSize After = ModuleSize::of(M);
  return writeFileAtomically(Output, [&](raw_ostream &OS) {
    OS << "; Minimal module on which Enzyme fails, made by ir-sanitize reduce\n"
       << "; signature: " << Sig.describe() << "\n"
       << "; reduced:   " << sideName(Which) << " of " << InputName << "\n"
       << "; reproduce: " << reproduceCommand() << "\n"
       << "; before:    " << Before.describe() << "\n"
       << "; after:     " << After.describe() << "\n"
       << "; version:   ir-sanitize " << IRS_VERSION << " (LLVM "
       << IRS_LLVM_VERSION_STRING << ")\n";
    M.print(OS, nullptr);
  });
}

int ReduceCommand::reduce(LoadedModule &LM) {
  SanitizeResult Result;
  Expected<std::unique_ptr<Module>> Original =
      prepareOriginalAndSanitised(LM, Opts, D, Result);
  if (!Original)
    return reportError(Original.takeError(), ToolName);
  Expected<std::string> WorkDir = createEnzymeWorkDir();
  if (!WorkDir)
    return reportError(WorkDir.takeError(), ToolName);
  auto Fail = [&](ExitCode Code, const Twine &Msg) {
    errs() << ToolName << ": " << (Code == ExitCode::Findings ? "" : "error: ")
           << LM.DisplayName << ": " << Msg << "\n";
    errs() << ToolName << ": note: logs kept in " << *WorkDir << "\n";
    return exitCode(Code);
  };

  std::optional<Verdict> Stop;
  Expected<FailingSide> S = pickSide(**Original, *LM.M, *WorkDir, Stop);
  if (!S)
    return reportError(S.takeError(), ToolName);
  if (Stop)
    return Fail(Stop->Code, Stop->Message);
  FailureSignature Sig = *FailureSignature::of(S->First);
  note("reduce: reducing " + sideName(S->Which) + ": Enzyme " +
       S->First.summary());

  // A failure that does not repeat cannot guide a reduction.
  EnzymeInvocation Again = S->Inv;
  Again.LogPath = inDir(*WorkDir, "confirm.enzyme.log");
  Expected<EnzymeResult> Second = runEnzyme(Again);
  if (!Second)
    return reportError(Second.takeError(), ToolName);
  std::optional<FailureSignature> SecondSig = FailureSignature::of(*Second);
  if (!SecondSig || *SecondSig != Sig)
    return Fail(ExitCode::Findings,
                "flaky: Enzyme failed once (" + Sig.describe() +
                    ") but not the same way again (" +
                    (SecondSig ? SecondSig->describe() : "ok") +
                    "); nothing to reduce");

  std::string SignaturePath = inDir(*WorkDir, "signature.json");
  if (Error E = writeFileAtomically(SignaturePath, [&](raw_ostream &OS) {
        OS << formatv("{0:2}", toJSON(Sig)) << "\n";
      }))
    return reportError(std::move(E), ToolName);
  Module &Chosen = S->Which == Side::Original ? **Original : *LM.M;
  ModuleSize Before = ModuleSize::of(Chosen);
  note("reduce: signature: " + Sig.describe() + "; " + Before.describe());

  Expected<std::string> Start = sliceFirst(Chosen, *S, Sig, *WorkDir);
  if (!Start)
    return reportError(Start.takeError(), ToolName);
  Expected<ReduceOutcome> Outcome = runReducer(*Start, *WorkDir, SignaturePath);
  if (!Outcome)
    return reportError(Outcome.takeError(), ToolName);
  if (!Outcome->finished() && !Outcome->stoppedAtMaxTime())
    return Fail(ExitCode::Findings, "llvm-reduce stopped (" +
                                        Outcome->Child.describe(0) + "); see " +
                                        inDir(*WorkDir, "llvm-reduce.log"));
  if (Outcome->stoppedAtMaxTime())
    note(formatv("reduce: stopped at --max-time {0} s; keeping the smallest "
                 "module found so far",
                 MaxSeconds));

  LLVMContext ReducedCtx;
  Expected<LoadedModule> Reduced = readReduced(*WorkDir, *Start, ReducedCtx);
  if (!Reduced)
    return reportError(Reduced.takeError(), ToolName);
  // The reproducer must fail the same way; llvm-reduce checked it, but this
  // is the module we hand out.
  EnzymeInvocation Check = S->Inv;
  Check.InputPath = Reduced->Path;
  Check.LogPath = inDir(*WorkDir, "reduced.enzyme.log");
  Expected<bool> Same = failsWithSignature(Check, Sig);
  if (!Same)
    return reportError(Same.takeError(), ToolName);
  if (!*Same)
    return Fail(ExitCode::Findings,
                "the reduced module no longer fails with the signature; see " +
                    Check.LogPath);
  if (Error E =
          writeReproducer(*Reduced->M, Sig, S->Which, Before, LM.DisplayName))
    return reportError(std::move(E), ToolName);
  note("reduce: " + Before.describe() + " -> " +
       ModuleSize::of(*Reduced->M).describe() + "; wrote " + Output);
  if (!KeepTemps)
    sys::fs::remove_directories(*WorkDir);
  return exitCode(ExitCode::Ok);
}

} // namespace

std::unique_ptr<Command> createReduceCommand() {
  return std::make_unique<ReduceCommand>();
}

} // namespace irs::cli
