//===- FakeEnzyme.cpp - Enzyme stand-ins that fail on purpose -------------===//
//
// Test doubles for the child-process harness: an opt plugin that registers
// Enzyme's `enzyme` pass and its -enzyme-preopt option, and whose pass either
// aborts with Enzyme's own words (FAKE_ENZYME_ABORT) or never returns
// (FAKE_ENZYME_HANG) or, with neither, leaves the module as it is (a run
// that succeeds), so tests need no real Enzyme.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include IRS_PASS_PLUGIN_HEADER
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <thread>

using namespace llvm;

static cl::opt<bool> EnzymePreopt("enzyme-preopt", cl::init(true),
                                  cl::desc("(fake) run Enzyme's preopt"));

namespace {
struct FakeEnzymePass : PassInfoMixin<FakeEnzymePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
#if defined(FAKE_ENZYME_ABORT)
    // What Enzyme prints before llvm_unreachable in getInvertedBundles.
    errs() << "unsupported tag gc-transition for   %r = call i32 @thunk(ptr "
              "%buf, i64 0) #1 [ \"jl_roots\"(ptr %buf), \"gc-transition\"() "
              "]\nunsupported tag\nUNREACHABLE executed at "
              "/src/enzyme/Enzyme/GradientUtils.cpp:308!\n";
    errs().flush();
    std::abort();
#elif defined(FAKE_ENZYME_HANG)
    while (true)
      std::this_thread::sleep_for(std::chrono::seconds(1));
#endif
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "FakeEnzyme", "0", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "enzyme")
                    return false;
                  MPM.addPass(FakeEnzymePass());
                  return true;
                });
          }};
}
