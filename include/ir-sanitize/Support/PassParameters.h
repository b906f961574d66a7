//===- PassParameters.h - Values inside a pass's <...> ----------*- C++ -*-===//
//
// A pass parameter value (a kernel name, a file) may hold the characters the
// pipeline syntax reserves; escaped, any value survives parsing. Both sides
// use these: the pass registry's parsers (Passes/PassRegistry.cpp) unescape,
// the passes' printPipeline (Transforms) and the pipeline texts the tool
// builds (Passes/Pipelines.h) escape.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_PASSPARAMETERS_H
#define IR_SANITIZE_SUPPORT_PASSPARAMETERS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace irs {

/// Text of a pass parameter value: the characters a pipeline's syntax
/// reserves (`,;<>()=%`), blanks, control bytes and `'` (so that a printed
/// pipeline can be quoted for a shell) as %XX, which the parsers decode.
/// The one escape for everything that goes into pipeline text.
std::string escapePassParameter(llvm::StringRef Value);
std::string unescapePassParameter(llvm::StringRef Text);

/// Writes `<S1;S2;...>` for a pass's printPipeline; nothing for no
/// settings, which its parser reads as the defaults.
void printPassParameters(llvm::raw_ostream &OS,
                         llvm::ArrayRef<std::string> Settings);

} // namespace irs

#endif
