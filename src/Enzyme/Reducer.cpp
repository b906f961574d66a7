//===- Reducer.cpp - Cutting a failing module down with llvm-reduce -------===//
#include "ir-sanitize/Enzyme/Reducer.h"
#include "ir-sanitize/Config.h"
#include "ir-sanitize/Support/InputFile.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

using namespace llvm;

namespace irs {

namespace {
/// Counts what is printed into it and keeps nothing.
class ByteCounter : public raw_ostream {
public:
  ByteCounter() { SetUnbuffered(); }
  uint64_t current_pos() const override { return Bytes; }

private:
  void write_impl(const char *, size_t Size) override { Bytes += Size; }
  uint64_t Bytes = 0;
};
} // namespace

ModuleSize ModuleSize::of(const Module &M) {
  ModuleSize S;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    ++S.Functions;
    S.Instructions += F.getInstructionCount();
  }
  ByteCounter Counter;
  M.print(Counter, nullptr);
  S.Bytes = Counter.tell();
  return S;
}

std::string ModuleSize::describe() const {
  return formatv("{0} functions, {1} instructions, {2:N} bytes", Functions,
                 Instructions, Bytes)
      .str();
}

std::string defaultLLVMReducePath() {
  SmallString<256> P(IRS_LLVM_TOOLS_DIR);
  sys::path::append(P, "llvm-reduce");
  return std::string(P);
}

bool callsEnzymeEntryPoint(StringRef IR) {
  while (!IR.empty()) {
    size_t At = IR.find("@__enzyme_");
    if (At == StringRef::npos)
      return false;
    size_t LineStart = IR.rfind('\n', At) + 1; // npos + 1 == 0
    StringRef Line = IR.substr(LineStart).split('\n').first;
    StringRef Head = Line.take_front(At - LineStart);
    if (!Line.ltrim().starts_with("declare") && Head.contains("call "))
      return true;
    IR = IR.drop_front(LineStart + Line.size());
  }
  return false;
}

std::vector<std::string> llvmReduceArgs(const LLVMReduceRequest &R) {
  std::vector<std::string> Args = {"--test=" + R.TestProgram};
  for (const std::string &A : R.TestArgs)
    Args.push_back("--test-arg=" + A);
  Args.push_back("-j");
  Args.push_back(std::to_string(std::max(1u, R.Jobs)));
  Args.push_back("-o");
  Args.push_back(R.OutputPath);
  Args.push_back(R.InputPath);
  return Args;
}

namespace {

/// Follows llvm-reduce's log as it grows: "*** Reducing Functions..." starts
/// a pass, "Saved new best reduction to OUT" means OUT is complete and
/// smaller.
class LogFollower {
public:
  LogFollower(const LLVMReduceRequest &R) : R(R) {}

  /// Reads what was appended since the last call; true if it changed the
  /// progress.
  bool update(ReduceProgress &P) {
    // The checked open, from where the last call stopped. A burst past
    // EnzymeLogInput.MaxBytes is skipped: these lines only show progress.
    uint64_t Size = 0;
    if (sys::fs::file_size(R.LogPath, Size))
      return false;
    if (Size > Offset && Size - Offset > EnzymeLogInput.MaxBytes)
      Offset = Size - EnzymeLogInput.MaxBytes;
    std::string Chunk, Problem;
    if (!readInputFileFrom(R.LogPath, EnzymeLogInput, Offset, Chunk, Problem))
      return false;
    size_t End = Chunk.rfind('\n');
    if (End == std::string::npos)
      return false;
    Offset += End + 1;
    bool Changed = false;
    StringRef Rest = StringRef(Chunk).take_front(End + 1);
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      Rest = Tail;
      Line = Line.trim();
      if (Line.consume_front("*** ")) {
        P.Pass = Line.rtrim('.').str();
        Changed = true;
      } else if (Line.contains("Saved new best reduction to")) {
        uint64_t Size = 0;
        if (!sys::fs::file_size(R.OutputPath, Size))
          P.BestBytes = Size;
        Changed = true;
      }
    }
    return Changed;
  }

private:
  const LLVMReduceRequest &R;
  uint64_t Offset = 0;
};

} // namespace

Expected<ReduceOutcome>
runLLVMReduce(const LLVMReduceRequest &R,
              function_ref<void(const ReduceProgress &)> OnProgress) {
  std::string Reducer =
      R.ReducerPath.empty() ? defaultLLVMReducePath() : R.ReducerPath;
  // Its candidates and their logs go into the work directory (TMPDIR), which
  // is removed however the reduction ends.
  std::string TmpDir = "TMPDIR=" + sys::path::parent_path(R.LogPath).str();
  Expected<ChildProcess> Child = ChildProcess::start(
      Reducer, llvmReduceArgs(R), R.LogPath, R.MaxSeconds, {TmpDir});
  if (!Child)
    return handleErrors(Child.takeError(), [](const StringError &E) {
      return makeToolError(ExitCode::NoEnzyme, E.getMessage());
    });
  using namespace std::chrono;
  auto Started = steady_clock::now();
  LogFollower Log(R);
  ReduceProgress P;
  sys::fs::file_size(R.InputPath, P.BestBytes);
  ReduceOutcome Out;
  while (true) {
    std::optional<ChildOutcome> Done = Child->poll();
    P.Seconds = duration<double>(steady_clock::now() - Started).count();
    if (Log.update(P))
      OnProgress(P);
    if (Done) {
      Out.Child = *Done;
      return Out;
    }
    std::this_thread::sleep_for(milliseconds(200));
  }
}

} // namespace irs
