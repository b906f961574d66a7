//===- ActivitySpec.cpp - Which parameters Enzyme differentiates ----------===//
#include "ir-sanitize/Analysis/ActivitySpec.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs {

StringRef activityName(Activity A) {
  switch (A) {
  case Activity::Const:
    return "const";
  case Activity::Dup:
    return "dup";
  case Activity::DupNoNeed:
    return "dupnoneed";
  case Activity::Out:
    return "out";
  }
  llvm_unreachable("unknown activity");
}

StringRef activityMarker(Activity A) {
  switch (A) {
  case Activity::Const:
    return "enzyme_const";
  case Activity::Dup:
    return "enzyme_dup";
  case Activity::DupNoNeed:
    return "enzyme_dupnoneed";
  case Activity::Out:
    return "enzyme_out";
  }
  llvm_unreachable("unknown activity");
}

std::optional<Activity> parseActivity(StringRef Name) {
  for (Activity A :
       {Activity::Const, Activity::Dup, Activity::DupNoNeed, Activity::Out})
    if (Name == activityName(A))
      return A;
  return std::nullopt;
}

std::optional<DiffMode> parseDiffMode(StringRef Name) {
  if (Name == "forward" || Name == "fwd")
    return DiffMode::Forward;
  if (Name == "reverse" || Name == "rev")
    return DiffMode::Reverse;
  return std::nullopt;
}

StringRef diffModeName(DiffMode M) {
  return M == DiffMode::Forward ? "forward" : "reverse";
}

static Error usage(const Twine &Msg) {
  return makeToolError(ExitCode::Usage, Msg);
}

Expected<ActivitySpec> ActivitySpec::parse(ArrayRef<std::string> Items) {
  ActivitySpec Spec;
  for (StringRef Item : Items) {
    SmallVector<StringRef, 4> Parts;
    Item.split(Parts, ',', -1, /*KeepEmpty=*/false);
    for (StringRef Part : Parts) {
      auto [Key, Value] = Part.trim().split('=');
      Key = Key.trim();
      Value = Value.trim();
      if (Key.empty() || Value.empty())
        return usage("--activity: '" + Part.trim() +
                     "' is not KEY=ACTIVITY (e.g. 1=dup, default=const)");
      std::optional<Activity> A = parseActivity(Value);
      if (!A)
        return usage("--activity: unknown activity '" + Value + "' for '" +
                     Key + "' (expected dup, const, dupnoneed or out)");
      if (Key == "default")
        Spec.Default = *A;
      else
        Spec.Entries.push_back({Key.str(), *A});
    }
  }
  return Spec;
}

static Activity defaultActivity(Type *Ty, DiffMode Mode, bool IsKernel) {
  if (Ty->isPointerTy())
    return Activity::Dup;
  if (Ty->isFPOrFPVectorTy()) {
    if (Mode == DiffMode::Forward)
      return Activity::Dup;
    return IsKernel ? Activity::Const : Activity::Out;
  }
  // Integers, and aggregates Enzyme would have to shadow as a whole.
  return Activity::Const;
}

namespace {

/// The names a parameter answers to: its index, its IR name, and after a
/// splat its manifest path and leaf name.
struct ParamKeys {
  std::string Index;
  std::string IRName;
  std::string Path;
  std::string LeafName;
};

/// How specifically \p Key names \p Name: 0 not at all, 1 + depth for a
/// prefix at a '.' boundary, a large number for an exact match.
unsigned matchDepth(StringRef Key, StringRef Name) {
  if (Name.empty())
    return 0;
  if (Key == Name)
    return 1000;
  if (Name.starts_with(Key) && Name[Key.size()] == '.')
    return 1 + Key.count('.');
  return 0;
}

unsigned specificity(StringRef Key, const ParamKeys &P) {
  // A plain number is a parameter index, never a manifest path prefix.
  if (all_of(Key, isDigit))
    return Key == P.Index ? 1000 : 0;
  unsigned Best = 0;
  for (StringRef Name :
       {StringRef(P.Index), StringRef(P.IRName), StringRef(P.LeafName)})
    Best = std::max(Best, Key == Name ? 1000u : 0u);
  // Dotted names and manifest paths also cover the leaves below them.
  Best = std::max(Best, matchDepth(Key, P.IRName));
  Best = std::max(Best, matchDepth(Key, P.LeafName));
  Best = std::max(Best, matchDepth(Key, P.Path));
  return Best;
}

std::string describeParams(ArrayRef<ParamKeys> Params, const Function &Fn) {
  std::string S;
  raw_string_ostream OS(S);
  for (size_t I = 0; I < Params.size(); ++I) {
    const ParamKeys &P = Params[I];
    if (I)
      OS << ", ";
    OS << P.Index;
    if (!P.IRName.empty())
      OS << " %" << P.IRName;
    if (!P.Path.empty() && P.Path != P.Index)
      OS << " [" << P.Path << "]";
    if (!P.LeafName.empty() && P.LeafName != P.IRName)
      OS << " (" << P.LeafName << ")";
    OS << ": " << *Fn.getArg(I)->getType();
  }
  return OS.str();
}

} // namespace

Expected<ActivityMap> resolveActivities(const Function &Fn, DiffMode Mode,
                                        const ActivitySpec &Spec,
                                        const KernelManifest *Manifest,
                                        bool IsKernel) {
  std::vector<ParamKeys> Params;
  for (const Argument &A : Fn.args()) {
    ParamKeys P;
    P.Index = std::to_string(A.getArgNo());
    P.IRName = A.getName().str();
    if (Manifest)
      for (const ManifestParam &MP : Manifest->Params)
        if (MP.Index == A.getArgNo()) {
          P.Path = MP.pathString();
          P.LeafName = MP.Name;
        }
    Params.push_back(std::move(P));
  }

  ActivityMap Map;
  std::vector<unsigned> Best(Params.size(), 0);
  for (const Argument &A : Fn.args())
    Map.push_back(Spec.Default ? *Spec.Default
                               : defaultActivity(A.getType(), Mode, IsKernel));
  for (const ActivitySpec::Entry &E : Spec.Entries) {
    bool Matched = false;
    for (size_t I = 0; I < Params.size(); ++I) {
      unsigned S = specificity(E.Key, Params[I]);
      if (!S)
        continue;
      Matched = true;
      if (S >= Best[I]) {
        Best[I] = S;
        Map[I] = E.Act;
      }
    }
    if (!Matched)
      return usage("--activity: '" + E.Key + "' names no parameter of " +
                   Fn.getName() + "; it has " + describeParams(Params, Fn));
  }

  for (const Argument &A : Fn.args()) {
    if (Map[A.getArgNo()] != Activity::Out)
      continue;
    const char *Why = nullptr;
    if (Mode == DiffMode::Forward)
      Why = "forward mode has no 'out' arguments (use dup)";
    else if (IsKernel)
      Why = "a kernel cannot return gradients (use dup on a pointer)";
    else if (!A.getType()->isFPOrFPVectorTy() && !A.getType()->isStructTy() &&
             !A.getType()->isArrayTy())
      Why = "'out' is for active floating-point values passed by value";
    if (Why) {
      std::string Name = A.hasName() ? " (%" + A.getName().str() + ")" : "";
      return usage("--activity: parameter " + Twine(A.getArgNo()) + Name +
                   " of " + Fn.getName() + " cannot be 'out': " + Why);
    }
  }
  return Map;
}

} // namespace irs
