//===- BundlePolicy.h - What to do with each operand bundle tag -*- C++ -*-===//
//
// The user's choice, per bundle tag, of keep / drop / stash / lower, and which
// call sites are touched at all. Shared by the command line (--bundle
// TAG=ACTION, --scope) and the opt plugin (pass parameters), so that both
// accept exactly the same spellings.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_BUNDLEPOLICY_H
#define IR_SANITIZE_SUPPORT_BUNDLEPOLICY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace irs {

/// The bundle tags this tool knows by name (BundleTags.def): JlRootsTag,
/// GCTransitionTag, ...
#define BUNDLE_TAG(Name, Spelling, DefaultAction, Enzyme, Lowers)              \
  inline constexpr llvm::StringLiteral Name##Tag = Spelling;
#include "ir-sanitize/Support/BundleTags.def"

/// What a policy does with a bundle (BundleTags.def: Keep, Drop, Stash,
/// Lower; Lower is defined only for the tags whose row says so).
enum class BundleAction {
#define BUNDLE_ACTION(Name, Spelling, PastTense, StillDone) Name,
#include "ir-sanitize/Support/BundleTags.def"
};

/// What is known of Enzyme and a bundle tag without asking a plugin (what
/// `check` reports against when it is given none; BundleTags.def).
enum class KnownEnzymeSupport {
#define ENZYME_SUPPORT(Name, Blocking, Verdict, Reason) Name,
#include "ir-sanitize/Support/BundleTags.def"
};

/// One row of BundleTags.def's tag table.
struct BundleTagInfo {
  llvm::StringRef Tag; ///< Empty for the row of the tags not listed.
  BundleAction DefaultAction;
  KnownEnzymeSupport Enzyme;
  bool Lowers; ///< Whether `lower` is defined for the tag.
};
/// The row of \p Tag, or the row of every tag not listed.
const BundleTagInfo &bundleTagInfo(llvm::StringRef Tag);
/// The tags listed by name, in table order.
llvm::ArrayRef<BundleTagInfo> knownBundleTags();

/// The row of BundleTags.def's Enzyme table.
struct EnzymeSupportInfo {
  bool Blocking;
  llvm::StringRef Verdict; ///< "accepted" or "rejected".
  llvm::StringRef Reason;
};
const EnzymeSupportInfo &enzymeSupportInfo(KnownEnzymeSupport S);
inline KnownEnzymeSupport knownEnzymeSupport(llvm::StringRef Tag) {
  return bundleTagInfo(Tag).Enzyme;
}

enum class BundleScope {
  CCalls, ///< Every call and invoke except calls to LLVM intrinsics.
  All,    ///< Intrinsic calls too.
};

/// Every action, in BundleTags.def's order (least change first).
llvm::ArrayRef<BundleAction> bundleActions();
llvm::StringRef actionName(BundleAction A);
/// "lowered", "stashed", ...
llvm::StringRef actionPastTense(BundleAction A);
/// What `check` says the default rewrite still does to an accepted bundle
/// ("stashes it (...)"); empty for keep.
llvm::StringRef actionStillDone(BundleAction A);
/// The action words joined: "keep|drop|stash|lower" with \p Sep "|", or
/// "keep, drop, stash or lower" with \p Last " or ".
std::string actionNameList(llvm::StringRef Sep, llvm::StringRef Last);
std::optional<BundleAction> parseActionName(llvm::StringRef Name);
/// The default policy in words: "jl_roots=keep, gc-transition=lower,
/// others stash" (a listed tag whose default is the others' is not named).
std::string defaultActionsDescription();
llvm::StringRef scopeName(BundleScope S);
std::optional<BundleScope> parseScopeName(llvm::StringRef Name);

/// Per-tag actions over the defaults of BundleTags.def (jl_roots=keep,
/// gc-transition=lower, every other tag stash).
class BundlePolicy {
public:
  BundleAction actionFor(llvm::StringRef Tag) const;
  /// Sets (or, unlike applySetting, overrides) the action for \p Tag.
  void setAction(llvm::StringRef Tag, BundleAction A) { Actions[Tag] = A; }

  /// Parses "TAG=ACTION" and applies it. Errors (unknown action, lower on a
  /// tag whose row does not define it, empty tag, a tag already given another
  /// action) are ToolErrors with ExitCode::Usage whose messages name
  /// the setting, never the option or parameter it came from.
  llvm::Error applySetting(llvm::StringRef Setting);

  /// Parses opt pass parameters: ';'-separated "scope=ccalls|all" and
  /// "TAG=ACTION" settings, e.g. "gc-transition=stash;scope=all".
  static llvm::Expected<BundlePolicy>
  fromPassParameters(llvm::StringRef Params);
  /// What fromPassParameters reads back as this policy, for any tags: the
  /// settings in tag order (each tag escaped, escapePassParameter; `scope`
  /// as `%73cope`), then "scope=all" when that is the scope; empty for the
  /// defaults.
  std::string toPassParameters() const;

  /// The same scope and the same actions for the same tags.
  bool operator==(const BundlePolicy &Other) const;
  bool operator!=(const BundlePolicy &Other) const { return !(*this == Other); }

  BundleScope Scope = BundleScope::CCalls;

private:
  llvm::StringMap<BundleAction> Actions;
};

} // namespace irs

#endif
