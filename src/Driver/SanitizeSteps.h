//===- SanitizeSteps.h - Steps shared by the rewriting jobs -----*- C++ -*-===//
//
// The default job, `enzyme` and `reduce` sanitize their input the same way
// and report it the same way; these are those shared steps, private to
// src/Driver (Sanitize.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_SANITIZESTEPS_H
#define IR_SANITIZE_DRIVER_SANITIZESTEPS_H

#include "ir-sanitize/Driver/Sanitize.h"

namespace irs {

/// Where \p Req's outputs go for \p Input sanitized as \p Result: Req.Output
/// in the format Req.Emit or its name says, the manifest and, with
/// \p WithReport, the report.
SanitizeOutputs sanitizeOutputs(const SanitizeRequest &Req,
                                const SanitizeResult &Result,
                                const LoadedModule &Input, bool WithReport);

/// The splat's notes, then the summary line naming \p InputName (progress).
void reportSanitized(DiagnosticHandler &Diags, const SanitizeResult &Result,
                     llvm::StringRef InputName);

/// Writes the report to \p ReportPath (none when empty), for jobs whose
/// module is written much later.
llvm::Error writeSanitizeReport(llvm::StringRef ReportPath,
                                const SanitizeResult &Result,
                                llvm::StringRef InputName);

/// The warning, if any, that \p M is written in another debug-info form than
/// it was read in.
void reportDebugInfoForm(DiagnosticHandler &Diags, const llvm::Module &M,
                         DebugInfoForm ReadForm);

/// After the outputs were written: a note when splatted kernels went to
/// stdout without their manifest (a launcher cannot call them without it).
void reportMissingManifest(DiagnosticHandler &Diags,
                           const SanitizeResult &Result,
                           const SanitizeOutputs &Out);

} // namespace irs

#endif
