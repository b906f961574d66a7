//===- ActivitySpec.h - Which parameters Enzyme differentiates --*- C++ -*-===//
//
// `--activity` on the command line says, per parameter of the function being
// differentiated, how Enzyme treats it: by parameter index ("1=dup"), by leaf
// name ("bc.0.1=const"), by launch-manifest path after a splat ("2.0.1.0.0"),
// and a default ("default=const"). Names and paths also match every leaf
// below them; the most specific key wins, later keys win ties.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_ACTIVITYSPEC_H
#define IR_SANITIZE_ENZYME_ACTIVITYSPEC_H

#include "ir-sanitize/Support/LaunchManifest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace irs {

enum class DiffMode { Forward, Reverse };

/// Enzyme's argument activities (the `enzyme_*` markers;
/// docs/DerivativePasses.md).
enum class Activity {
  Const,     ///< Not differentiated.
  Dup,       ///< Followed by its shadow.
  DupNoNeed, ///< Shadow only; the primal result is not needed.
  Out,       ///< Reverse mode: an active scalar whose gradient is returned.
};

llvm::StringRef activityName(Activity A);   ///< "const", "dup", ...
llvm::StringRef activityMarker(Activity A); ///< "enzyme_const", ...
std::optional<Activity> parseActivity(llvm::StringRef Name);
std::optional<DiffMode> parseDiffMode(llvm::StringRef Name);
llvm::StringRef diffModeName(DiffMode M); ///< "forward" / "reverse"
/// Whether the derivative wrapper takes a shadow parameter for an argument with
/// \p A.
inline bool hasShadow(Activity A) {
  return A == Activity::Dup || A == Activity::DupNoNeed;
}

/// The parsed `--activity` items, not yet tied to a function.
struct ActivitySpec {
  struct Entry {
    std::string Key;
    Activity Act;
  };
  std::optional<Activity> Default;
  std::vector<Entry> Entries;

  /// Parses "KEY=ACT" items; an item may hold several, comma separated.
  /// Errors are usage errors (ExitCode::Usage).
  static llvm::Expected<ActivitySpec> parse(llvm::ArrayRef<std::string> Items);
};

/// One activity per parameter of the differentiated function.
using ActivityMap = std::vector<Activity>;

/// Resolves \p Spec against the parameters of \p Fn. \p Manifest, when \p Fn
/// is a splatted kernel, lets keys name manifest paths and leaf names.
/// Unknown keys and impossible activities (`out` in forward mode, on a
/// pointer, or on a kernel) are usage errors listing what exists.
llvm::Expected<ActivityMap> resolveActivities(const llvm::Function &Fn,
                                              DiffMode Mode,
                                              const ActivitySpec &Spec,
                                              const KernelManifest *Manifest,
                                              bool IsKernel);

} // namespace irs

#endif
