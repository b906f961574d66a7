//===- BoundedJSON.h - Depth-limited parsing of untrusted JSON -*- C++ -*-===//
//
// llvm::json::parse (and destroying the value it builds) recurses once per
// nesting level. Every JSON file ir-sanitize reads (launch specs, launch
// manifests) goes through parseBoundedJSON, which rejects nesting deeper than
// MaxJSONDepth (Support/JSONDepth.h) before any value is built, and a key
// given twice in one object (llvm::json would keep the last silently).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_BOUNDEDJSON_H
#define IR_SANITIZE_SUPPORT_BOUNDEDJSON_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace irs {

/// Parses \p Text; the error (a ToolError, ExitCode::BadInput) is one line
/// starting with \p File: "FILE: not valid JSON: ..." or "FILE: JSON nested
/// deeper than 64 levels".
llvm::Expected<llvm::json::Value> parseBoundedJSON(llvm::StringRef Text,
                                                   llvm::StringRef File);

} // namespace irs

#endif
