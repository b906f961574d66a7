//===- BoundedJSON.cpp - Parsing untrusted JSON without deep recursion ----===//
#include "ir-sanitize/Support/BoundedJSON.h"

#include "ir-sanitize/Support/JSONDepth.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

using namespace llvm;

namespace irs {

namespace {

/// The first key that appears twice in one object of \p Text, which must be
/// valid JSON. llvm::json::parse keeps the last of two equal keys silently;
/// a spec or manifest that says two things is refused instead. Keys are
/// compared unescaped ("a" and "\u0061" are the same key).
std::optional<std::string> findDuplicateKey(StringRef Text) {
  std::vector<std::optional<StringSet<>>> Open; // an object's keys, or array
  char LastToken = 0;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '{' || C == '[') {
      Open.emplace_back();
      if (C == '{')
        Open.back().emplace();
    } else if ((C == '}' || C == ']') && !Open.empty()) {
      Open.pop_back();
    } else if (C == '"') {
      size_t End = I + 1;
      while (Text[End] != '"')
        End += Text[End] == '\\' ? 2 : 1;
      bool IsKey = !Open.empty() && Open.back() &&
                   (LastToken == '{' || LastToken == ',');
      if (IsKey) {
        Expected<json::Value> Key = json::parse(Text.slice(I, End + 1));
        std::string Name = Key ? Key->getAsString()->str() : "";
        consumeError(Key.takeError());
        if (!Open.back()->insert(Name).second)
          return Name;
      }
      I = End;
    }
    if (!isSpace(C))
      LastToken = C;
  }
  return std::nullopt;
}

} // namespace

Expected<json::Value> parseBoundedJSON(StringRef Text, StringRef File) {
  if (exceedsJSONDepth(std::string_view(Text.data(), Text.size())))
    return makeToolError(ExitCode::BadInput,
                         File + ": JSON nested deeper than " +
                             Twine(MaxJSONDepth) + " levels");
  Expected<json::Value> V = json::parse(Text);
  if (!V)
    return makeToolError(ExitCode::BadInput,
                         File + ": not valid JSON: " + toString(V.takeError()));
  if (std::optional<std::string> Key = findDuplicateKey(Text))
    return makeToolError(ExitCode::BadInput,
                         File + ": not valid JSON: key '" +
                             escapeForMessage(*Key) +
                             "' appears twice in one object");
  return V;
}

} // namespace irs
