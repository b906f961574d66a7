//===- SanitizeCommand.cpp - `ir-sanitize INPUT [-o OUTPUT]` --------------===//
//
// The default command: read a module, sanitise it (the driver), write it
// with its manifest and report. The input is never overwritten unless -o names
// it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "SanitizeOptions.h"

#include "ir-sanitize/Passes/Pipelines.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs::cli {
namespace {

class SanitizeCommand : public Command {
public:
  void addOptions(CLI::App &App) override {
    App.add_option("input", Input, "LLVM IR (.ll or .bc, '-' for stdin)")
        ->type_name("INPUT");
    App.add_option("-o,--output", Output,
                   "output file ('-' = stdout, the default); text unless it "
                   "ends in .bc")
        ->type_name("OUTPUT");
    App.add_option("--emit", Emit, "output format, overriding the name")
        ->check(CLI::IsMember({"ll", "bc"}));
    addSanitizeOptions(App, Opts);
    App.add_flag("--print-pipeline-passes", PrintPipeline,
                 "print the pass pipeline this command runs, as `opt "
                 "-load-pass-plugin=IRSanitize.so -passes='...'` takes it, "
                 "and exit");
  }

  int run() override {
    if (PrintPipeline) {
      SanitizeConfig C = sanitizeConfig(Opts);
      outs() << sanitizePipeline(C.Policy, C.Splat, C.Kernels) << "\n";
      return static_cast<int>(ExitCode::Ok);
    }
    if (Input.empty()) {
      errs() << ToolName << ": error: no input file (see --help)\n";
      return static_cast<int>(ExitCode::Usage);
    }
    // Like clang's -disable-free: the process ends right after writing, so
    // the context and module are never torn down (saves ~5% on big modules).
    LLVMContext &Ctx = processLifetimeContext();
    Expected<LoadedModule> LM = readModule(Input, Ctx);
    if (!LM)
      return reportError(LM.takeError(), ToolName);
    Expected<SanitizeResult> Result =
        sanitizeModule(*LM->M, sanitizeConfig(Opts));
    if (!Result)
      return reportError(Result.takeError(), ToolName);
    printSanitized(Opts, *Result, LM->DisplayName);
    SanitizeOutputs Out =
        sanitizeOutputs(Opts, *Result, *LM, Output, Emit, /*WithReport=*/true);
    printWarning(debugInfoFormWarning(*LM->M, LM->DbgForm));
    // Module, manifest and report appear together or not at all.
    if (Error E = writeSanitizeOutputs(*LM->M, *Result, Out))
      return reportError(std::move(E), ToolName);
    printAfterWrite(Opts, *Result, Out);
    keepUntilExit(std::move(LM->M));
    return static_cast<int>(ExitCode::Ok);
  }

private:
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  SanitizeOptions Opts;
  bool PrintPipeline = false;
};

} // namespace

std::unique_ptr<Command> createSanitizeCommand() {
  return std::make_unique<SanitizeCommand>();
}

} // namespace irs::cli
