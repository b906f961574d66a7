//===- Plugin.cpp - ir-sanitize passes as an opt plugin -------------------===//
//
// `opt -load-pass-plugin=IRSanitize.so -passes=<name>` runs the same passes
// as the ir-sanitize command. Each pass registers its pipeline name here.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Transforms/AccumulationMerging.h"
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/InvariantDivision.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include IRS_PASS_PLUGIN_HEADER

#include <optional>

using namespace llvm;

/// The parameters of `PassName` or `PassName<PARAMS>`; none if \p Name is
/// another pass (PassBuilder::checkParametrizedPassName, which LLVM 16 lacks).
static std::optional<StringRef> passParameters(StringRef Name,
                                               StringRef PassName) {
  if (!Name.consume_front(PassName))
    return std::nullopt;
  if (Name.empty())
    return Name;
  if (!Name.consume_front("<") || !Name.consume_back(">"))
    return std::nullopt;
  return Name;
}

/// ir-sanitize-bundles[<TAG=ACTION;scope=all>] and ir-sanitize-restore.
static bool parseBundlePasses(StringRef Name, ModulePassManager &MPM) {
  if (Name == "ir-sanitize-restore") {
    MPM.addPass(irs::BundleRestorePass());
    return true;
  }
  std::optional<StringRef> Params = passParameters(Name, "ir-sanitize-bundles");
  if (!Params)
    return false;
  Expected<irs::BundlePolicy> Policy =
      irs::BundlePolicy::fromPassParameters(*Params);
  if (!Policy) {
    errs() << "ir-sanitize-bundles: " << toString(Policy.takeError()) << "\n";
    return false;
  }
  MPM.addPass(irs::BundleNormalizePass(std::move(*Policy)));
  return true;
}

/// ir-sanitize-splat[<kernel=NAME;manifest=FILE>].
static bool parseSplatPass(StringRef Name, ModulePassManager &MPM) {
  std::optional<StringRef> Params = passParameters(Name, "ir-sanitize-splat");
  if (!Params)
    return false;
  Expected<irs::KernelSplatPass> Pass =
      irs::KernelSplatPass::parse(*Params, [](const std::string &Note) {
        errs() << "ir-sanitize-splat: note: " << Note << "\n";
      });
  if (!Pass) {
    errs() << "ir-sanitize-splat: " << toString(Pass.takeError()) << "\n";
    return false;
  }
  MPM.addPass(std::move(*Pass));
  return true;
}

/// The floating-point choice of `PassName` or `PassName<reassociate-fp>`;
/// none if \p Name is another pass or (reported) a bad parameter.
static std::optional<bool> reassociateFPOf(StringRef Name, StringRef PassName) {
  std::optional<StringRef> Params = passParameters(Name, PassName);
  if (!Params)
    return std::nullopt;
  if (!Params->empty() && *Params != "reassociate-fp") {
    errs() << PassName << ": unknown parameter '" << *Params
           << "' (expected reassociate-fp)\n";
    return std::nullopt;
  }
  return !Params->empty();
}

/// ir-sanitize-merge-accumulations[<reassociate-fp>].
static bool parseMergePass(StringRef Name, FunctionPassManager &FPM) {
  std::optional<bool> FP =
      reassociateFPOf(Name, "ir-sanitize-merge-accumulations");
  if (FP)
    FPM.addPass(irs::AccumulationMergingPass(*FP));
  return FP.has_value();
}

/// ir-sanitize-grid-stride[<reassociate-fp>].
static bool parseGridStridePass(StringRef Name, ModulePassManager &MPM) {
  std::optional<bool> FP = reassociateFPOf(Name, "ir-sanitize-grid-stride");
  if (FP)
    MPM.addPass(irs::GridStrideCoarseningPass(*FP));
  return FP.has_value();
}

static void registerPasses(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "ir-sanitize-store-sink-versioning")
          FPM.addPass(irs::StoreSinkVersioningPass());
        else if (Name == "ir-sanitize-invariant-division")
          FPM.addPass(irs::InvariantDivisionPass());
        else
          return parseMergePass(Name, FPM);
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseSplatPass(Name, MPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parseBundlePasses(Name, MPM) || parseGridStridePass(Name, MPM);
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) { return false; });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ir-sanitize", "0.1", registerPasses};
}
