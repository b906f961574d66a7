//===- FakeEnzyme.cpp - Enzyme stand-ins that fail on purpose -------------===//
//
// Test doubles for the child-process harness: an opt plugin that registers
// Enzyme's `enzyme` pass and its -enzyme-preopt option, and whose pass either
// aborts with Enzyme's own words (FAKE_ENZYME_ABORT) or never returns
// (FAKE_ENZYME_HANG) or aborts only the first time it runs (FAKE_ENZYME_FLAKY:
// a failure that does not repeat) or aborts with Enzyme's words on the first
// call whose bundle tag is not in $FAKE_ENZYME_ACCEPTS (comma-separated,
// default jl_roots; FAKE_ENZYME_STRICT: an Enzyme with a known set of tags,
// to be probed) or, with none of these, leaves the module
// as it is (a run that succeeds), so tests need no real Enzyme. Any of
// them, given -fake-enzyme-fail-saying=N, prints N bytes on one line and
// exits 1. With FAKE_ENZYME_ORPHAN_PIDS=FILE in the environment, any of them
// first starts a process that ignores SIGTERM, SIGINT and SIGHUP (named
// irs-orphan, it sleeps up to 120 s) and appends "ITS_PID OPT_PID" to FILE:
// a plugin whose helper outlives opt unless opt's process group is killed.
// With FAKE_ENZYME_RUNS=FILE, every run appends a line to FILE.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include IRS_PASS_PLUGIN_HEADER
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <thread>
#include <unistd.h>

using namespace llvm;

static cl::opt<bool> EnzymePreopt("enzyme-preopt", cl::init(true),
                                  cl::desc("(fake) run Enzyme's preopt"));

static cl::opt<unsigned>
    FailSaying("fake-enzyme-fail-saying", cl::init(0),
               cl::desc("(fake) print a line of this many bytes, exit 1"));

namespace {
[[maybe_unused, noreturn]] void abortLikeEnzyme() {
  // What Enzyme prints before llvm_unreachable in getInvertedBundles.
  errs() << "unsupported tag gc-transition for   %r = call i32 @thunk(ptr "
            "%buf, i64 0) #1 [ \"jl_roots\"(ptr %buf), \"gc-transition\"() "
            "]\nunsupported tag\nUNREACHABLE executed at "
            "/src/enzyme/Enzyme/GradientUtils.cpp:308!\n";
  errs().flush();
  std::abort();
}

[[maybe_unused]] void rejectUnacceptedTags(Module &M) {
  const char *Env = std::getenv("FAKE_ENZYME_ACCEPTS");
  SmallVector<StringRef, 4> Accepted;
  StringRef(Env ? Env : "jl_roots").split(Accepted, ',');
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *CB = dyn_cast<CallBase>(&I))
          for (unsigned B = 0; B != CB->getNumOperandBundles(); ++B) {
            StringRef Tag = CB->getOperandBundleAt(B).getTagName();
            if (is_contained(Accepted, Tag))
              continue;
            errs() << "unsupported tag " << Tag << " for " << I
                   << "\nunsupported tag\nUNREACHABLE executed at "
                      "/src/enzyme/Enzyme/GradientUtils.cpp:308!\n";
            errs().flush();
            std::abort();
          }
}

void countRun() {
  if (const char *Runs = std::getenv("FAKE_ENZYME_RUNS")) {
    int FD = ::open(Runs, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (FD >= 0) {
      (void)!::write(FD, "run\n", 4);
      ::close(FD);
    }
  }
}

/// The orphan: SIGTERM-proof, recorded in \p PidFile once it ignores it.
void startOrphan(const char *PidFile) {
  int Ready[2];
  if (::pipe(Ready) != 0)
    return;
  pid_t Pid = ::fork();
  if (Pid == 0) {
    for (int Sig : {SIGTERM, SIGINT, SIGHUP})
      std::signal(Sig, SIG_IGN);
#ifdef __linux__
    ::prctl(PR_SET_NAME, "irs-orphan");
#endif
    (void)!::write(Ready[1], "x", 1);
    for (int FD = 0; FD != 3; ++FD)
      ::close(FD);
    ::sleep(120);
    ::_exit(0);
  }
  char Byte;
  if (Pid > 0 && ::read(Ready[0], &Byte, 1) == 1) {
    std::string Line =
        std::to_string(Pid) + " " + std::to_string(::getpid()) + "\n";
    int FD = ::open(PidFile, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (FD >= 0) {
      (void)!::write(FD, Line.data(), Line.size());
      ::close(FD);
    }
  }
  ::close(Ready[0]);
  ::close(Ready[1]);
}

struct FakeEnzymePass : PassInfoMixin<FakeEnzymePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    countRun();
    if (const char *PidFile = std::getenv("FAKE_ENZYME_ORPHAN_PIDS"))
      startOrphan(PidFile);
    if (FailSaying) { // a plugin with a lot to say on one line
      errs() << std::string(FailSaying, 'x') << "\n";
      errs().flush();
      std::exit(1);
    }
#if defined(FAKE_ENZYME_FLAKY)
    // The first run creates $FAKE_ENZYME_FLAKY_STATE and aborts; any later
    // one (or a concurrent loser of the O_EXCL race) succeeds.
    const char *State = std::getenv("FAKE_ENZYME_FLAKY_STATE");
    int FD = State ? ::open(State, O_CREAT | O_EXCL | O_WRONLY, 0644) : -1;
    if (FD < 0)
      return PreservedAnalyses::all();
    ::close(FD);
    abortLikeEnzyme();
#elif defined(FAKE_ENZYME_ABORT)
    abortLikeEnzyme();
#elif defined(FAKE_ENZYME_STRICT)
    rejectUnacceptedTags(M);
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
