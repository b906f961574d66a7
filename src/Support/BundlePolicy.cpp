//===- BundlePolicy.cpp - What to do with each operand bundle tag ---------===//
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace irs {

StringRef actionName(BundleAction A) {
  switch (A) {
  case BundleAction::Keep:
    return "keep";
  case BundleAction::Drop:
    return "drop";
  case BundleAction::Stash:
    return "stash";
  case BundleAction::Lower:
    return "lower";
  }
  llvm_unreachable("unknown bundle action");
}

std::optional<BundleAction> parseActionName(StringRef Name) {
  return StringSwitch<std::optional<BundleAction>>(Name)
      .Case("keep", BundleAction::Keep)
      .Case("drop", BundleAction::Drop)
      .Case("stash", BundleAction::Stash)
      .Case("lower", BundleAction::Lower)
      .Default(std::nullopt);
}

StringRef scopeName(BundleScope S) {
  return S == BundleScope::All ? "all" : "ccalls";
}

std::optional<BundleScope> parseScopeName(StringRef Name) {
  return StringSwitch<std::optional<BundleScope>>(Name)
      .Case("ccalls", BundleScope::CCalls)
      .Case("all", BundleScope::All)
      .Default(std::nullopt);
}

BundleAction BundlePolicy::actionFor(StringRef Tag) const {
  auto It = Actions.find(Tag);
  if (It != Actions.end())
    return It->second;
  if (Tag == JlRootsTag)
    return BundleAction::Keep;
  if (Tag == GCTransitionTag)
    return BundleAction::Lower;
  return BundleAction::Stash;
}

Error BundlePolicy::applySetting(StringRef Setting) {
  auto [Tag, Action] = Setting.rsplit('=');
  if (Tag.empty() || Action.empty() || !Setting.contains('='))
    return makeToolError(ExitCode::Usage,
                         "expected TAG=ACTION, got '" + Setting + "'");
  std::optional<BundleAction> A = parseActionName(Action);
  if (!A)
    return makeToolError(ExitCode::Usage,
                         "unknown bundle action '" + Action + "' for tag '" +
                             Tag + "' (expected keep, drop, stash or lower)");
  if (*A == BundleAction::Lower && Tag != GCTransitionTag)
    return makeToolError(ExitCode::Usage,
                         "'lower' is defined only for the gc-transition "
                         "bundle, not for '" +
                             Tag + "'");
  // A repeated setting may repeat its action, never contradict it.
  auto Earlier = Actions.find(Tag);
  if (Earlier != Actions.end() && Earlier->second != *A)
    return makeToolError(ExitCode::Usage,
                         "tag '" + Tag + "' given two actions: '" + Tag + "=" +
                             actionName(Earlier->second) + "' and '" + Setting +
                             "'");
  setAction(Tag, *A);
  return Error::success();
}

bool BundlePolicy::operator==(const BundlePolicy &Other) const {
  if (Scope != Other.Scope || Actions.size() != Other.Actions.size())
    return false;
  return all_of(Actions, [&](const auto &Entry) {
    auto It = Other.Actions.find(Entry.getKey());
    return It != Other.Actions.end() && It->getValue() == Entry.getValue();
  });
}

Expected<BundlePolicy> BundlePolicy::fromPassParameters(StringRef Params) {
  BundlePolicy Policy;
  SmallVector<StringRef, 4> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Setting : Settings) {
    if (Setting.consume_front("scope=")) {
      std::optional<BundleScope> S = parseScopeName(Setting);
      if (!S)
        return makeToolError(ExitCode::Usage, "unknown scope '" + Setting +
                                                  "' (expected ccalls or all)");
      Policy.Scope = *S;
      continue;
    }
    if (Error E = Policy.applySetting(unescapePassParameter(Setting)))
      return E;
  }
  return Policy;
}

namespace {
/// A tag as a setting's key: escaped, and a tag spelled as a keyword of
/// the parameters (`scope`) with its first letter escaped too, so that it
/// reads back as a tag.
std::string tagKey(StringRef Tag) {
  std::string Key = escapePassParameter(Tag);
  if (Tag == "scope")
    Key = "%73" + Key.substr(1);
  return Key;
}
} // namespace

std::string BundlePolicy::toPassParameters() const {
  std::vector<std::string> Settings;
  for (const auto &Entry : Actions)
    Settings.push_back(tagKey(Entry.getKey()) + "=" +
                       actionName(Entry.getValue()).str());
  llvm::sort(Settings);
  if (Scope == BundleScope::All)
    Settings.push_back("scope=all");
  return join(Settings, ";");
}

} // namespace irs
