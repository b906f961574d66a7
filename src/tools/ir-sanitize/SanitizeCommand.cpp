//===- SanitizeCommand.cpp - `ir-sanitize INPUT [-o OUTPUT]` --------------===//
//
// The default command: read a module, run the sanitize steps, verify and
// write it. The input is never overwritten unless -o names it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "SanitizeOptions.h"

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
  }

  int run() override {
    if (Input.empty()) {
      errs() << ToolName << ": error: no input file (see --help)\n";
      return static_cast<int>(ExitCode::Usage);
    }
    // Like clang's -disable-free: the process ends right after writing, so
    // the context and module are never torn down (saves ~5% on big modules).
    LLVMContext &Ctx = *new LLVMContext;
    Expected<LoadedModule> LM = readModule(Input, Ctx);
    if (!LM)
      return reportError(LM.takeError(), ToolName);
    SanitizeResult Result;
    if (Error E = runSanitizePipeline(*LM->M, Opts, LM->DisplayName, Result))
      return reportError(std::move(E), ToolName);
    IRFormat Format = outputFormatFor(Output, parseIRFormat(Emit));
    // The manifest is serialised on a second thread while the module is
    // verified and printed, and appears only once the module has.
    ManifestWriter Manifest(Opts, Result, Output);
    if (Error E = writeModule(*LM->M, Output, Format, LM->DbgForm))
      return reportError(std::move(E), ToolName);
    if (Error E = Manifest.commit())
      return reportError(std::move(E), ToolName);
    LM->M.release();
    return static_cast<int>(ExitCode::Ok);
  }

private:
  std::string Input;
  std::string Output = "-";
  std::string Emit;
  SanitizeOptions Opts;
};

} // namespace

std::unique_ptr<Command> createSanitizeCommand() {
  return std::make_unique<SanitizeCommand>();
}

} // namespace irs::cli
