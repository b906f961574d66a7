//===- EnzymeOptions.cpp - Options of the commands that run Enzyme --------===//
#include "EnzymeOptions.h"
#include "Commands.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace irs::cli {

void addEnzymePluginOptions(CLI::App &App, std::string &PluginPath,
                            unsigned &TimeoutSeconds) {
  App.add_option("--enzyme-plugin", PluginPath,
                 "LLVMEnzyme-<major>.so (default: $ENZYME_PLUGIN, next to "
                 "ir-sanitize, the configured default, library directories)")
      ->type_name("PATH");
  App.add_option("--enzyme-timeout", TimeoutSeconds,
                 "seconds Enzyme may run before it is killed (0: no limit)")
      ->type_name("SECONDS");
}

void addEnzymeRunOptions(CLI::App &App, std::string &Input,
                         std::string &PluginPath, DifferentiateConfig &D) {
  App.add_option("input", Input, "LLVM IR (.ll or .bc, '-' for stdin)")
      ->type_name("INPUT")
      ->required();
  App.add_option("--fn", D.Fn,
                 "generate a driver NAME.fwd / NAME.rev differentiating NAME")
      ->type_name("NAME");
  App.add_option("--mode", D.Mode, "forward or reverse (with --fn)")
      ->check(CLI::IsMember({"forward", "reverse", "fwd", "rev"}));
  App.add_option("--activity", D.Activity,
                 "KEY=dup|const|dupnoneed|out; KEY is a parameter index, a "
                 "leaf name, a manifest path (2.0.1) or 'default' "
                 "(repeatable, comma separated)")
      ->type_name("SPEC");
  addEnzymePluginOptions(App, PluginPath, D.TimeoutSeconds);
  App.add_option("--enzyme-arg", D.ExtraOptArgs,
                 "pass ARG to the opt that runs Enzyme, e.g. "
                 "--enzyme-arg=-enzyme-print (repeatable)")
      ->type_name("ARG")
      ->allow_extra_args(false);
}

Expected<SanitizeResult> sanitizeWithDriver(LoadedModule &LM,
                                            const SanitizeOptions &Opts,
                                            const DifferentiateConfig &D) {
  Expected<SanitizeResult> Result = sanitizeModule(*LM.M, sanitizeConfig(Opts));
  if (!Result)
    return Result.takeError();
  if (Error E = writeReport(Opts, *Result, LM.DisplayName))
    return E;
  printSanitized(Opts, *Result, LM.DisplayName);
  if (Error E = addDerivativeWrapper(*LM.M, D, LM.DisplayName,
                                     Result->Manifest.findKernel(D.Fn)))
    return E;
  return Result;
}

Expected<EnzymeSides> prepareEnzymeSides(LoadedModule &LM,
                                         const SanitizeOptions &Opts,
                                         const DifferentiateConfig &D) {
  EnzymeSides Sides;
  // The original keeps its bundles.
  Sides.Original = CloneModule(*LM.M);
  Expected<SanitizeResult> Sanitized = sanitizeWithDriver(LM, Opts, D);
  if (!Sanitized)
    return Sanitized.takeError();
  Sides.Result = std::move(*Sanitized);
  std::vector<std::string> Notes;
  Error E =
      addDerivativeWrapper(*Sides.Original, D, LM.DisplayName, nullptr, &Notes);
  for (const std::string &Note : Notes)
    errs() << ToolName << ": note: " << Note << "\n";
  if (E)
    return E;
  Expected<std::string> WorkDir = createEnzymeWorkDir();
  if (!WorkDir)
    return WorkDir.takeError();
  Sides.WorkDir = std::move(*WorkDir);
  return Sides;
}

} // namespace irs::cli
