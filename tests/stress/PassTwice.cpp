//===- PassTwice.cpp - Each derivative pass twice, idempotent -------------===//
//
// The property test of tests/stress/derivative-passes.sh. Every module given
// (text or bitcode; those that do not read or verify are counted and
// skipped) goes through each derivative pass: the project's passes of
// derivativePipeline with every step on, with their parameters and without,
// and SharedTileForwarding (before Enzyme, outside that pipeline).
// Each runs twice, and fails when it crashes,
// leaves a module the verifier rejects, or changes a module it already ran
// on, compared as printed text: on the same module in memory, and on the
// first output read back (what a later process, e.g. opt, sees).
//
//   irs-pass-twice [--list=FILE] [FILE...]
//
// --list names a file of input paths, one per line. Prints one line per
// failure and the counts; exits 1 on any failure, 2 on a usage error.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Passes/Pipelines.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace {

/// The project's passes in pipeline \p Text, each as a pipeline of its own
/// inside the adaptors around it (`function(NAME<PARAMS>)`), and each with
/// parameters also without them.
std::vector<std::string> projectPasses(StringRef Text) {
  std::vector<std::string> Passes;
  SmallVector<std::string, 2> Adaptors;
  std::string Token;
  unsigned Angle = 0;
  auto Wrap = [&](std::string P) {
    for (auto It = Adaptors.rbegin(); It != Adaptors.rend(); ++It)
      P = *It + "(" + P + ")";
    return P;
  };
  auto EndToken = [&] {
    StringRef Name = StringRef(Token).trim();
    if (Name.starts_with("ir-sanitize-")) {
      Passes.push_back(Wrap(Name.str()));
      if (Name.contains('<'))
        Passes.push_back(Wrap(Name.split('<').first.str()));
    }
    Token.clear();
  };
  for (char C : Text) {
    Angle += C == '<';
    Angle -= C == '>' && Angle;
    if (Angle || (C != ',' && C != '(' && C != ')')) {
      Token += C;
      continue;
    }
    if (C == '(') {
      Adaptors.push_back(Token);
      Token.clear();
      continue;
    }
    EndToken();
    if (C == ')' && !Adaptors.empty())
      Adaptors.pop_back();
  }
  EndToken();
  return Passes;
}

std::string printed(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return S;
}

/// A module and the context it lives in; after a crash in a pass neither is
/// destroyed (their state is unknown), they are leaked.
struct OwnedModule {
  std::unique_ptr<LLVMContext> Ctx = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M;
  void abandon() {
    (void)M.release();
    (void)Ctx.release();
  }
};

/// Runs \p Pipeline on \p O and prints the result; an error when the pass
/// crashes, the text does not parse or the result fails the verifier.
Expected<std::string> runOnce(OwnedModule &O, StringRef Pipeline) {
  Error E = Error::success();
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { E = irs::runPipeline(*O.M, Pipeline); })) {
    consumeError(std::move(E));
    O.abandon();
    return createStringError(inconvertibleErrorCode(), "crashed");
  }
  if (E)
    return Expected<std::string>(std::move(E));
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(*O.M, &OS))
    return createStringError(inconvertibleErrorCode(),
                             "the result fails the verifier: " +
                                 StringRef(Msg).split('\n').first);
  return printed(*O.M);
}

/// The first line where \p A and \p B differ, both versions.
std::string firstDifference(StringRef A, StringRef B) {
  SmallVector<StringRef, 0> LA, LB;
  A.split(LA, '\n');
  B.split(LB, '\n');
  size_t I = 0;
  while (I < LA.size() && I < LB.size() && LA[I] == LB[I])
    ++I;
  auto At = [](ArrayRef<StringRef> L, size_t I) {
    return I < L.size() ? L[I].take_front(160).str() : "<end>";
  };
  return "line " + std::to_string(I + 1) + ": '" + At(LA, I) + "' became '" +
         At(LB, I) + "'";
}

/// Both checks of \p Pipeline on \p Input; the failure, if any.
std::optional<std::string> checkTwice(MemoryBufferRef Input,
                                      StringRef Pipeline) {
  OwnedModule First;
  SMDiagnostic Diag;
  First.M = parseIR(Input, Diag, *First.Ctx);
  Expected<std::string> Once = runOnce(First, Pipeline);
  if (!Once)
    return "first run: " + toString(Once.takeError());
  Expected<std::string> Again = runOnce(First, Pipeline);
  if (!Again)
    return "second run: " + toString(Again.takeError());
  if (*Again != *Once)
    return "the second run (same module) changes it at " +
           firstDifference(*Once, *Again);
  OwnedModule Back;
  Back.M = parseAssemblyString(*Once, Diag, *Back.Ctx);
  if (!Back.M)
    return "the first run's output does not read back: " +
           Diag.getMessage().str();
  std::string Read = printed(*Back.M);
  Expected<std::string> ReadAgain = runOnce(Back, Pipeline);
  if (!ReadAgain)
    return "second run (read back): " + toString(ReadAgain.takeError());
  if (*ReadAgain != Read)
    return "the second run (read back) changes it at " +
           firstDifference(Read, *ReadAgain);
  return std::nullopt;
}

/// Whether \p Input reads and verifies, debug info included: the inputs
/// the property is about. (The verifier aborts on some invalid modules, a
/// gc.relocate without a collector: those are not.)
bool isValidModule(MemoryBufferRef Input) {
  OwnedModule O;
  SMDiagnostic Diag;
  O.M = parseIR(Input, Diag, *O.Ctx);
  if (!O.M)
    return false;
  bool Invalid = true, BrokenDebugInfo = false;
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely(
          [&] { Invalid = verifyModule(*O.M, nullptr, &BrokenDebugInfo); })) {
    O.abandon();
    return false;
  }
  return !Invalid && !BrokenDebugInfo;
}

/// Modules are read as they are: the reader's debug-info upgrade would
/// verify them and print what it finds (LLVM 17 and later can be told not
/// to).
void readModulesAsTheyAre() {
  auto &Opts = cl::getRegisteredOptions(); // StringMap, a DenseMap in 22
  auto It = Opts.find("disable-auto-upgrade-debug-info");
  if (It != Opts.end())
    It->second->addOccurrence(0, "disable-auto-upgrade-debug-info", "true");
}

bool readList(StringRef Path, std::vector<std::string> &Files) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> List = MemoryBuffer::getFile(Path);
  if (!List)
    return false;
  SmallVector<StringRef, 0> Lines;
  (*List)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines)
    Files.push_back(L.str());
  return true;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (Arg.consume_front("--list=") ? !readList(Arg, Files)
                                     : (Files.push_back(Arg.str()), false)) {
      errs() << "irs-pass-twice: cannot read the list '" << Arg << "'\n";
      return 2;
    }
  }
  irs::DerivativePipelineOptions All;
  All.GridStride = true;
  All.ThreadsPerMultiprocessor = 2048;
  All.Accesses.AggregateAccumulations = true;
  // Not the pipeline whole: its early-cse simplifies what the passes after
  // it made, and the second run then finds other code.
  std::vector<std::string> Pipelines =
      projectPasses(irs::derivativePipeline(All));
  // Before Enzyme, outside derivativePipeline (gpu-check's Enzyme input).
  Pipelines.push_back(std::string("function(") +
                      irs::passname::SharedTileForwardingPass + ")");
  CrashRecoveryContext::Enable();
  readModulesAsTheyAre();
  unsigned Modules = 0, Skipped = 0, Runs = 0, Failures = 0;
  for (const std::string &File : Files) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
    if (!Buf || !isValidModule(**Buf)) {
      ++Skipped;
      continue;
    }
    ++Modules;
    for (const std::string &P : Pipelines) {
      ++Runs;
      if (std::optional<std::string> Failed = checkTwice(**Buf, P)) {
        ++Failures;
        outs() << "FAIL " << File << ": " << P << ": " << *Failed << "\n";
      }
    }
  }
  outs() << "pass-twice: " << Modules << " modules (" << Skipped
         << " skipped: unreadable or invalid), " << Pipelines.size()
         << " pipelines (" << join(Pipelines, " ") << "), " << Runs
         << " checked twice, " << Failures << " failures\n";
  return Failures ? 1 : 0;
}
