//===- AddDerivativeWrapper.cpp - An Enzyme wrapper as a pass -------------===//
#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"

#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Analysis/KernelInfo.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/PassResults.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

#define DEBUG_TYPE "ir-sanitize-derivative-wrapper"

// ALWAYS_ENABLED: release builds of LLVM (Debian's) make STATISTIC a no-op
// in code compiled against them (docs/DeveloperGuide.md, "Statistics").
ALWAYS_ENABLED_STATISTIC(NumWrappers, "Derivative wrappers added");
ALWAYS_ENABLED_STATISTIC(NumFailed, "Functions that could not be wrapped");

namespace irs {

namespace {

/// Attributes a wrapper parameter keeps from the primal one: what the caller
/// promises about the value, not what NAME promised about its own memory
/// accesses (the derivative writes shadows NAME only read).
AttributeSet wrapperParamAttrs(LLVMContext &Ctx, AttributeSet Primal) {
  AttrBuilder B(Ctx, Primal);
  for (Attribute::AttrKind K : {Attribute::ReadOnly, Attribute::ReadNone,
                                Attribute::WriteOnly, Attribute::Returned})
    B.removeAttribute(K);
  return AttributeSet::get(Ctx, B);
}

/// The internal copy Enzyme differentiates: a plain function, never a kernel
/// entry, so that the derivative is an ordinary call from the wrapper.
Function *makePrimalCopy(Function &Fn) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Fn, VMap);
  Copy->setName(primalCopyName(Fn.getName()));
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->setVisibility(GlobalValue::DefaultVisibility);
  Copy->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Copy->setComdat(nullptr);
  Copy->setCallingConv(CallingConv::C);
  return Copy;
}

Error usage(const Twine &Msg) { return makeToolError(ExitCode::Usage, Msg); }

Error checkRequest(const Module &M, const Function &Fn, DiffMode Mode,
                   const ActivityMap &Activities, StringRef Name) {
  if (Fn.isDeclaration())
    return usage(Fn.getName() + " has no body to differentiate");
  if (Fn.isVarArg())
    return usage(Fn.getName() + " takes variable arguments, which Enzyme "
                                "drivers cannot forward");
  if (Activities.size() != Fn.arg_size())
    return usage("activity list for " + Fn.getName() + " has " +
                 Twine(Activities.size()) + " entries, it has " +
                 Twine(Fn.arg_size()) + " parameters");
  if (Mode == DiffMode::Forward && is_contained(Activities, Activity::Out))
    return usage("a parameter of " + Fn.getName() +
                 " cannot be 'out' in forward mode");
  if (M.getNamedValue(Name))
    return usage("the module already has a global named " + Name);
  return Error::success();
}

/// Fills G.Params (each primal parameter, then its shadow where the activity
/// has one) and returns the wrapper's type: fwddiff returns the tangent of the
/// result, autodiff the gradients of the `out` arguments (one value, or a
/// struct of several).
FunctionType *wrapperType(const Function &Fn, DerivativeWrapper &G) {
  SmallVector<Type *, 16> ParamTys;
  SmallVector<Type *, 4> OutTys;
  for (const Argument &A : Fn.args()) {
    Activity Act = G.Activities[A.getArgNo()];
    if (Act == Activity::Out)
      OutTys.push_back(A.getType());
    ParamTys.push_back(A.getType());
    G.Params.push_back({A.getArgNo(), false});
    if (hasShadow(Act)) {
      ParamTys.push_back(A.getType());
      G.Params.push_back({A.getArgNo(), true});
    }
  }
  LLVMContext &Ctx = Fn.getContext();
  Type *RetTy = Fn.getReturnType();
  if (G.Mode == DiffMode::Reverse)
    RetTy = OutTys.empty()       ? Type::getVoidTy(Ctx)
            : OutTys.size() == 1 ? OutTys.front()
                                 : StructType::get(Ctx, OutTys);
  return FunctionType::get(RetTy, ParamTys, /*isVarArg=*/false);
}

/// Calling convention, function attributes, parameter attributes and names
/// from NAME; shadows are called "<name>.shadow".
void copySignatureDetails(const Function &Fn, const DerivativeWrapper &G) {
  LLVMContext &Ctx = Fn.getContext();
  Function &Wrapper = *G.Wrapper;
  Wrapper.setCallingConv(Fn.getCallingConv());
  AttrBuilder FnAttrs(Ctx, Fn.getAttributes().getFnAttrs());
  FnAttrs.removeAttribute(Attribute::Memory);
  Wrapper.addFnAttrs(FnAttrs);
  for (unsigned I = 0; I < G.Params.size(); ++I) {
    const WrapperParam &P = G.Params[I];
    AttributeSet Attrs = Fn.getAttributes().getParamAttrs(P.PrimalIndex);
    Wrapper.addParamAttrs(I, AttrBuilder(Ctx, wrapperParamAttrs(Ctx, Attrs)));
    // A kernel's parameters are the bytes its launch passes, never undef
    // or poison; saying so lets the optimiser drop the freezes Enzyme's
    // recomputation leaves and share what the primal computed.
    if (isKernel(Fn))
      Wrapper.addParamAttr(I, Attribute::NoUndef);
    const Argument *Orig = Fn.getArg(P.PrimalIndex);
    std::string Base = Orig->hasName() ? Orig->getName().str()
                                       : "arg" + std::to_string(P.PrimalIndex);
    Wrapper.getArg(I)->setName(P.IsShadow ? Base + ".shadow" : Base);
  }
}

/// The body: one __enzyme_* call on the copy with a marker per parameter.
void emitEnzymeCall(Module &M, const DerivativeWrapper &G) {
  LLVMContext &Ctx = M.getContext();
  Function &Wrapper = *G.Wrapper;
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", &Wrapper));
  SmallVector<Value *, 32> Args = {G.Primal};
  for (unsigned I = 0; I < G.Params.size(); ++I) {
    const WrapperParam &P = G.Params[I];
    if (!P.IsShadow)
      Args.push_back(MetadataAsValue::get(
          Ctx,
          MDString::get(Ctx, activityMarker(G.Activities[P.PrimalIndex]))));
    Args.push_back(Wrapper.getArg(I));
  }
  // Enzyme finds its entry points by name and takes the call's own type, so
  // one declaration serves calls of every return type.
  StringRef Entry =
      G.Mode == DiffMode::Forward ? "__enzyme_fwddiff" : "__enzyme_autodiff";
  Type *RetTy = Wrapper.getReturnType();
  FunctionType *EntryTy =
      FunctionType::get(RetTy, {G.Primal->getType()}, /*isVarArg=*/true);
  FunctionCallee Callee = M.getOrInsertFunction(Entry, EntryTy);
  CallInst *Call = B.CreateCall(EntryTy, Callee.getCallee(), Args);
  if (RetTy->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
}

} // namespace

Expected<DerivativeWrapper>
generateDerivativeWrapper(Module &M, Function &Fn, DiffMode Mode,
                          const ActivityMap &Activities) {
  std::string Name = wrapperName(Fn.getName(), Mode);
  if (Error E = checkRequest(M, Fn, Mode, Activities, Name))
    return E;
  DerivativeWrapper G;
  G.Mode = Mode;
  G.Activities = Activities;
  FunctionType *Ty = wrapperType(Fn, G);
  if (isKernel(Fn) && !Ty->getReturnType()->isVoidTy())
    return usage("a driver for kernel " + Fn.getName() +
                 " cannot return values; make scalar parameters const");

  G.Primal = makePrimalCopy(Fn);
  G.Wrapper = Function::Create(Ty, GlobalValue::ExternalLinkage, Name, M);
  copySignatureDetails(Fn, G);
  emitEnzymeCall(M, G);
  copyNVVMAnnotations(Fn, *G.Wrapper);
  return G;
}

namespace {

/// The names of \p Activities, \p Separator between them.
std::string activityList(const ActivityMap &Activities, StringRef Separator) {
  std::vector<std::string> Names;
  for (Activity A : Activities)
    Names.push_back(activityName(A).str());
  return join(Names, Separator);
}

} // namespace

PreservedAnalyses AddDerivativeWrapperPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  PassResults *Results = passResults(M, MAM);
  if (Results && Results->failed()) // an earlier wrapper failed
    return PreservedAnalyses::all();
  Function *F = M.getFunction(Fn);
  Expected<DerivativeWrapper> G =
      F ? generateDerivativeWrapper(M, *F, Mode, Activities)
        : Expected<DerivativeWrapper>(
              makeToolError(ExitCode::Usage, "no function named '" + Fn + "'"));
  if (!G) {
    ++NumFailed;
    reportPassFailure(M, Results, DEBUG_TYPE, G.takeError());
    return PreservedAnalyses::all();
  }
  ++NumWrappers;
  OptimizationRemarkEmitter ORE(F);
  ORE.emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Added", F)
           << "added " << ore::NV("Wrapper", G->Wrapper->getName())
           << ", which calls Enzyme on " << ore::NV("Function", F->getName())
           << " in " << ore::NV("Mode", diffModeName(Mode))
           << " mode with activities "
           << ore::NV("Activities", activityList(Activities, ", "));
  });
  if (Results)
    Results->get<std::vector<DerivativeWrapper>>().push_back(std::move(*G));
  return PreservedAnalyses::none();
}

void AddDerivativeWrapperPass::printPipeline(
    raw_ostream &OS, function_ref<StringRef(StringRef)> MapClassName2PassName) {
  static_cast<PassInfoMixin<AddDerivativeWrapperPass> *>(this)->printPipeline(
      OS, MapClassName2PassName);
  printPassParameters(OS, {"fn=" + escapePassParameter(Fn),
                           ("mode=" + diffModeName(Mode)).str(),
                           "activity=" + activityList(Activities, ".")});
}

} // namespace irs
