//===- PassRegistry.h - Pipelines from text, as opt builds them -*- C++ -*-===//
//
// Every ir-sanitize pass by its pipeline name (PassRegistry.def), registered
// with a PassBuilder as LLVM registers its own: the opt plugin calls
// registerIRSanitizePasses, and every pipeline the tool runs is text parsed
// by PassBuilder::parsePassPipeline through it (runPipeline; the texts are in
// Pipelines.h), so that `--print-pipeline-passes` prints what
// `opt -load-pass-plugin=IRSanitize.so -passes='...'` replays. Nothing here
// prints.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_PASSES_PASSREGISTRY_H
#define IR_SANITIZE_PASSES_PASSREGISTRY_H

#include "ir-sanitize/Support/PassParameters.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

// (Declared, not included: PassBuilder.h costs every includer about 3 s of
// compile time.)
namespace llvm {
class Module;
class PassBuilder;
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace irs {

class DiagnosticHandler;
class PassResults;

/// Registers every pass of PassRegistry.def with \p PB's pipeline parser,
/// and, when \p PB has PassInstrumentationCallbacks, each pass class's
/// pipeline name with them (as PassBuilder does for LLVM's passes).
/// PassResultsAnalysis, with \p Results as the store (null: opt, no store),
/// is registered with its module analyses. An invalid pass parameter is a
/// warning "PASS: problem" to \p ParameterDiags (PassBuilder then reports
/// the element as unknown: its callbacks return no error).
void registerIRSanitizePasses(llvm::PassBuilder &PB,
                              PassResults *Results = nullptr,
                              DiagnosticHandler *ParameterDiags = nullptr);

/// Each pass's pipeline name, by its class: passname::BundleNormalizePass is
/// "ir-sanitize-bundles". Pipelines spell passes with these, never with a
/// literal of their own.
namespace passname {
#define MODULE_PASS(NAME, CLASS, CREATE_PASS, DESC)                            \
  inline constexpr const char *CLASS = NAME;
#define MODULE_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,      \
                                DESC)                                          \
  inline constexpr const char *CLASS = NAME;
#define FUNCTION_PASS(NAME, CLASS, CREATE_PASS, DESC)                          \
  inline constexpr const char *CLASS = NAME;
#define FUNCTION_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,    \
                                  DESC)                                        \
  inline constexpr const char *CLASS = NAME;
#include "ir-sanitize/Passes/PassRegistry.def"
} // namespace passname

/// One registered pass: what `--print-passes` and the docs' pass table list.
struct RegisteredPass {
  const char *Name;
  const char *Unit;        ///< "module" or "function".
  const char *Params;      ///< "" for none; see PassRegistry.def.
  const char *Description; ///< One line.
};
/// Every pass of PassRegistry.def, in its order.
const std::vector<RegisteredPass> &registeredPasses();

/// Writes registeredPasses() to \p OS as `opt --print-passes` lists LLVM's
/// (as PassBuilder::printPassNames): under a heading per IR unit, with and
/// without parameters, one `  NAME` or `  NAME<PARAMS>` per line, followed
/// by ` - DESCRIPTION`.
void printRegisteredPasses(llvm::raw_ostream &OS);

/// A module pipeline parsed from text (as `opt -passes='TEXT'` takes it)
/// through a PassBuilder for a target machine (may be null: no target) with
/// LLVM's analyses and the project's passes: the one object a job both runs
/// and, for `--print-pipeline-passes`, prints (as opt prints the pipeline it
/// parsed).
class Pipeline {
public:
  /// Parses \p Text; its passes hand their results to \p Results (null:
  /// a store of its own, whose failure run() still returns). Errors:
  /// PassBuilder's message for text that does not parse.
  static llvm::Expected<std::unique_ptr<Pipeline>>
  parse(llvm::StringRef Text, PassResults *Results = nullptr,
        llvm::TargetMachine *TM = nullptr);
  ~Pipeline();

  /// The parsed pipeline as text that parses back to it (pipelineText).
  std::string text();
  /// Runs it on \p M: a pass's failure, with its exit code.
  llvm::Error run(llvm::Module &M);

private:
  struct Parts;
  explicit Pipeline(std::unique_ptr<Parts> P);
  std::unique_ptr<Parts> P;
};

/// \p Text parsed and printed back: what `--print-pipeline-passes` prints.
llvm::Expected<std::string> printedPipeline(llvm::StringRef Text,
                                            llvm::TargetMachine *TM = nullptr);

/// Runs the module pipeline \p Text (as `opt -passes='TEXT'` takes it) on
/// \p M: a PassBuilder for \p TM (may be null: no target) with LLVM's
/// analyses and the project's passes, which hand their results to
/// \p Results (may be null: none wanted). Errors: the text does not parse
/// (PassBuilder's message), or a pass failed (its error, with its exit
/// code).
llvm::Error runPipeline(llvm::Module &M, llvm::StringRef Text,
                        PassResults *Results = nullptr,
                        llvm::TargetMachine *TM = nullptr);

} // namespace irs

#endif
