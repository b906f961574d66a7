//===- Plugin.cpp - ir-sanitize passes as an opt plugin -------------------===//
//
// `opt -load-pass-plugin=IRSanitize.so -passes=<name>` runs the same passes
// as the ir-sanitize command. Each pass registers its pipeline name here.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h" // Moved out of Passes/ in LLVM 22.
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

/// ir-sanitize-bundles[<TAG=ACTION;scope=all>] and ir-sanitize-restore.
static bool parseBundlePasses(StringRef Name, ModulePassManager &MPM) {
  if (Name == "ir-sanitize-restore") {
    MPM.addPass(irs::BundleRestorePass());
    return true;
  }
  if (!PassBuilder::checkParametrizedPassName(Name, "ir-sanitize-bundles"))
    return false;
  StringRef Params = Name;
  Params.consume_front("ir-sanitize-bundles");
  Params.consume_front("<");
  Params.consume_back(">");
  Expected<irs::BundlePolicy> Policy =
      irs::BundlePolicy::fromPassParameters(Params);
  if (!Policy) {
    errs() << "ir-sanitize-bundles: " << toString(Policy.takeError()) << "\n";
    return false;
  }
  MPM.addPass(irs::BundleNormalizePass(std::move(*Policy)));
  return true;
}

/// ir-sanitize-splat[<kernel=NAME;manifest=FILE>].
static bool parseSplatPass(StringRef Name, ModulePassManager &MPM) {
  if (!PassBuilder::checkParametrizedPassName(Name, "ir-sanitize-splat"))
    return false;
  StringRef Params = Name.drop_front(strlen("ir-sanitize-splat"));
  Params.consume_front("<");
  Params.consume_back(">");
  Expected<irs::KernelSplatPass> Pass =
      irs::KernelSplatPass::parse(Params, [](const std::string &Note) {
        errs() << "ir-sanitize-splat: note: " << Note << "\n";
      });
  if (!Pass) {
    errs() << "ir-sanitize-splat: " << toString(Pass.takeError()) << "\n";
    return false;
  }
  MPM.addPass(std::move(*Pass));
  return true;
}

static void registerPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseSplatPass(Name, MPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseBundlePasses(Name, MPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) { return false; });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ir-sanitize", "0.1", registerPasses};
}
