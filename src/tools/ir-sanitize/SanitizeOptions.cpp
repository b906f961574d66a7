//===- SanitizeOptions.cpp - Options shared by rewriting commands ---------===//
//
// The default command, `enzyme`, `reduce` and `gpu-check` sanitize a module
// the same way: this file registers the options and turns them into the
// driver's configuration and request.
//
//===----------------------------------------------------------------------===//
#include "SanitizeOptions.h"

#include "ir-sanitize/Support/BundlePolicy.h"

using namespace llvm;

namespace irs::cli {

SanitizeConfig sanitizeConfig(const SanitizeOptions &Opts) {
  SanitizeConfig Config;
  Config.Policy = Opts.Policy;
  Config.Policy.Scope = *parseScopeName(Opts.Scope);
  Config.Splat = !Opts.NoSplat;
  Config.WarpRules = !Opts.NoWarpRules;
  Config.Kernels = Opts.Kernels;
  return Config;
}

SanitizeRequest sanitizeRequest(const SanitizeOptions &Opts, StringRef Input,
                                StringRef Output, StringRef Emit) {
  SanitizeRequest Req;
  Req.Input = Input.str();
  Req.Output = Output.str();
  Req.Emit = Emit.str();
  Req.ManifestPath = Opts.ManifestPath;
  Req.ReportPath = Opts.ReportPath;
  Req.Config = sanitizeConfig(Opts);
  return Req;
}

void addSanitizeOptions(CLI::App &App, SanitizeOptions &Opts) {
  App.add_option("--bundle", Opts.BundleActions,
                 "TAG=ACTION, ACTION in " + actionNameList("|", "|") +
                     " (repeatable). Defaults: " + defaultActionsDescription())
      ->type_name("TAG=ACTION")
      // Applied as they are parsed, so that one tag given two actions is
      // refused too (applying a setting again changes nothing).
      ->check([&Opts](const std::string &Setting) -> std::string {
        if (Error E = Opts.Policy.applySetting(Setting))
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
  App.add_flag("--no-warp-rules", Opts.NoWarpRules,
               "leave warp shuffles as they are (Enzyme has no rule for "
               "them)");
  App.add_option("--kernel", Opts.Kernels,
                 "splat only this kernel (repeatable; default: all kernels)")
      ->type_name("NAME");
  App.add_option("--manifest", Opts.ManifestPath,
                 "write the kernel launch manifest (JSON) to FILE")
      ->type_name("FILE");
}

} // namespace irs::cli
