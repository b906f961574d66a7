//===- Differentiate.cpp - The Enzyme pipeline ----------------------------===//
#include "ir-sanitize/Driver/Differentiate.h"

#include "PathIn.h"

#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Enzyme/ActivitySpec.h"
#include "ir-sanitize/Enzyme/DriverGenerator.h"
#include "ir-sanitize/Support/Messages.h"
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace irs {
namespace {

Error usage(const Twine &Msg) { return makeToolError(ExitCode::Usage, Msg); }

/// "f, g, h and 12 more": the functions with a body, for error messages.
std::string definedFunctionNames(const Module &M) {
  std::vector<std::string> Names;
  size_t Total = 0;
  for (const Function &F : M)
    if (!F.isDeclaration() && Total++ < 12)
      Names.push_back(escapeForMessage(F.getName()));
  std::string S = join(Names, ", ");
  if (Total > Names.size())
    S += " and " + std::to_string(Total - Names.size()) + " more";
  return S.empty() ? "none" : S;
}

/// Adds the NAME.fwd / NAME.rev driver that Fn/Mode/Activity ask for.
Expected<GeneratedDriver> addDriver(Module &M, const DifferentiateConfig &C,
                                    const KernelManifest *Manifest,
                                    std::vector<std::string> *LenientNotes) {
  std::optional<DiffMode> Mode = parseDiffMode(C.Mode);
  if (!Mode)
    return usage("--fn needs --mode=forward or --mode=reverse");
  Function *Fn = M.getFunction(C.Fn);
  if (!Fn || Fn->isDeclaration())
    return usage("--fn " + escapeForMessage(C.Fn) +
                 ": no function with a body of that name; "
                 "the module defines " +
                 definedFunctionNames(M));
  Expected<ActivitySpec> Spec = ActivitySpec::parse(C.Activity);
  if (!Spec)
    return Spec.takeError();
  Expected<ActivityMap> Map =
      resolveActivities(*Fn, *Mode, *Spec, Manifest, isKernel(*Fn));
  if (!Map && LenientNotes) {
    LenientNotes->push_back("original module: " + toString(Map.takeError()) +
                            "; using default activities");
    Map = resolveActivities(*Fn, *Mode, ActivitySpec(), nullptr, isKernel(*Fn));
  }
  if (!Map)
    return Map.takeError();
  return generateDriver(M, *Fn, *Mode, *Map);
}

} // namespace

Error addDerivativeDriver(Module &M, const DifferentiateConfig &C,
                          StringRef InputName, const KernelManifest *Manifest,
                          std::vector<std::string> *LenientNotes) {
  if (!C.Fn.empty())
    return addDriver(M, C, Manifest, LenientNotes).takeError();
  if (!C.Mode.empty() || !C.Activity.empty())
    return usage("--mode and --activity need --fn NAME");
  if (!hasEnzymeCalls(M))
    return usage(InputName + " calls neither __enzyme_fwddiff nor "
                             "__enzyme_autodiff; name the function to "
                             "differentiate with --fn NAME --mode=forward|"
                             "reverse");
  return Error::success();
}

Expected<std::string> createEnzymeWorkDir() {
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

/// Text, because bitcode cannot carry Enzyme's markers: LLVM writes a
/// `metadata` argument of a varargs call as a reference to some other value.
/// Enzyme replaces every marked call it differentiates, so its output comes
/// back as bitcode (several times faster to read), unless Enzyme might leave
/// a marked call behind: a plugin that does not differentiate them all.
Expected<EnzymeInvocation> prepareEnzymeRun(Module &M, StringRef WorkDir,
                                            StringRef Stem, StringRef LogPath,
                                            const DifferentiateConfig &C) {
  EnzymeInvocation Inv;
  Inv.InputPath = pathIn(WorkDir, Stem.str() + ".ll");
  Inv.OutputPath = pathIn(WorkDir, Stem.str() + ".enzyme.bc");
  Inv.LogPath = LogPath.empty() ? pathIn(WorkDir, Stem.str() + ".enzyme.log")
                                : LogPath.str();
  Inv.PluginPath = C.PluginPath;
  Inv.TimeoutSeconds = C.TimeoutSeconds;
  Inv.ExtraArgs = C.ExtraOptArgs;
  if (Error E =
          writeModule(M, Inv.InputPath, IRFormat::Text, DebugInfoForm::Records))
    return E;
  if (!bitcodeCanHold(M)) {
    Inv.OutputPath = pathIn(WorkDir, Stem.str() + ".enzyme.ll");
    Inv.TextOutput = true;
  }
  return Inv;
}

Expected<EnzymeResult> differentiateModule(Module &M, StringRef WorkDir,
                                           const DifferentiateConfig &C) {
  Expected<EnzymeInvocation> Inv =
      prepareEnzymeRun(M, WorkDir, "sanitised", C.LogPath, C);
  if (!Inv)
    return Inv.takeError();
  Expected<EnzymeResult> R = runEnzyme(*Inv);
  if (R && !R->ok())
    attributeToFunction(*R, M);
  return R;
}

Expected<TriageReport> triageModules(Module &Original, Module &Sanitised,
                                     const SanitizeResult &Result,
                                     StringRef InputName, StringRef WorkDir,
                                     const DifferentiateConfig &C) {
  Expected<EnzymeInvocation> OrigInv =
      prepareEnzymeRun(Original, WorkDir, "original", "", C);
  if (!OrigInv)
    return OrigInv.takeError();
  Expected<EnzymeInvocation> SanInv =
      prepareEnzymeRun(Sanitised, WorkDir, "sanitised", C.LogPath, C);
  if (!SanInv)
    return SanInv.takeError();
  Expected<TriageReport> Report = runTriage(*OrigInv, *SanInv);
  if (!Report)
    return Report.takeError();
  Report->InputName = InputName.str();
  attributeToFunction(Report->Original, Original);
  attributeToFunction(Report->Sanitised, Sanitised);
  Report->Changes = describeChanges(Result);
  return Report;
}

Expected<RestoreStats> writeDifferentiated(const EnzymeResult &R,
                                           const SanitizeResult &Result,
                                           const SanitizeOutputs &Out) {
  LLVMContext Ctx;
  Expected<LoadedModule> Diff = readModule(R.OutputPath, Ctx);
  if (!Diff)
    return Diff.takeError();
  RestoreStats Stats = restoreBundles(*Diff->M);
  if (Error E = writeSanitizeOutputs(*Diff->M, Result, Out))
    return E;
  return Stats;
}

std::vector<std::string> describeChanges(const SanitizeResult &Result) {
  std::vector<std::string> Lines;
  for (const KernelManifest &K : Result.Manifest.Kernels)
    Lines.push_back("splatted kernel " + K.Name + ": " +
                    std::to_string(K.OriginalParams.size()) +
                    " parameters into " + std::to_string(K.Params.size()));
  const BundleReport &Report = Result.Bundles;
  if (Report.numBundles() == 0)
    return Lines;
  Lines.push_back(Report.summary());
  const size_t MaxSites = 8;
  size_t Shown = 0;
  for (const CallSiteRecord &Site : Report.callSites()) {
    if (Shown++ == MaxSites) {
      Lines.push_back("... and " +
                      std::to_string(Report.callSites().size() - MaxSites) +
                      " more call sites (see --report)");
      break;
    }
    std::string L = Site.Function + ": call " + Site.Callee + ":";
    for (const BundleRecord &B : Site.Bundles)
      L += " " + B.Tag + "=" + actionName(B.Action).str();
    if (!Site.Location.empty())
      L += " (" + Site.Location.str() + ")";
    Lines.push_back(L);
  }
  return Lines;
}

} // namespace irs
