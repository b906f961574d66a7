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

#include "ir-sanitize/Support/BundleReport.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Transforms/AccumulationMerging.h"
#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/InvariantDivision.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace irs {

/// Where the passes a pipeline parses hand back what they found; every
/// member may be null (opt's plugin gives only Diags). The pointees must
/// outlive the pipeline's runs.
struct PassSinks {
  /// Notes of the passes (the splat's), and each invalid pass parameter as a
  /// warning "PASS: problem" (PassBuilder then reports the element as
  /// unknown: its callbacks return no error).
  DiagnosticHandler *Diags = nullptr;
  BundleReport *Bundles = nullptr; ///< ir-sanitize-bundles' report.
  RestoreStats *Restore = nullptr;
  SplatSinks Splat; ///< ir-sanitize-splat's (Diags when its are null).
  DerivativeWrapperSinks
      DerivativeWrappers; ///< ir-sanitize-derivative-wrapper's.
  StoreSinkStats *StoreSink = nullptr;
  AccumulationMergingStats *Merge = nullptr;
  GridStrideStats *GridStride = nullptr;
  InvariantDivisionStats *InvariantDivision = nullptr;
};

/// Registers every pass of PassRegistry.def with \p PB's pipeline parser.
void registerIRSanitizePasses(llvm::PassBuilder &PB,
                              const PassSinks &Sinks = {});

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

/// Text of a pass parameter value: the characters a pipeline's syntax
/// reserves (`,;<>()=%` and blanks) as %XX, which the parsers decode.
std::string escapePassParameter(llvm::StringRef Value);
std::string unescapePassParameter(llvm::StringRef Text);

/// Runs the module pipeline \p Text (as `opt -passes='TEXT'` takes it) on
/// \p M: a PassBuilder for \p TM (may be null: no target) with LLVM's
/// analyses and the project's passes, reporting to \p Sinks. Errors: the
/// text does not parse (PassBuilder's message).
llvm::Error runPipeline(llvm::Module &M, llvm::StringRef Text,
                        const PassSinks &Sinks = {},
                        llvm::TargetMachine *TM = nullptr);

} // namespace irs

#endif
