//===- Restore.h - Putting stashed bundles back -----------------*- C++ -*-===//
//
// `ir-sanitize restore` without the command line: re-attach every operand
// bundle a previous run stashed (BundleRestorePass) and write the module.
// Nothing here prints: notes go to a DiagnosticHandler.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_RESTORE_H
#define IR_SANITIZE_DRIVER_RESTORE_H

#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Transforms/BundleRestore.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace irs {

/// Runs BundleRestorePass on \p M (the step the C API calls on its module).
RestoreStats restoreModule(llvm::Module &M);

struct RestoreRequest {
  std::string Input = "-";  ///< "-": stdin.
  std::string Output = "-"; ///< "-": stdout.
  std::string Emit;         ///< "ll" or "bc"; empty: as Output's name says.
};

struct RestoreJobResult {
  std::string InputName;
  RestoreStats Stats; ///< Stats.Lost: bundles that could not be restored.
  std::unique_ptr<llvm::Module> Module; ///< As written (caller's context).
};

/// `restore` as one job: reads Req.Input into \p Ctx, restores its bundles
/// and writes it (also when some were lost). Reports the summary (progress
/// "NAME: restored ..."), a note on removed orphan markers, and warnings for
/// the debug-info form and for lost bundles. Errors are ToolErrors.
llvm::Expected<RestoreJobResult> runRestore(const RestoreRequest &Req,
                                            llvm::LLVMContext &Ctx,
                                            DiagnosticHandler &Diags);

/// `--print-pipeline-passes`: the pipeline runRestore would run, printed
/// from the parsed pipeline. Req.Input is read, so that an input the run
/// would refuse is refused; nothing is written.
llvm::Expected<std::string> printRestorePipeline(const RestoreRequest &Req,
                                                 llvm::LLVMContext &Ctx);

} // namespace irs

#endif
