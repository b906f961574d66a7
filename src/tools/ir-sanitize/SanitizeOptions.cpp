//===- SanitizeOptions.cpp - Options shared by rewriting commands ---------===//
//
// The default command, `enzyme` and `gpu-check` sanitise a module the same
// way: this file registers the options, turns them into the driver's
// configuration and prints what the driver did.
//
//===----------------------------------------------------------------------===//
#include "SanitizeOptions.h"
#include "Commands.h"

#include "ir-sanitize/Support/BundlePolicy.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {

SanitizeConfig sanitizeConfig(const SanitizeOptions &Opts) {
  SanitizeConfig Config;
  Config.Policy.Scope = *parseScopeName(Opts.Scope);
  for (const std::string &Setting : Opts.BundleActions)
    cantFail(Config.Policy.applySetting(Setting));
  Config.Splat = !Opts.NoSplat;
  Config.Kernels = Opts.Kernels;
  return Config;
}

SanitizeOutputs sanitizeOutputs(const SanitizeOptions &Opts,
                                const SanitizeResult &Result,
                                const LoadedModule &Input, StringRef Output,
                                StringRef Emit, bool WithReport) {
  SanitizeOutputs Out;
  Out.Module = Output.str();
  Out.Format = outputFormatFor(Output, parseIRFormat(Emit));
  Out.DbgForm = Input.DbgForm;
  Out.Manifest = defaultManifestPath(Result, Opts.ManifestPath, Output);
  if (WithReport)
    Out.Report = Opts.ReportPath;
  Out.InputName = Input.DisplayName;
  return Out;
}

void printSanitized(const SanitizeOptions &Opts, const SanitizeResult &Result,
                    StringRef InputName) {
  if (Opts.Quiet)
    return;
  for (const std::string &Note : Result.Notes)
    errs() << ToolName << ": note: " << Note << "\n";
  errs() << ToolName << ": " << InputName << ": " << Result.summary() << "\n";
}

Error writeReport(const SanitizeOptions &Opts, const SanitizeResult &Result,
                  StringRef InputName) {
  if (Opts.ReportPath.empty())
    return Error::success();
  return writeFileAtomically(Opts.ReportPath, [&](raw_ostream &OS) {
    Result.printReport(OS, InputName);
  });
}

void printAfterWrite(const SanitizeOptions &Opts, const SanitizeResult &Result,
                     const SanitizeOutputs &Out) {
  // Without the manifest a launcher cannot call the splatted kernels.
  if (Out.Manifest.empty() && !Result.Manifest.Kernels.empty() && !Opts.Quiet)
    errs() << ToolName
           << ": note: kernels were splatted but no launch manifest was "
              "written (output is stdout; use --manifest=FILE)\n";
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

} // namespace irs::cli
