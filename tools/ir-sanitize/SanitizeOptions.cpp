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
  // The kernel-splat step adds its "kernels" section here.
  return writeFileAtomically(Opts.ReportPath, [&](raw_ostream &OS) {
    OS << formatv("{0:2}", Report) << "\n";
  });
}

} // namespace

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
  // Step 2: the kernel splat goes here, unless Opts.NoSplat.

  ModuleAnalysisManager MAM;
  MAM.registerPass([] { return PassInstrumentationAnalysis(); });
  MPM.run(M, MAM);

  if (Error E = writeReport(Opts, InputName, Result, Policy.Scope))
    return E;
  if (!Opts.Quiet)
    errs() << ToolName << ": " << InputName << ": "
           << Result.Bundles.summary() << "\n";
  return Error::success();
}

} // namespace irs::cli
