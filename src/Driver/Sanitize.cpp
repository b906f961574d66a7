//===- Sanitize.cpp - The sanitize pipeline -------------------------------===//
#include "ir-sanitize/Driver/Sanitize.h"

#include "SanitizeSteps.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/PassResults.h"
#include "ir-sanitize/Transforms/WarpShuffleRules.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace irs {

std::string SanitizeResult::summary() const {
  std::string S = Bundles.summary();
  if (!Splat)
    return S;
  size_t Before = 0, After = 0;
  for (const KernelManifest &K : Manifest.Kernels) {
    Before += K.OriginalParams.size();
    After += K.Params.size();
  }
  size_t N = Manifest.Kernels.size();
  if (N == 0)
    return S + "; no kernel parameters to splat";
  return S + formatv("; splatted {0} kernel{1} ({2} parameters into {3})", N,
                     N == 1 ? "" : "s", Before, After)
                 .str();
}

void SanitizeResult::printReport(raw_ostream &OS, StringRef InputName,
                                 bool PerCallSite) const {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    if (PerCallSite && Bundles.siteDetail())
      Bundles.writeFunctions(J);
    J.attribute("input", InputName);
    J.attributeArray("kernels", [&] {
      for (const KernelManifest &K : Manifest.Kernels)
        J.object([&] {
          J.attribute("name", K.Name);
          J.attribute("original_params", K.OriginalParams.size());
          J.attribute("params", K.Params.size());
        });
    });
    J.attribute("scope", scopeName(Scope));
    Bundles.writeTags(J);
    Bundles.writeTotals(J);
    J.attribute("version", 1);
  });
  OS << "\n";
}

namespace {
bool runsWarpRules(const Module &M, const SanitizeConfig &Config) {
  return Config.WarpRules && callsWarpIntrinsics(M);
}
} // namespace

std::string sanitizePipelineFor(const Module &M, const SanitizeConfig &Config) {
  return sanitizePipeline(Config.Policy, runsWarpRules(M, Config), Config.Splat,
                          Config.Kernels);
}

Expected<SanitizeResult> sanitizeModule(Module &M,
                                        const SanitizeConfig &Config) {
  SanitizeResult Result;
  Result.Scope = Config.Policy.Scope;
  Result.Splat = Config.Splat;
  Result.WarpRules = runsWarpRules(M, Config);
  // The passes hand back their report, manifest and notes, and the splat
  // an unknown kernel as an error with its exit code.
  PassResults Results;
  Results.get<BundleReport>().setSiteDetail(Config.ReportCallSites);
  std::string Text = sanitizePipeline(Config.Policy, Result.WarpRules,
                                      Config.Splat, Config.Kernels);
  if (Error E = runPipeline(M, Text, &Results))
    return E;
  Result.Bundles = std::move(Results.get<BundleReport>());
  Result.Manifest = std::move(Results.get<LaunchManifest>());
  Result.Notes = Results.notes();
  return Result;
}

Expected<LaunchManifest> splatModule(Module &M, ArrayRef<std::string> Kernels) {
  PassResults Results;
  if (Error E = runPipeline(M, splatPipeline(Kernels), &Results))
    return E;
  return std::move(Results.get<LaunchManifest>());
}

namespace {
/// Where a splat's manifest goes beside a module written to \p Output.
std::string manifestBeside(StringRef Output) {
  return (Output + ".manifest.json").str();
}
} // namespace

std::string defaultManifestPath(const SanitizeResult &Result,
                                StringRef Requested, StringRef Output) {
  if (!Result.Splat)
    return "";
  if (!Requested.empty())
    return Requested.str();
  if (!Result.Manifest.Kernels.empty() && Output != "-")
    return manifestBeside(Output);
  return "";
}

Error writeSanitizeOutputs(Module &M, const SanitizeResult &Result,
                           const SanitizeOutputs &Out) {
  std::vector<OutputFile> Files;
  Files.push_back(moduleOutput(M, Out.Module, Out.Format, Out.DbgForm));
  if (!Out.Manifest.empty())
    Files.push_back({Out.Manifest, [&](raw_ostream &OS) {
                       Result.Manifest.printFile(OS);
                       return Error::success();
                     }});
  if (!Out.Report.empty())
    Files.push_back({Out.Report, [&](raw_ostream &OS) {
                       Result.printReport(OS, Out.InputName);
                       return Error::success();
                     }});
  return writeOutputsTogether(Files);
}

SanitizeOutputs sanitizeOutputs(const SanitizeRequest &Req,
                                const SanitizeResult &Result,
                                const LoadedModule &Input, bool WithReport) {
  SanitizeOutputs Out;
  Out.Module = Req.Output;
  Out.Format = outputFormatFor(Req.Output, parseIRFormat(Req.Emit));
  Out.DbgForm = Input.DbgForm;
  Out.Manifest = defaultManifestPath(Result, Req.ManifestPath, Req.Output);
  if (WithReport)
    Out.Report = Req.ReportPath;
  Out.InputName = Input.DisplayName;
  return Out;
}

void reportSanitized(DiagnosticHandler &Diags, const SanitizeResult &Result,
                     StringRef InputName) {
  for (const std::string &Note : Result.Notes)
    Diags.note(Note);
  Diags.progress(InputName + ": " + Result.summary());
  if (unsigned Lost = Result.Bundles.numLost())
    Diags.warning(InputName + ": " + Twine(Lost) +
                  " bundles stashed by an earlier run could not be restored "
                  "(the report's notes say why)");
}

Error writeSanitizeReport(StringRef ReportPath, const SanitizeResult &Result,
                          StringRef InputName) {
  if (ReportPath.empty())
    return Error::success();
  return writeFileAtomically(
      ReportPath, [&](raw_ostream &OS) { Result.printReport(OS, InputName); });
}

void reportDebugInfoForm(DiagnosticHandler &Diags, const Module &M,
                         DebugInfoForm ReadForm) {
  std::string Warning = debugInfoFormWarning(M, ReadForm);
  if (!Warning.empty())
    Diags.warning(Warning);
}

void reportMissingManifest(DiagnosticHandler &Diags,
                           const SanitizeResult &Result,
                           const SanitizeOutputs &Out) {
  if (Out.Manifest.empty() && !Result.Manifest.Kernels.empty())
    Diags.note("kernels were splatted but no launch manifest was written "
               "(output is stdout; use --manifest=FILE)");
}

JobFiles sanitizeJobFiles(const SanitizeRequest &Req) {
  JobFiles Files;
  Files.ModuleInput = {"the input", Req.Input};
  Files.ModuleOutput = {"-o", Req.Output};
  if (!Req.ManifestPath.empty())
    Files.Outputs.push_back({"--manifest", Req.ManifestPath});
  else if (Req.Output != "-" && Req.Config.Splat)
    Files.Outputs.push_back({"-o's manifest", manifestBeside(Req.Output)});
  Files.Outputs.push_back({"--report", Req.ReportPath});
  return Files;
}

Expected<SanitizeJobResult> runSanitize(const SanitizeRequest &Req,
                                        LLVMContext &Ctx,
                                        DiagnosticHandler &Diags) {
  if (Error E = checkDistinctFiles(sanitizeJobFiles(Req)))
    return E;
  Expected<LoadedModule> LM = readModule(Req.Input, Ctx);
  if (!LM)
    return LM.takeError();
  Expected<SanitizeResult> Result = sanitizeModule(*LM->M, Req.Config);
  if (!Result)
    return Result.takeError();
  SanitizeOutputs Out = sanitizeOutputs(Req, *Result, *LM, /*WithReport=*/true);
  // Module, manifest and report appear together or not at all; the summary
  // only once they have (an exit-4 failure reports no success first).
  if (Error E = writeSanitizeOutputs(*LM->M, *Result, Out))
    return E;
  reportSanitized(Diags, *Result, LM->DisplayName);
  reportDebugInfoForm(Diags, *LM->M, LM->DbgForm);
  reportMissingManifest(Diags, *Result, Out);
  return SanitizeJobResult{LM->DisplayName, std::move(*Result),
                           std::move(LM->M)};
}

Expected<std::string> printSanitizePipeline(const SanitizeRequest &Req,
                                            LLVMContext &Ctx) {
  Expected<LoadedModule> LM = readModule(Req.Input, Ctx);
  if (!LM)
    return LM.takeError();
  const SanitizeConfig &C = Req.Config;
  if (C.Splat && !C.Kernels.empty()) {
    SplatOptions Select;
    Select.Kernels = C.Kernels;
    if (Error E = summarizeSplat(*LM->M, Select).takeError())
      return E;
  }
  return printedPipeline(sanitizePipelineFor(*LM->M, C));
}

} // namespace irs
