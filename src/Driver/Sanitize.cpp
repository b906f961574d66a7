//===- Sanitize.cpp - The sanitize pipeline -------------------------------===//
#include "ir-sanitize/Driver/Sanitize.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"

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

Expected<SanitizeResult> sanitizeModule(Module &M,
                                        const SanitizeConfig &Config) {
  SanitizeResult Result;
  Result.Scope = Config.Policy.Scope;
  Result.Splat = Config.Splat;
  Result.Bundles.setSiteDetail(Config.ReportCallSites);
  // The passes hand back their report, manifest and notes, and the splat
  // an unknown kernel as an error with its exit code.
  CollectingDiagnosticHandler Notes;
  Error Failure = Error::success();
  PassSinks Sinks;
  Sinks.Diags = &Notes;
  Sinks.Bundles = &Result.Bundles;
  Sinks.Splat.Manifest = &Result.Manifest;
  Sinks.Splat.Failure = &Failure;
  std::string Text =
      sanitizePipeline(Config.Policy, Config.Splat, Config.Kernels);
  if (Error E = runPipeline(M, Text, Sinks)) {
    consumeError(std::move(Failure));
    return E;
  }
  if (Failure)
    return Failure;
  Result.Notes = Notes.of(DiagnosticKind::Note);
  return Result;
}

std::string defaultManifestPath(const SanitizeResult &Result,
                                StringRef Requested, StringRef Output) {
  if (!Result.Splat)
    return "";
  if (!Requested.empty())
    return Requested.str();
  if (!Result.Manifest.Kernels.empty() && Output != "-")
    return (Output + ".manifest.json").str();
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

} // namespace irs
