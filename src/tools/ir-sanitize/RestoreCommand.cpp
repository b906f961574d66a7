//===- RestoreCommand.cpp - `ir-sanitize restore INPUT [-o OUTPUT]` -------===//
//
// Re-attaches every bundle a previous run stashed. Exit 1 (output still
// written) when a recorded bundle could not be re-attached because its
// operand marker was lost by a tool in between.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/BundleRestore.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

class RestoreCommand : public Command {
public:
  void addOptions(CLI::App &App) override {
    App.add_option("input", Input, "LLVM IR (.ll or .bc, '-' for stdin)")
        ->type_name("INPUT")
        ->required();
    App.add_option("-o,--output", Output, "output file ('-' = stdout)")
        ->type_name("OUTPUT");
    App.add_option("--emit", Emit, "output format, overriding the name")
        ->check(CLI::IsMember({"ll", "bc"}));
    App.add_flag("-q,--quiet", Quiet, "no summary line on stderr");
  }

  int run() override {
    // Never torn down: the process ends right after (see SanitizeCommand).
    LLVMContext &Ctx = processLifetimeContext();
    Expected<LoadedModule> LM = readModule(Input, Ctx);
    if (!LM)
      return reportError(LM.takeError(), ToolName);
    RestoreStats Stats;
    ModulePassManager MPM;
    MPM.addPass(BundleRestorePass(&Stats));
    ModuleAnalysisManager MAM;
    MAM.registerPass([] { return PassInstrumentationAnalysis(); });
    MPM.run(*LM->M, MAM);
    IRFormat Format = outputFormatFor(Output, parseIRFormat(Emit));
    printWarning(debugInfoFormWarning(*LM->M, LM->DbgForm));
    if (Error E = writeModule(*LM->M, Output, Format, LM->DbgForm))
      return reportError(std::move(E), ToolName);
    keepUntilExit(std::move(LM->M));
    if (!Quiet)
      errs() << ToolName << ": " << LM->DisplayName << ": restored "
             << Stats.Bundles << " bundles on " << Stats.Calls << " calls\n";
    if (Stats.OrphanMarkers && !Quiet)
      errs() << ToolName << ": note: " << LM->DisplayName << ": removed "
             << Stats.OrphanMarkers
             << " operand markers whose call lost its record (e.g. copies "
                "made by Enzyme, which drops unknown metadata)\n";
    if (Stats.Lost) {
      errs() << ToolName << ": warning: " << LM->DisplayName << ": "
             << Stats.Lost
             << " stashed bundles could not be restored (their operand "
                "record was lost)\n";
      return static_cast<int>(ExitCode::Findings);
    }
    return static_cast<int>(ExitCode::Ok);
  }

private:
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  bool Quiet = false;
};

} // namespace

std::unique_ptr<Command> createRestoreCommand() {
  return std::make_unique<RestoreCommand>();
}

} // namespace irs::cli
