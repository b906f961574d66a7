//===- BundlePolicy.cpp - What to do with each operand bundle tag ---------===//
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <iterator>

using namespace llvm;

namespace irs {

namespace {

struct BundleActionInfo {
  BundleAction Action;
  StringLiteral Name, PastTense, StillDone;
};

constexpr BundleActionInfo ActionTable[] = {
#define BUNDLE_ACTION(Name, Spelling, PastTense, StillDone)                    \
  {BundleAction::Name, Spelling, PastTense, StillDone},
#include "ir-sanitize/Support/BundleTags.def"
};

constexpr BundleAction ActionOrder[] = {
#define BUNDLE_ACTION(Name, Spelling, PastTense, StillDone) BundleAction::Name,
#include "ir-sanitize/Support/BundleTags.def"
};

constexpr EnzymeSupportInfo EnzymeTable[] = {
#define ENZYME_SUPPORT(Name, Blocking, Verdict, Reason)                        \
  {Blocking, Verdict, Reason},
#include "ir-sanitize/Support/BundleTags.def"
};

const BundleTagInfo TagTable[] = {
#define BUNDLE_TAG(Name, Spelling, DefaultAction, Enzyme, Lowers)              \
  {Name##Tag, BundleAction::DefaultAction, KnownEnzymeSupport::Enzyme, Lowers},
#include "ir-sanitize/Support/BundleTags.def"
};

const BundleTagInfo OtherTags = {
#define OTHER_BUNDLE_TAGS(DefaultAction, Enzyme)                               \
  "", BundleAction::DefaultAction, KnownEnzymeSupport::Enzyme, false
#include "ir-sanitize/Support/BundleTags.def"
};

const BundleActionInfo &actionInfo(BundleAction A) {
  for (const BundleActionInfo &Info : ActionTable)
    if (Info.Action == A)
      return Info;
  llvm_unreachable("unknown bundle action");
}

} // namespace

const BundleTagInfo &bundleTagInfo(StringRef Tag) {
  for (const BundleTagInfo &Info : TagTable)
    if (Info.Tag == Tag)
      return Info;
  return OtherTags;
}

ArrayRef<BundleTagInfo> knownBundleTags() { return TagTable; }

const EnzymeSupportInfo &enzymeSupportInfo(KnownEnzymeSupport S) {
  return EnzymeTable[static_cast<size_t>(S)];
}

ArrayRef<BundleAction> bundleActions() { return ActionOrder; }

StringRef actionName(BundleAction A) { return actionInfo(A).Name; }

StringRef actionPastTense(BundleAction A) { return actionInfo(A).PastTense; }

StringRef actionStillDone(BundleAction A) { return actionInfo(A).StillDone; }

std::string actionNameList(StringRef Sep, StringRef Last) {
  std::string L;
  for (size_t I = 0, N = std::size(ActionTable); I < N; ++I)
    L += (I == 0       ? ""
          : I + 1 == N ? Last
                       : Sep)
             .str() +
         ActionTable[I].Name.str();
  return L;
}

std::optional<BundleAction> parseActionName(StringRef Name) {
  for (const BundleActionInfo &Info : ActionTable)
    if (Info.Name == Name)
      return Info.Action;
  return std::nullopt;
}

std::string defaultActionsDescription() {
  std::string D;
  for (const BundleTagInfo &Info : TagTable)
    if (Info.DefaultAction != OtherTags.DefaultAction)
      D += (Info.Tag + "=" + actionName(Info.DefaultAction) + ", ").str();
  return D + "others " + actionName(OtherTags.DefaultAction).str();
}

/// The tags `lower` is defined for: "the gc-transition bundle".
static std::string lowerableTags() {
  std::vector<std::string> Tags;
  for (const BundleTagInfo &Info : TagTable)
    if (Info.Lowers)
      Tags.push_back(Info.Tag.str());
  return "the " + join(Tags, ", ") +
         (Tags.size() == 1 ? " bundle" : " bundles");
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
  return bundleTagInfo(Tag).DefaultAction;
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
                             Tag + "' (expected " +
                             actionNameList(", ", " or ") + ")");
  if (*A == BundleAction::Lower && !bundleTagInfo(Tag).Lowers)
    return makeToolError(ExitCode::Usage, "'lower' is defined only for " +
                                              lowerableTags() + ", not for '" +
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
