//===- Reduce.cpp - From an Enzyme failure to a minimal module ------------===//
#include "ir-sanitize/Driver/Reduce.h"

#include "ir-sanitize/Support/PathIn.h"
#include "ir-sanitize/Support/ScopedWorkDir.h"

#include "ir-sanitize/Config.h"

#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/InputFile.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/EnzymeSlice.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs {
namespace {

std::string reducerPath(const ReduceConfig &C) {
  return C.ReducerPath.empty() ? defaultLLVMReducePath() : C.ReducerPath;
}

/// The side chosen, with the run that failed on it.
struct FailingSide {
  ReduceSide Which;
  Module *M;
  EnzymeInvocation Inv;
  EnzymeResult First;
};

/// One reduction: the steps of reduceEnzymeFailure, sharing the config, the
/// work directory and the result being filled in.
class ReducePipeline {
public:
  ReducePipeline(StringRef WorkDir, const ReduceConfig &C,
                 DiagnosticHandler &Diags)
      : C(C), Diags(Diags) {
    R.WorkDir = WorkDir.str();
  }
  Expected<ReduceResult> run(Module &Original, Module &Sanitized);

private:
  Expected<std::optional<FailingSide>> pickSide(Module &Original,
                                                Module &Sanitized) const;
  Expected<std::optional<std::string>> flakiness(const FailingSide &S) const;
  Expected<ReduceResult> reduce(const FailingSide &S);
  Expected<std::string> sliceFirst(const FailingSide &S) const;
  Expected<ReduceOutcome> runReducer(StringRef InputPath,
                                     StringRef SignaturePath) const;
  Error readAndRecheck(const FailingSide &S, StringRef Start);
  void note(const Twine &Msg) const { Diags.note(Msg); }
  Expected<ReduceResult> stop(const Twine &Msg) {
    R.Verdict = ReduceVerdict{ExitCode::Findings, Msg.str()};
    return std::move(R);
  }

  const ReduceConfig &C;
  DiagnosticHandler &Diags;
  ReduceResult R;
};

/// Runs Enzyme on the sides the config asks about (both at once) and picks
/// the failure to reduce; none when Enzyme succeeds on all of them.
Expected<std::optional<FailingSide>>
ReducePipeline::pickSide(Module &Original, Module &Sanitized) const {
  std::vector<FailingSide> Sides;
  std::vector<PendingEnzymeRun> Runs;
  // The sanitised failure first: what remains after sanitising is what to
  // report upstream.
  if (C.Side != ReduceSide::Original)
    Sides.push_back({ReduceSide::Sanitized, &Sanitized, {}, {}});
  if (C.Side != ReduceSide::Sanitized)
    Sides.push_back({ReduceSide::Original, &Original, {}, {}});
  for (FailingSide &S : Sides) {
    bool IsOriginal = S.Which == ReduceSide::Original;
    Expected<EnzymeInvocation> Inv = prepareEnzymeRun(
        *S.M, R.WorkDir, IsOriginal ? "original" : "sanitized", "", C.Enzyme);
    if (!Inv)
      return Inv.takeError();
    Inv->OutputPath = "/dev/null";
    Inv->Symbolize = false; // As llvm-reduce runs its tests.
    Expected<PendingEnzymeRun> Run = startEnzyme(*Inv);
    if (!Run)
      return Run.takeError();
    S.Inv = *Inv;
    Runs.push_back(std::move(*Run));
  }
  std::optional<FailingSide> Picked;
  for (size_t I = 0; I != Sides.size(); ++I) {
    Sides[I].First = Runs[I].finish();
    if (!Sides[I].First.ok() && !Picked)
      Picked = Sides[I];
  }
  return Picked;
}

/// A message saying why the failure of \p S cannot guide a reduction when a
/// second run does not fail the same way; none when it does.
Expected<std::optional<std::string>>
ReducePipeline::flakiness(const FailingSide &S) const {
  EnzymeInvocation Again = S.Inv;
  Again.LogPath = pathIn(R.WorkDir, "confirm.enzyme.log");
  Expected<EnzymeResult> Second = runEnzyme(Again);
  if (!Second)
    return Second.takeError();
  std::optional<FailureSignature> SecondSig = FailureSignature::of(*Second);
  if (SecondSig && *SecondSig == R.Signature)
    return std::nullopt;
  return "flaky: Enzyme failed once (" + R.Signature.describe() +
         ") but not the same way again (" +
         (SecondSig ? SecondSig->describe() : "ok") + "); nothing to reduce";
}

/// The module llvm-reduce starts from: the chosen side cut down to what its
/// Enzyme calls reach when that still fails the same way (one Enzyme run
/// instead of minutes of bisection), else the side as written for the first
/// run.
Expected<std::string> ReducePipeline::sliceFirst(const FailingSide &S) const {
  std::unique_ptr<Module> Slice = CloneModule(*S.M);
  PassResults Results;
  cantFail(runPipeline(*Slice, passname::EnzymeSlicePass, &Results));
  const SliceStats &Stats = Results.get<SliceStats>();
  if (Stats.Removed == 0)
    return S.Inv.InputPath;
  EnzymeInvocation Inv = S.Inv;
  Inv.InputPath = pathIn(R.WorkDir, "slice.ll");
  Inv.LogPath = pathIn(R.WorkDir, "slice.enzyme.log");
  if (Error E = writeModule(*Slice, Inv.InputPath, IRFormat::Text,
                            DebugInfoForm::Records))
    return E;
  Expected<bool> Same = failsWithSignature(Inv, R.Signature);
  if (!Same)
    return Same.takeError();
  note(formatv("{0} what the Enzyme calls reach ({1} global values kept, {2} "
               "removed): {3}",
               *Same ? "cut to" : "not cut to", Stats.Kept, Stats.Removed,
               *Same ? ModuleSize::of(*Slice).describe()
                     : "it does not fail the same way"));
  return *Same ? Inv.InputPath : S.Inv.InputPath;
}

Expected<ReduceOutcome>
ReducePipeline::runReducer(StringRef InputPath, StringRef SignaturePath) const {
  LLVMReduceRequest Req;
  Req.ReducerPath = reducerPath(C);
  Req.InputPath = InputPath.str();
  Req.OutputPath = pathIn(R.WorkDir, "reduced.ll");
  Req.LogPath = pathIn(R.WorkDir, "llvm-reduce.log");
  Req.TestProgram = C.TestProgram;
  Req.TestArgs = C.TestArgs;
  Req.TestArgs.push_back(SignaturePath.str());
  Req.Jobs = C.Jobs;
  Req.MaxSeconds = C.MaxSeconds;
  return runLLVMReduce(Req, [&](const ReduceProgress &P) {
    Diags.progress(formatv("{0,6:f1} s  {1,-40} best {2:N} bytes", P.Seconds,
                           P.Pass, P.BestBytes));
  });
}

/// llvm-reduce's best module: its output if it wrote one (only when it made
/// the module smaller) and that output is complete (a MaxSeconds kill can
/// catch it half-written), else \p InputPath.
Expected<LoadedModule> readReduced(StringRef WorkDir, StringRef InputPath,
                                   LLVMContext &Ctx) {
  std::string Path = pathIn(WorkDir, "reduced.ll");
  if (sys::fs::exists(Path)) {
    if (Expected<LoadedModule> M = readModule(Path, Ctx))
      return M;
    else
      consumeError(M.takeError());
  }
  return readModule(InputPath, Ctx);
}

/// Reads llvm-reduce's best module into R and checks that it fails the same
/// way (llvm-reduce checked it, but this is the module handed out); sets a
/// verdict when it does not.
Error ReducePipeline::readAndRecheck(const FailingSide &S, StringRef Start) {
  R.Context = std::make_unique<LLVMContext>();
  Expected<LoadedModule> Reduced = readReduced(R.WorkDir, Start, *R.Context);
  if (!Reduced)
    return Reduced.takeError();
  EnzymeInvocation Check = S.Inv;
  Check.InputPath = Reduced->Path;
  Check.LogPath = pathIn(R.WorkDir, "reduced.enzyme.log");
  Expected<bool> Same = failsWithSignature(Check, R.Signature);
  if (!Same)
    return Same.takeError();
  if (!*Same) {
    R.Verdict = ReduceVerdict{
        ExitCode::Findings,
        "the reduced module no longer fails with the signature; see " +
            Check.LogPath};
    return Error::success();
  }
  R.Reduced = std::move(Reduced->M);
  // Named after where it goes, not the work file llvm-reduce wrote.
  R.Reduced->setModuleIdentifier(C.ReducedName);
  R.Reduced->setSourceFileName(C.ReducedName);
  R.After = ModuleSize::of(*R.Reduced);
  return Error::success();
}

/// "the module as given (before sanitising)", "the sanitised module (after
/// sanitising)".
StringRef describeSide(ReduceSide Side) {
  return Side == ReduceSide::Original
             ? "the module as given (before sanitising)"
             : "the sanitised module (after sanitising)";
}

std::string nothingToReduce(std::optional<ReduceSide> Side) {
  const char *What = !Side ? "the module as given and sanitised"
                     : *Side == ReduceSide::Sanitized ? "the sanitised module"
                                                      : "the module as given";
  return std::string("nothing to reduce: Enzyme differentiates ") + What;
}

Expected<ReduceResult> ReducePipeline::run(Module &Original,
                                           Module &Sanitized) {
  Expected<std::optional<FailingSide>> S = pickSide(Original, Sanitized);
  if (!S)
    return S.takeError();
  if (!*S)
    return stop(nothingToReduce(C.Side));
  R.Side = (*S)->Which;
  R.Signature = *FailureSignature::of((*S)->First);
  note("reducing " + describeSide(R.Side) + ": Enzyme " +
       (*S)->First.summary());
  Expected<std::optional<std::string>> Flaky = flakiness(**S);
  if (!Flaky)
    return Flaky.takeError();
  if (*Flaky)
    return stop(**Flaky);
  return reduce(**S);
}

/// From a confirmed failure: the signature file for the test, the slice,
/// llvm-reduce, the re-check.
Expected<ReduceResult> ReducePipeline::reduce(const FailingSide &S) {
  std::string SignaturePath = pathIn(R.WorkDir, "signature.json");
  if (Error E = writeFileAtomically(SignaturePath, [&](raw_ostream &OS) {
        OS << formatv("{0:2}", toJSON(R.Signature)) << "\n";
      }))
    return E;
  R.Before = ModuleSize::of(*S.M);
  note("signature: " + R.Signature.describe() + "; " + R.Before.describe());
  Expected<std::string> Start = sliceFirst(S);
  if (!Start)
    return Start.takeError();
  Expected<ReduceOutcome> Outcome = runReducer(*Start, SignaturePath);
  if (!Outcome)
    return Outcome.takeError();
  R.StoppedAtMaxTime = Outcome->stoppedAtMaxTime();
  if (!Outcome->finished() && !R.StoppedAtMaxTime)
    return stop("llvm-reduce stopped (" + Outcome->Child.describe(0) +
                "); see " + pathIn(R.WorkDir, "llvm-reduce.log"));
  if (R.StoppedAtMaxTime)
    note(formatv("stopped at --max-time {0} s; keeping the smallest module "
                 "found so far",
                 C.MaxSeconds));
  if (Error E = readAndRecheck(S, *Start))
    return E;
  return std::move(R);
}

} // namespace

Error checkLLVMReduce(const ReduceConfig &C) {
  std::string Path = reducerPath(C);
  if (sys::fs::can_execute(Path))
    return Error::success();
  return makeToolError(ExitCode::NoEnzyme, "no llvm-reduce at " + Path +
                                               " (it comes with opt, in llvm-" +
                                               Twine(hostLLVMMajor()) + ")");
}

Expected<ReduceResult> reduceEnzymeFailure(Module &Original, Module &Sanitized,
                                           StringRef WorkDir,
                                           const ReduceConfig &C,
                                           DiagnosticHandler &Diags) {
  return ReducePipeline(WorkDir, C, Diags).run(Original, Sanitized);
}

Expected<bool> failsLikeSignature(StringRef CandidatePath,
                                  StringRef SignaturePath,
                                  const DifferentiateConfig &C) {
  std::string Sig, Candidate, Problem;
  for (auto [Path, Kind, Text] :
       {std::tuple{SignaturePath, &FailureSignatureInput, &Sig},
        std::tuple{CandidatePath, &ModuleInput, &Candidate}})
    if (!readInputFile(Path.str(), *Kind, *Text, Problem))
      return makeToolError(ExitCode::BadInput,
                           "cannot read " + Path + ": " + Problem);
  Expected<FailureSignature> Want = parseFailureSignature(Sig);
  if (!Want)
    return Want.takeError();
  // A candidate without its Enzyme entry calls fails for some other reason.
  if (!callsEnzymeEntryPoint(Candidate))
    return false;
  SmallString<128> Log;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("ir-sanitize-reduce-test", "log", Log))
    return makeToolError(ExitCode::OutputError,
                         "cannot create a temporary log: " + EC.message());
  EnzymeInvocation Inv;
  Inv.InputPath = CandidatePath.str();
  Inv.OutputPath = "/dev/null";
  Inv.LogPath = std::string(Log);
  Inv.PluginPath = C.PluginPath;
  Inv.TimeoutSeconds = C.TimeoutSeconds;
  Inv.ExtraArgs = C.ExtraOptArgs;
  Inv.Symbolize = false;
  Expected<bool> Same = failsWithSignature(Inv, *Want);
  sys::fs::remove(Log);
  if (!Same)
    return makeToolError(ExitCode::NoEnzyme, toString(Same.takeError()));
  return *Same;
}

} // namespace irs

namespace irs {
namespace {

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

/// The plain opt command that shows the failure on \p Path.
std::string reproduceCommand(StringRef Path, const DifferentiateConfig &D) {
  EnzymeInvocation Inv;
  Inv.InputPath = Path.str();
  Inv.OutputPath = "/dev/null";
  Inv.PluginPath = D.PluginPath;
  Inv.ExtraArgs = D.ExtraOptArgs;
  std::string Cmd = shellQuote(defaultOptPath());
  for (const std::string &A : enzymeOptArgs(Inv))
    Cmd += " " + shellQuote(A);
  return Cmd;
}

Error writeReproducer(const ReduceResult &R, StringRef Path,
                      StringRef InputName, const DifferentiateConfig &D) {
  if (Error E = verifyModuleOrError(*R.Reduced, "the reduced module"))
    return E;
  return writeFileAtomically(Path, [&](raw_ostream &OS) {
    OS << "; Minimal module on which Enzyme fails, made by ir-sanitize reduce\n"
       << "; signature: " << R.Signature.describe() << "\n"
       << "; reduced:   " << describeSide(R.Side) << " of " << InputName << "\n"
       << "; reproduce: " << reproduceCommand(Path, D) << "\n"
       << "; before:    " << R.Before.describe() << "\n"
       << "; after:     " << R.After.describe() << "\n"
       << "; version:   ir-sanitize " << IRS_VERSION << " (LLVM "
       << IRS_LLVM_VERSION_STRING << ")\n";
    R.Reduced->print(OS, nullptr);
  });
}

/// What the reduction reports reaches the user as progress "reduce: MSG",
/// as the command has always shown it.
class ReduceStepHandler final : public DiagnosticHandler {
public:
  explicit ReduceStepHandler(DiagnosticHandler &Out) : Out(Out) {}
  void handle(DiagnosticKind, const std::string &Message) override {
    Out.progress("reduce: " + Message);
  }

private:
  DiagnosticHandler &Out;
};

/// The reduction's configuration for \p Req, with the located plugin \p D.
ReduceConfig reduceConfig(const ReduceRequest &Req,
                          const DifferentiateConfig &D) {
  ReduceConfig C;
  C.Enzyme = D;
  C.Side = Req.Side;
  C.Jobs = Req.Jobs;
  C.MaxSeconds = Req.MaxSeconds;
  C.ReducerPath = Req.ReducerPath;
  // The test is the program's hidden mode; reduceEnzymeFailure appends the
  // signature file (the value of --interestingness-test), llvm-reduce the
  // candidate (INPUT).
  C.TestProgram = Req.TestProgram;
  C.TestArgs = {"reduce", "--enzyme-plugin=" + D.PluginPath,
                "--enzyme-timeout=" + std::to_string(D.TimeoutSeconds)};
  for (const std::string &A : D.ExtraOptArgs)
    C.TestArgs.push_back("--enzyme-arg=" + A);
  C.TestArgs.push_back("--interestingness-test");
  C.ReducedName = sys::path::filename(Req.Sanitize.Output).str();
  return C;
}

} // namespace

Expected<ReduceJobResult> runReduce(const ReduceRequest &Req, LLVMContext &Ctx,
                                    DiagnosticHandler &Diags) {
  JobFiles Files = sanitizeJobFiles(Req.Sanitize);
  Files.Inputs.push_back({"--enzyme-plugin", Req.PluginPath});
  if (Error E = checkDistinctFiles(Files))
    return E;
  Expected<LoadedModule> LM = readModule(Req.Sanitize.Input, Ctx);
  if (!LM)
    return LM.takeError();
  DifferentiateConfig D = Req.Enzyme;
  PluginSearch Search;
  Search.Explicit = Req.PluginPath;
  Expected<LocatedPlugin> Plugin = locateEnzymePlugin(Search);
  if (!Plugin)
    return Plugin.takeError();
  D.PluginPath = Plugin->Path;
  ReduceConfig Config = reduceConfig(Req, D);
  if (Error E = checkLLVMReduce(Config))
    return E;
  const std::string &Output = Req.Sanitize.Output;
  // A reduction takes minutes: find out now that the output cannot be
  // written.
  if (Expected<std::unique_ptr<AtomicOutputFile>> Probe =
          AtomicOutputFile::open(Output);
      !Probe)
    return Probe.takeError();
  Expected<EnzymeSides> Sides = prepareEnzymeSides(*LM, Req.Sanitize, D, Diags);
  if (!Sides)
    return Sides.takeError();
  ScopedWorkDir Dir(Sides->WorkDir, Req.KeepTemps, Diags);
  ReduceStepHandler Steps(Diags);
  Expected<ReduceResult> R = reduceEnzymeFailure(*Sides->Original, *LM->M,
                                                 Sides->WorkDir, Config, Steps);
  if (!R)
    return R.takeError();
  ReduceJobResult Job{LM->DisplayName, R->Verdict, R->WorkDir};
  if (R->Verdict) {
    Dir.release(); // The verdict's report names it.
    return Job;
  }
  if (Error E = writeReproducer(*R, Output, Job.InputName, D))
    return E;
  Steps.note(R->Before.describe() + " -> " + R->After.describe() + "; wrote " +
             Output);
  return Job;
}

} // namespace irs
