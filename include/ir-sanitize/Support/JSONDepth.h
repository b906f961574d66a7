//===- JSONDepth.h - Reject deeply nested JSON before parsing ---*- C++ -*-===//
//
// JSON parsers (llvm::json's, and destroying its values) recurse once per
// nesting level, so 50,000 nested arrays overflow the stack. Every JSON
// document ir-sanitize and ir-sanitize-gpurun read is first scanned here, in
// one linear pass without recursion, and rejected when arrays and objects
// nest deeper than MaxJSONDepth. No document the tools write comes near it
// (a run plan nests 6 levels, a launch manifest 6, a launch spec 3).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_JSONDEPTH_H
#define IR_SANITIZE_SUPPORT_JSONDEPTH_H

#include <string_view>

namespace irs {

/// The deepest nesting of arrays and objects a JSON input may have.
inline constexpr unsigned MaxJSONDepth = 64;

/// Whether \p Text nests arrays and objects deeper than \p MaxDepth.
/// Brackets inside strings do not count; malformed text is left to the
/// parser (this only guards it).
inline bool exceedsJSONDepth(std::string_view Text,
                             unsigned MaxDepth = MaxJSONDepth) {
  unsigned Depth = 0;
  bool InString = false, Escaped = false;
  for (char C : Text) {
    if (InString) {
      if (Escaped)
        Escaped = false;
      else if (C == '\\')
        Escaped = true;
      else if (C == '"')
        InString = false;
      continue;
    }
    if (C == '"') {
      InString = true;
    } else if (C == '[' || C == '{') {
      if (++Depth > MaxDepth)
        return true;
    } else if ((C == ']' || C == '}') && Depth > 0) {
      --Depth;
    }
  }
  return false;
}

} // namespace irs

#endif
