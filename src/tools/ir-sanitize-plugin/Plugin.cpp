//===- Plugin.cpp - ir-sanitize passes as an opt plugin -------------------===//
//
// `opt -load-pass-plugin=IRSanitize.so -passes=<name>` runs the same passes
// as the ir-sanitize command: the pass registry (Passes/PassRegistry.def)
// parses them; this front end only prints what the passes report.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Config.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include IRS_PASS_PLUGIN_HEADER

using namespace llvm;

namespace {

/// Notes (only the splat has any) and invalid pass parameters, on stderr.
class PluginDiagnostics final : public irs::DiagnosticHandler {
public:
  void handle(irs::DiagnosticKind Kind, const std::string &Message) override {
    if (Kind == irs::DiagnosticKind::Note)
      errs() << "ir-sanitize-splat: note: " << Message << "\n";
    else
      errs() << Message << "\n";
  }
};

void registerPasses(PassBuilder &PB) {
  static PluginDiagnostics Diags;
  irs::PassSinks Sinks;
  Sinks.Diags = &Diags;
  irs::registerIRSanitizePasses(PB, Sinks);
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ir-sanitize", IRS_VERSION, registerPasses};
}
