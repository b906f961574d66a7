//===- SanitizeOptions.cpp - Options and steps shared by rewriting commands ===//
//
// The default command, `enzyme` and `gpu-check` sanitise a module the same
// way: this file registers the options and runs the steps, in order, through
// the new pass manager (the same passes `opt` runs from the plugin).
//
//===----------------------------------------------------------------------===//
#include "SanitizeOptions.h"
#include "Commands.h"

#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

/// The policy the options describe; the values were validated while parsing.
BundlePolicy policyFrom(const SanitizeOptions &Opts) {
  BundlePolicy Policy;
  Policy.Scope = *parseScopeName(Opts.Scope);
  for (const std::string &Setting : Opts.BundleActions)
    cantFail(Policy.applySetting(Setting));
  return Policy;
}

Error writeReport(const SanitizeOptions &Opts, StringRef InputName,
                  const SanitizeResult &Result, BundleScope Scope) {
  if (Opts.ReportPath.empty())
    return Error::success();
  json::Value Report = Result.Bundles.toJSON(Scope);
  json::Object &Obj = *Report.getAsObject();
  Obj["input"] = InputName;
  json::Array Kernels;
  for (const KernelManifest &K : Result.Manifest.Kernels)
    Kernels.push_back(json::Object{{"name", K.Name},
                                   {"original_params", K.OriginalParams.size()},
                                   {"params", K.Params.size()}});
  Obj["kernels"] = std::move(Kernels);
  return writeFileAtomically(Opts.ReportPath, [&](raw_ostream &OS) {
    OS << formatv("{0:2}", Report) << "\n";
  });
}

/// Step 2. Called directly rather than through KernelSplatPass so that an
/// unknown --kernel comes back as an error with its exit code (2).
Error splatStep(Module &M, const SanitizeOptions &Opts,
                SanitizeResult &Result) {
  if (Opts.NoSplat)
    return Error::success();
  SplatOptions SO;
  SO.Kernels = Opts.Kernels;
  if (!Opts.Quiet)
    SO.Note = [](const std::string &Note) {
      errs() << ToolName << ": note: " << Note << "\n";
    };
  Expected<LaunchManifest> Manifest = splatKernels(M, SO);
  if (!Manifest)
    return Manifest.takeError();
  Result.Manifest = std::move(*Manifest);
  return Error::success();
}

/// "; splatted 2 kernels (8 parameters into 41)".
std::string splatSummary(const SanitizeOptions &Opts,
                         const LaunchManifest &Manifest) {
  if (Opts.NoSplat)
    return "";
  size_t Before = 0, After = 0;
  for (const KernelManifest &K : Manifest.Kernels) {
    Before += K.OriginalParams.size();
    After += K.Params.size();
  }
  size_t N = Manifest.Kernels.size();
  if (N == 0)
    return "; no kernel parameters to splat";
  return formatv("; splatted {0} kernel{1} ({2} parameters into {3})", N,
                 N == 1 ? "" : "s", Before, After)
      .str();
}

} // namespace

/// Where the manifest goes: --manifest, else OUTPUT.manifest.json when a
/// kernel was splatted and OUTPUT is a file; empty for none.
static std::string manifestPath(const SanitizeOptions &Opts,
                                const SanitizeResult &Result,
                                StringRef Output) {
  if (Opts.NoSplat)
    return "";
  if (!Opts.ManifestPath.empty())
    return Opts.ManifestPath;
  if (!Result.Manifest.Kernels.empty() && Output != "-")
    return (Output + ".manifest.json").str();
  return "";
}

ManifestWriter::ManifestWriter(const SanitizeOptions &Opts,
                               const SanitizeResult &Result, StringRef Output)
    : Opts(Opts), Manifest(Result.Manifest),
      Path(manifestPath(Opts, Result, Output)) {
  if (Path.empty() || AtomicOutputFile::writesInPlace(Path))
    return;
  // Only reads Manifest, which nothing changes while the module is written.
  Writer = std::thread([this] {
    Expected<std::unique_ptr<AtomicOutputFile>> F =
        AtomicOutputFile::open(Path);
    if (!F) {
      OpenError = F.takeError();
      return;
    }
    File = std::move(*F);
    Manifest.printFile(File->os());
  });
}

void ManifestWriter::wait() {
  if (Writer.joinable())
    Writer.join();
}

ManifestWriter::~ManifestWriter() {
  wait();
  consumeError(std::move(OpenError));
}

Error ManifestWriter::commit() {
  wait();
  if (Path.empty()) {
    // Without the manifest a launcher cannot call the splatted kernels.
    if (!Opts.NoSplat && !Manifest.Kernels.empty() && !Opts.Quiet)
      errs() << ToolName
             << ": note: kernels were splatted but no launch manifest was "
                "written (output is stdout; use --manifest=FILE)\n";
    return Error::success();
  }
  if (OpenError)
    return std::move(OpenError);
  if (!File) // Written in place, so only now.
    return Manifest.writeFile(Path);
  return File->commit();
}

Error writeManifest(const SanitizeOptions &Opts, const SanitizeResult &Result,
                    StringRef Output) {
  return ManifestWriter(Opts, Result, Output).commit();
}

void addSanitizeOptions(CLI::App &App, SanitizeOptions &Opts) {
  App.add_option("--bundle", Opts.BundleActions,
                 "TAG=ACTION, ACTION in keep|drop|stash|lower (repeatable). "
                 "Defaults: jl_roots=keep, gc-transition=lower, others stash")
      ->type_name("TAG=ACTION")
      ->check([](const std::string &Setting) -> std::string {
        BundlePolicy P;
        if (Error E = P.applySetting(Setting))
          return toString(std::move(E));
        return "";
      });
  App.add_option("--scope", Opts.Scope,
                 "ccalls: every call but LLVM intrinsics (default); all: "
                 "intrinsics too")
      ->check(CLI::IsMember({"ccalls", "all"}));
  App.add_option("--report", Opts.ReportPath,
                 "write a JSON report of every bundle touched to FILE")
      ->type_name("FILE");
  App.add_flag("-q,--quiet", Opts.Quiet, "no summary line on stderr");
  App.add_flag("--no-splat", Opts.NoSplat, "do not splat kernel parameters");
  App.add_option("--kernel", Opts.Kernels,
                 "splat only this kernel (repeatable; default: all kernels)")
      ->type_name("NAME");
  App.add_option("--manifest", Opts.ManifestPath,
                 "write the kernel launch manifest (JSON) to FILE")
      ->type_name("FILE");
}

Error runSanitizePipeline(Module &M, const SanitizeOptions &Opts,
                          StringRef InputName, SanitizeResult &Result) {
  BundlePolicy Policy = policyFrom(Opts);
  ModulePassManager MPM;
  // Step 1: bundle normalisation (Enzyme aborts on bundles other than
  // jl_roots).
  MPM.addPass(BundleNormalizePass(Policy, &Result.Bundles));
  ModuleAnalysisManager MAM;
  MAM.registerPass([] { return PassInstrumentationAnalysis(); });
  MPM.run(M, MAM);
  // Step 2: the kernel splat (Enzyme gives each leaf its own activity).
  if (Error E = splatStep(M, Opts, Result))
    return E;

  if (Error E = writeReport(Opts, InputName, Result, Policy.Scope))
    return E;
  if (!Opts.Quiet)
    errs() << ToolName << ": " << InputName << ": "
           << Result.Bundles.summary() << splatSummary(Opts, Result.Manifest)
           << "\n";
  return Error::success();
}

} // namespace irs::cli
