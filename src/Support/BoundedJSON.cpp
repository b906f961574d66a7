//===- BoundedJSON.cpp - Parsing untrusted JSON without deep recursion ----===//
#include "ir-sanitize/Support/BoundedJSON.h"

#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/JSONDepth.h"

using namespace llvm;

namespace irs {

Expected<json::Value> parseBoundedJSON(StringRef Text, StringRef File) {
  if (exceedsJSONDepth(std::string_view(Text.data(), Text.size())))
    return makeToolError(ExitCode::BadInput,
                         File + ": JSON nested deeper than " +
                             Twine(MaxJSONDepth) + " levels");
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return makeToolError(ExitCode::BadInput,
                         File + ": not valid JSON: " + toString(V.takeError()));
  return V;
}

} // namespace irs
