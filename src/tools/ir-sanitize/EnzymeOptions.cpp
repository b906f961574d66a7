//===- EnzymeOptions.cpp - Options of the commands that run Enzyme --------===//
#include "EnzymeOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

namespace irs::cli {

void addEnzymePluginOptions(CLI::App &App, std::string &PluginPath,
                            unsigned &TimeoutSeconds) {
  App.add_option("--enzyme-plugin", PluginPath,
                 "LLVMEnzyme-<major>.so (default: $ENZYME_PLUGIN, next to "
                 "ir-sanitize, the configured default, library directories)")
      ->type_name("PATH")
      ->check([](const std::string &Path) -> std::string {
        // Empty is how "search" is spelled inside; a user who names no
        // file has made a mistake, not asked for the search.
        return Path.empty() ? "empty path (leave the option out to search "
                              "for the plugin)"
                            : "";
      });
  App.add_option("--enzyme-timeout", TimeoutSeconds,
                 "seconds Enzyme may run before it is killed (0: no limit)")
      ->type_name("SECONDS");
}

std::string probeCacheDir() {
  if (std::optional<std::string> Dir = sys::Process::GetEnv("IRS_CACHE_DIR"))
    return *Dir;
  SmallString<256> Dir;
  if (!sys::path::cache_directory(Dir))
    return "";
  sys::path::append(Dir, "ir-sanitize");
  return std::string(Dir);
}

std::string describeProbe(const ProbeReport &R) {
  std::string Where =
      R.CacheFile.empty() ? "no cache" : "the cache " + R.CacheFile;
  std::string Line =
      formatv("asked Enzyme {0} (sha256 {1}...): {2} probes run, {3} "
              "answers from {4}",
              R.Plugin.Path, StringRef(R.Plugin.SHA256).take_front(12),
              R.Probed, R.Cached, Where)
          .str();
  if (R.OtherQuestion)
    Line += formatv(" ({0} cached answers to another question were asked "
                    "again)",
                    R.OtherQuestion)
                .str();
  return Line;
}

void addEnzymeOptions(CLI::App &App, EnzymeOptions &O) {
  DifferentiateConfig &D = O.Enzyme;
  App.add_option("input", O.Input, "LLVM IR (.ll or .bc, '-' for stdin)")
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
  addEnzymePluginOptions(App, O.PluginPath, D.TimeoutSeconds);
  App.add_option("--enzyme-arg", D.ExtraOptArgs,
                 "pass ARG to the opt that runs Enzyme, e.g. "
                 "--enzyme-arg=-enzyme-print (repeatable)")
      ->type_name("ARG")
      ->check([](const std::string &Arg) -> std::string {
        // opt's -o (also --o, -o=F) would send the output where nobody
        // reads it.
        StringRef Name = StringRef(Arg).ltrim('-').split('=').first;
        return StringRef(Arg).starts_with("-") && Name == "o"
                   ? "ir-sanitize sets opt's -o (use the command's -o)"
                   : "";
      });
}

} // namespace irs::cli
