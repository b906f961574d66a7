//===- Plugin.cpp - ir-sanitize passes as an opt plugin -------------------===//
//
// `opt -load-pass-plugin=IRSanitize.so -passes=<name>` runs the same passes
// as the ir-sanitize command: the pass registry (Passes/PassRegistry.def)
// parses them. The passes report through opt's own means (-stats,
// -pass-remarks=ir-sanitize, errors); this front end only prints the
// warnings about invalid pass parameters.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Config.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include IRS_PASS_PLUGIN_HEADER

using namespace llvm;

namespace {

/// Invalid pass parameters, on stderr ("PASS: problem").
class PluginDiagnostics final : public irs::DiagnosticHandler {
public:
  void handle(irs::DiagnosticKind, const std::string &Message) override {
    errs() << Message << "\n";
  }
};

void registerPasses(PassBuilder &PB) {
  static PluginDiagnostics Diags;
  irs::registerIRSanitizePasses(PB, /*Results=*/nullptr, &Diags);
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ir-sanitize", IRS_VERSION, registerPasses};
}
