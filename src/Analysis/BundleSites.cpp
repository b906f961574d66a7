//===- BundleSites.cpp - Which call sites carry which bundles -------------===//
#include "ir-sanitize/Analysis/BundleSites.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"

using namespace llvm;

namespace irs {

static bool isCallInScope(const CallBase &CB, BundleScope Scope) {
  if (Scope == BundleScope::All)
    return true;
  const Function *Callee = CB.getCalledFunction();
  return !(Callee && Callee->isIntrinsic());
}

std::string BundleShape::key() const {
  std::string Key;
  raw_string_ostream OS(Key);
  OS << '"';
  printEscapedString(Tag, OS);
  OS << "\"(" << join(OperandTypes, ", ") << ")";
  return Key;
}

namespace {

std::string printed(const Type &Ty, bool Definition) {
  std::string S;
  raw_string_ostream OS(S);
  Ty.print(OS, /*IsForDebug=*/false, /*NoDetails=*/!Definition);
  return S;
}

/// Adds the definitions of the named structs \p Ty uses to \p S, once each.
void addTypeDefinitions(Type *Ty, BundleShape &S,
                        SmallPtrSetImpl<Type *> &Seen) {
  if (!Seen.insert(Ty).second)
    return;
  if (auto *ST = dyn_cast<StructType>(Ty); ST && !ST->isLiteral())
    S.TypeDefinitions.push_back(printed(*ST, /*Definition=*/true));
  for (Type *Sub : Ty->subtypes())
    addTypeDefinitions(Sub, S, Seen);
}

/// Whether a constant of \p Ty can be written in a module of its own.
bool hasNullConstant(Type *Ty) {
  if (Ty->isTokenTy() || Ty->isIntOrIntVectorTy() || Ty->isFPOrFPVectorTy() ||
      Ty->isPtrOrPtrVectorTy())
    return true;
  if (auto *ST = dyn_cast<StructType>(Ty))
    return !ST->isOpaque() && all_of(ST->elements(), hasNullConstant);
  if (auto *AT = dyn_cast<ArrayType>(Ty))
    return hasNullConstant(AT->getElementType());
  return false;
}

} // namespace

BundleShape bundleShapeOf(const OperandBundleUse &B, const Module &M) {
  BundleShape S;
  S.Tag = B.getTagName().str();
  SmallPtrSet<Type *, 8> Seen, Operand;
  for (const Use &U : B.Inputs) {
    Type *Ty = U->getType();
    // Enzyme treats a bundle's operands one by one, by type: one of each
    // type asks the same question (and jl_roots of 1..N roots is one shape).
    if (!Operand.insert(Ty).second)
      continue;
    S.OperandTypes.push_back(printed(*Ty, /*Definition=*/false));
    if (!hasNullConstant(Ty)) {
      S.Unprobeable = "operand type " + S.OperandTypes.back() +
                      " has no constant to probe with";
      continue;
    }
    std::string Op;
    raw_string_ostream OS(Op);
    Constant::getNullValue(Ty)->printAsOperand(OS, /*PrintType=*/true, &M);
    S.Operands.push_back(std::move(Op));
    addTypeDefinitions(Ty, S, Seen);
  }
  return S;
}

std::vector<BundleShape> bundleShapesIn(Module &M, BundleScope Scope) {
  std::vector<BundleShape> Shapes;
  StringMap<size_t> Index;
  for (Function &F : M)
    for (CallBase *CB : bundledCalls(F, Scope))
      for (unsigned I = 0, E = CB->getNumOperandBundles(); I != E; ++I) {
        BundleShape S = bundleShapeOf(CB->getOperandBundleAt(I), M);
        auto [It, New] = Index.try_emplace(S.key(), Shapes.size());
        if (New)
          Shapes.push_back(std::move(S));
        ++Shapes[It->second].CallSites;
      }
  return Shapes;
}

std::string calleeName(const CallBase &CB) {
  const Value *Callee = CB.getCalledOperand()->stripPointerCasts();
  if (const auto *F = dyn_cast<Function>(Callee))
    return F->getName().str();
  if (const auto *GA = dyn_cast<GlobalAlias>(Callee))
    return GA->getName().str();
  return "<indirect>";
}

SourceLocation sourceLocation(const Instruction &I) {
  const DebugLoc &DL = I.getDebugLoc();
  if (!DL)
    return {};
  return {cast<DIScope>(DL.getScope())->getFilename(), DL.getLine(),
          DL.getCol()};
}

SmallVector<CallBase *, 8> bundledCalls(Function &F, BundleScope Scope) {
  SmallVector<CallBase *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CB = dyn_cast<CallBase>(&I))
      if (CB->hasOperandBundles() && isCallInScope(*CB, Scope))
        Calls.push_back(CB);
  return Calls;
}

} // namespace irs
