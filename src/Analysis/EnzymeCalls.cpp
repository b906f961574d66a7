//===- EnzymeCalls.cpp - Enzyme's entry points and wrapper names ----------===//
#include "ir-sanitize/Analysis/EnzymeCalls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace irs {
namespace {

constexpr const char *EnzymeEntryPoints[] = {
    "__enzyme_autodiff",   "__enzyme_fwddiff",  "__enzyme_reverse",
    "__enzyme_augmentfwd", "__enzyme_fwdsplit", "__enzyme_batch"};

} // namespace

bool isEnzymeEntryPoint(StringRef Name) {
  return any_of(EnzymeEntryPoints,
                [&](StringRef Entry) { return Name.starts_with(Entry); });
}

bool hasEnzymeCalls(const Module &M) {
  for (const Function &F : M)
    if (isEnzymeEntryPoint(F.getName()))
      for (const User *U : F.users())
        if (const auto *CB = dyn_cast<CallBase>(U))
          if (CB->getCalledOperand() == &F)
            return true;
  return false;
}

bool isRuleRegistration(const GlobalVariable &G) {
  return G.getName().starts_with(RegisterDerivativePrefix) ||
         G.getName().starts_with(RegisterGradientPrefix);
}

bool registersEnzymeRules(const Module &M) {
  return any_of(M.globals(), isRuleRegistration);
}

std::string primalCopyName(StringRef FnName) {
  return (FnName + ".primal").str();
}

std::string userFacingName(const Module &M, StringRef Name) {
  StringRef Base = Name;
  if (Base.consume_back(".primal"))
    if (const Function *F = M.getFunction(Base); F && !F->isDeclaration())
      return Base.str();
  return Name.str();
}

std::string wrapperName(StringRef FnName, DiffMode Mode) {
  return (FnName + (Mode == DiffMode::Forward ? ".fwd" : ".rev")).str();
}

} // namespace irs
