//===- EnzymeOptions.cpp - Options of the commands that run Enzyme --------===//
#include "EnzymeOptions.h"
#include "Commands.h"

#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Enzyme/ActivitySpec.h"
#include "ir-sanitize/Enzyme/DriverGenerator.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs::cli {

void addEnzymeRunOptions(CLI::App &App, EnzymeOptions &O) {
  App.add_option("input", O.Input, "LLVM IR (.ll or .bc, '-' for stdin)")
      ->type_name("INPUT")
      ->required();
  App.add_option("--fn", O.Fn,
                 "generate a driver NAME.fwd / NAME.rev differentiating NAME")
      ->type_name("NAME");
  App.add_option("--mode", O.Mode, "forward or reverse (with --fn)")
      ->check(CLI::IsMember({"forward", "reverse", "fwd", "rev"}));
  App.add_option("--activity", O.Activity,
                 "KEY=dup|const|dupnoneed|out; KEY is a parameter index, a "
                 "leaf name, a manifest path (2.0.1) or 'default' "
                 "(repeatable, comma separated)")
      ->type_name("SPEC");
  App.add_option("--enzyme-plugin", O.PluginPath,
                 "LLVMEnzyme-<major>.so (default: $ENZYME_PLUGIN, next to "
                 "ir-sanitize, the configured default, library directories)")
      ->type_name("PATH");
  App.add_option("--enzyme-timeout", O.TimeoutSeconds,
                 "seconds Enzyme may run before it is killed (0: no limit)")
      ->type_name("SECONDS");
  App.add_option("--enzyme-arg", O.ExtraOptArgs,
                 "pass ARG to the opt that runs Enzyme, e.g. "
                 "--enzyme-arg=-enzyme-print (repeatable)")
      ->type_name("ARG")
      ->allow_extra_args(false);
}

Expected<LocatedPlugin> findPlugin(const EnzymeOptions &O) {
  PluginSearch Search;
  Search.Explicit = O.PluginPath;
  return locateEnzymePlugin(Search);
}

namespace {

Error usage(const Twine &Msg) { return makeToolError(ExitCode::Usage, Msg); }

/// "f, g, h and 12 more": the functions with a body, for error messages.
std::string definedFunctionNames(const Module &M) {
  std::vector<std::string> Names;
  size_t Total = 0;
  for (const Function &F : M)
    if (!F.isDeclaration() && Total++ < 12)
      Names.push_back(F.getName().str());
  std::string S = join(Names, ", ");
  if (Total > Names.size())
    S += " and " + std::to_string(Total - Names.size()) + " more";
  return S.empty() ? "none" : S;
}

/// Adds the NAME.fwd / NAME.rev driver that --fn/--mode/--activity ask for.
/// \p Lenient (the original side of a triage, whose kernel is not splatted):
/// keys that name no parameter there fall back to the default activities.
Expected<GeneratedDriver> addDriver(Module &M, const EnzymeOptions &O,
                                    const KernelManifest *Manifest,
                                    bool Lenient) {
  std::optional<DiffMode> Mode = parseDiffMode(O.Mode);
  if (!Mode)
    return usage("--fn needs --mode=forward or --mode=reverse");
  Function *Fn = M.getFunction(O.Fn);
  if (!Fn || Fn->isDeclaration())
    return usage("--fn " + O.Fn +
                 ": no function with a body of that name; "
                 "the module defines " +
                 definedFunctionNames(M));
  Expected<ActivitySpec> Spec = ActivitySpec::parse(O.Activity);
  if (!Spec)
    return Spec.takeError();
  Expected<ActivityMap> Map =
      resolveActivities(*Fn, *Mode, *Spec, Manifest, isKernel(*Fn));
  if (!Map && Lenient) {
    errs() << ToolName
           << ": note: original module: " << toString(Map.takeError())
           << "; using default activities\n";
    Map = resolveActivities(*Fn, *Mode, ActivitySpec(), nullptr, isKernel(*Fn));
  }
  if (!Map)
    return Map.takeError();
  return generateDriver(M, *Fn, *Mode, *Map);
}

} // namespace

/// The module needs drivers: either it brings __enzyme_* calls or we add one.
Error prepareDrivers(Module &M, const EnzymeOptions &O, StringRef InputName,
                     const KernelManifest *Manifest, bool Lenient) {
  if (!O.Fn.empty())
    return addDriver(M, O, Manifest, Lenient).takeError();
  if (!O.Mode.empty() || !O.Activity.empty())
    return usage("--mode and --activity need --fn NAME");
  if (!hasEnzymeCalls(M))
    return usage(InputName + " calls neither __enzyme_fwddiff nor "
                             "__enzyme_autodiff; name the function to "
                             "differentiate with --fn NAME --mode=forward|"
                             "reverse");
  return Error::success();
}

Expected<std::unique_ptr<Module>>
prepareOriginalAndSanitised(LoadedModule &LM, const EnzymeOptions &O,
                            const SanitizeOptions &Opts,
                            SanitizeResult &Result) {
  // The original keeps its bundles.
  std::unique_ptr<Module> Original = CloneModule(*LM.M);
  if (Error E = runSanitizePipeline(*LM.M, Opts, LM.DisplayName, Result))
    return std::move(E);
  if (Error E = prepareDrivers(*LM.M, O, LM.DisplayName,
                               Result.Manifest.findKernel(O.Fn)))
    return std::move(E);
  if (Error E = prepareDrivers(*Original, O, LM.DisplayName, nullptr,
                               /*Lenient=*/true))
    return std::move(E);
  return std::move(Original);
}

/// A fresh directory for the files handed to and received from Enzyme.
Expected<std::string> makeWorkDir() {
  SmallString<256> Model;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Model);
  sys::path::append(Model, "ir-sanitize-enzyme-%%%%%%");
  SmallString<256> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory(Model, Dir))
    return makeToolError(ExitCode::OutputError,
                         "cannot create a work directory in " + Model + ": " +
                             EC.message());
  return std::string(Dir);
}

std::string inDir(StringRef Dir, StringRef File) {
  SmallString<256> P(Dir);
  sys::path::append(P, File);
  return std::string(P);
}

/// Writes \p M as \p Stem.ll into \p WorkDir and describes the opt run on
/// it. Text, because bitcode cannot carry Enzyme's markers: LLVM writes a
/// `metadata` argument of a varargs call as a reference to some other value.
/// Enzyme has replaced every marked call by the time it writes its output,
/// so that comes back as bitcode, which reads several times faster.
Expected<EnzymeInvocation> prepareRun(Module &M, StringRef WorkDir,
                                      StringRef Stem, StringRef LogPath,
                                      const LocatedPlugin &Plugin,
                                      const EnzymeOptions &O) {
  EnzymeInvocation Inv;
  Inv.InputPath = inDir(WorkDir, Stem.str() + ".ll");
  Inv.OutputPath = inDir(WorkDir, Stem.str() + ".enzyme.bc");
  Inv.LogPath = LogPath.empty() ? inDir(WorkDir, Stem.str() + ".enzyme.log")
                                : LogPath.str();
  Inv.PluginPath = Plugin.Path;
  Inv.TimeoutSeconds = O.TimeoutSeconds;
  Inv.ExtraArgs = O.ExtraOptArgs;
  if (Error E =
          writeModule(M, Inv.InputPath, IRFormat::Text, DebugInfoForm::Records))
    return E;
  return Inv;
}

} // namespace irs::cli
