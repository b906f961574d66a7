//===- PassResults.h - What passes hand to their runner ---------*- C++ -*-===//
//
// A pass reports through LLVM's own means: STATISTICs (-stats), optimization
// remarks (-pass-remarks=ir-sanitize) and, for a failure, the LLVMContext.
// The tool's jobs need more than that from some passes: the values their
// reports, manifests and exit codes are made of (ir-sanitize-bundles' report,
// the splat's manifest, the derivative wrappers, counts). A pass puts such a
// value into the PassResults of the pipeline run, a store of one value per
// type that the runner owns (runPipeline, Passes/PassRegistry.h) and reads
// back after the run. Passes reach it as a module analysis,
// PassResultsAnalysis, the way LLVM's passes reach PassInstrumentation: the
// registry registers it (with no store: opt), the runner registers its own
// store first. So no pass knows who runs it, the registry holds nothing per
// pass, and a new pass with a new result needs no new plumbing.
//
// A pass's failure that ends the job (an unknown kernel: a ToolError with its
// exit code) goes to the store when there is one, so that the runner returns
// it with that code, and to the LLVMContext otherwise (opt prints it).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TRANSFORMS_PASSRESULTS_H
#define IR_SANITIZE_TRANSFORMS_PASSRESULTS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace irs {

class PassResults {
public:
  PassResults() = default;
  PassResults(const PassResults &) = delete;
  PassResults &operator=(const PassResults &) = delete;
  ~PassResults() { llvm::consumeError(std::move(Failure)); }

  /// The value of type \p T, value-initialised when first asked for: a
  /// runner may set it up before the run (a report's level of detail), a
  /// pass adds to it.
  template <typename T> T &get() {
    std::unique_ptr<Holder> &H = Values[key<T>()];
    if (!H)
      H = std::make_unique<Model<T>>();
    return static_cast<Model<T> &>(*H).Value;
  }
  /// The value of type \p T if anyone made one, else null.
  template <typename T> T *find() const {
    auto It = Values.find(key<T>());
    return It == Values.end() ? nullptr
                              : &static_cast<Model<T> &>(*It->second).Value;
  }

  /// Records a pass's failure; several join (llvm::joinErrors).
  void fail(llvm::Error E) {
    Failure = llvm::joinErrors(std::move(Failure), std::move(E));
    Failed = true;
  }
  /// What the runner should tell the user beside its result (a kernel the
  /// splat left alone, and why), in the order the passes found it.
  void note(std::string Text) { Notes.push_back(std::move(Text)); }
  const std::vector<std::string> &notes() const { return Notes; }

  /// Whether a pass failed: later passes that depend on it do nothing.
  bool failed() const { return Failed; }
  /// The failures so far (success if none), for the runner to return.
  llvm::Error takeFailure() {
    Failed = false;
    return std::move(Failure);
  }

private:
  struct Holder {
    virtual ~Holder() = default;
  };
  template <typename T> struct Model final : Holder {
    T Value{};
  };
  /// One address per type: the key of its value.
  template <typename T> static const void *key() {
    static const char Key = 0;
    return &Key;
  }

  llvm::DenseMap<const void *, std::unique_ptr<Holder>> Values;
  std::vector<std::string> Notes;
  llvm::Error Failure = llvm::Error::success();
  bool Failed = false;
};

/// The PassResults of the pipeline run on a module; null where nobody
/// collects (opt). Never invalidated: the store outlives the run.
class PassResultsAnalysis
    : public llvm::AnalysisInfoMixin<PassResultsAnalysis> {
public:
  struct Result {
    PassResults *Results;
    bool invalidate(llvm::Module &, const llvm::PreservedAnalyses &,
                    llvm::ModuleAnalysisManager::Invalidator &) {
      return false;
    }
  };
  explicit PassResultsAnalysis(PassResults *Results = nullptr)
      : Results(Results) {}
  Result run(llvm::Module &, llvm::ModuleAnalysisManager &) {
    return {Results};
  }

private:
  friend llvm::AnalysisInfoMixin<PassResultsAnalysis>;
  static llvm::AnalysisKey Key;
  PassResults *Results;
};

/// The store of the run on \p M, or null. Only a cached result counts: the
/// runner computes the analysis before the run (runPipeline does), as a
/// function pass can see only cached module analyses anyway. \p MAM must
/// have the analysis registered (registerIRSanitizePasses registers it).
PassResults *passResults(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
/// The same for a function pass.
PassResults *passResults(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// Reports the failure \p E of pass \p PassName running on \p M: into
/// \p Results when there are any, else to the LLVMContext as an error.
void reportPassFailure(llvm::Module &M, PassResults *Results,
                       llvm::StringRef PassName, llvm::Error E);

} // namespace irs

#endif
