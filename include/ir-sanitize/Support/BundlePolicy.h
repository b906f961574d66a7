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

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace irs {

/// The bundle tags this tool knows by name.
inline constexpr llvm::StringLiteral JlRootsTag = "jl_roots";
inline constexpr llvm::StringLiteral GCTransitionTag = "gc-transition";

enum class BundleAction {
  Keep,  ///< Leave the bundle on the call.
  Drop,  ///< Remove it; recorded nowhere (reports still count it).
  Stash, ///< Remove it and record it on the call for `restore`.
  Lower, ///< gc-transition only: rewrite into jl_gc_safe_enter/leave calls.
};

enum class BundleScope {
  CCalls, ///< Every call and invoke except calls to LLVM intrinsics.
  All,    ///< Intrinsic calls too.
};

llvm::StringRef actionName(BundleAction A);
std::optional<BundleAction> parseActionName(llvm::StringRef Name);
llvm::StringRef scopeName(BundleScope S);
std::optional<BundleScope> parseScopeName(llvm::StringRef Name);

/// Per-tag actions over the defaults: jl_roots=keep, gc-transition=lower,
/// every other tag stash.
class BundlePolicy {
public:
  BundleAction actionFor(llvm::StringRef Tag) const;
  /// Sets (or, unlike applySetting, overrides) the action for \p Tag.
  void setAction(llvm::StringRef Tag, BundleAction A) { Actions[Tag] = A; }

  /// Parses "TAG=ACTION" and applies it. Errors (unknown action, lower on a
  /// tag other than gc-transition, empty tag, a tag already given another
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
