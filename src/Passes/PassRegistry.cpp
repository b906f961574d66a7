//===- PassRegistry.cpp - Pipelines from text, as opt builds them ---------===//
#include "ir-sanitize/Passes/PassRegistry.h"

#include "ir-sanitize/Support/AnalysisManagers.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/Diagnostics.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/PassParameters.h"
#include "ir-sanitize/Transforms/AccumulationAggregation.h"
#include "ir-sanitize/Transforms/AccumulationMerging.h"
#include "ir-sanitize/Transforms/AddDerivativeWrapper.h"
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/EnzymeSlice.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/IntegerPointerArguments.h"
#include "ir-sanitize/Transforms/InvariantDivision.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/NVPTXLibdevice.h"
#include "ir-sanitize/Transforms/NVPTXPrepare.h"
#include "ir-sanitize/Transforms/NoAliasVersioning.h"
#include "ir-sanitize/Transforms/PassResults.h"
#include "ir-sanitize/Transforms/SharedTileForwarding.h"
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"
#include "ir-sanitize/Transforms/WarpShuffleRules.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;

namespace irs {

namespace {

Error paramError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The parameters of `PassName` or `PassName<PARAMS>`; none if \p Name is
/// another pass (PassBuilder::checkParametrizedPassName, which LLVM 16 lacks).
std::optional<StringRef> passParameters(StringRef Name, StringRef PassName) {
  if (!Name.consume_front(PassName))
    return std::nullopt;
  if (Name.empty())
    return Name;
  if (!Name.consume_front("<") || !Name.consume_back(">"))
    return std::nullopt;
  return Name;
}

/// `reassociate-fp` or nothing.
Expected<bool> parseReassociateParams(StringRef Params) {
  if (!Params.empty() && Params != "reassociate-fp")
    return paramError("unknown parameter '" + Params +
                      "' (expected reassociate-fp)");
  return !Params.empty();
}

struct GridStrideParams {
  bool ReassociateFP = false;
  unsigned ThreadsPerMultiprocessor = 0;
};

Expected<GridStrideParams> parseGridStrideParams(StringRef Params) {
  GridStrideParams P;
  SmallVector<StringRef, 2> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef S : Settings) {
    StringRef Threads = S;
    if (Threads.consume_front("threads-per-multiprocessor=") &&
        !Threads.getAsInteger(10, P.ThreadsPerMultiprocessor))
      continue;
    if (S != "reassociate-fp")
      return paramError("unknown parameter '" + S +
                        "' (expected reassociate-fp)");
    P.ReassociateFP = true;
  }
  return P;
}

/// `kernel=NAME` (repeatable, %XX-escaped) and `manifest=FILE`.
Expected<KernelSplatPass> parseSplatParams(StringRef Params) {
  SplatOptions Opts;
  std::string ManifestPath;
  while (!Params.empty()) {
    StringRef Param;
    std::tie(Param, Params) = Params.split(';');
    auto [Key, Value] = Param.split('=');
    if (Key == "kernel" && !Value.empty())
      Opts.Kernels.push_back(unescapePassParameter(Value));
    else if (Key == "manifest" && !Value.empty())
      ManifestPath = unescapePassParameter(Value);
    else
      return paramError("invalid ir-sanitize-splat parameter '" + Param +
                        "' (expected kernel=NAME or manifest=FILE)");
  }
  return KernelSplatPass(std::move(Opts), std::move(ManifestPath));
}

struct NVPTXPrepareParams {
  std::vector<std::string> Kernels;
  std::string DataLayout;
};

/// `kernel=NAME` (repeatable) and `datalayout=DL`, %XX-escaped.
Expected<NVPTXPrepareParams> parseNVPTXPrepareParams(StringRef Params) {
  NVPTXPrepareParams P;
  SmallVector<StringRef, 2> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef S : Settings) {
    if (S.consume_front("datalayout=")) {
      if (S.empty())
        return paramError("invalid parameter 'datalayout=' (expected "
                          "datalayout=DL)");
      P.DataLayout = unescapePassParameter(S);
      // Module::setDataLayout aborts on a layout that does not parse.
      if (Expected<DataLayout> DL = DataLayout::parse(P.DataLayout); !DL)
        return paramError("invalid datalayout: " + toString(DL.takeError()));
      continue;
    }
    if (!S.consume_front("kernel=") || S.empty())
      return paramError("invalid parameter '" + S +
                        "' (expected kernel=NAME or datalayout=DL)");
    P.Kernels.push_back(unescapePassParameter(S));
  }
  return P;
}

/// `path=FILE` (%XX-escaped), or nothing.
Expected<std::string> parseNVPTXLibdeviceParams(StringRef Params) {
  if (Params.empty())
    return "";
  if (!Params.consume_front("path=") || Params.empty())
    return paramError("invalid parameter '" + Params +
                      "' (expected path=FILE)");
  return unescapePassParameter(Params);
}

struct IntegerPointerParams {
  std::string Kernel;
  std::vector<unsigned> Args;
};

/// `kernel=NAME` and `arg=N` (repeatable).
Expected<IntegerPointerParams> parseIntegerPointerParams(StringRef Params) {
  IntegerPointerParams P;
  SmallVector<StringRef, 4> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef S : Settings) {
    auto [Key, Value] = S.split('=');
    unsigned Arg;
    if (Key == "kernel" && !Value.empty())
      P.Kernel = unescapePassParameter(Value);
    else if (Key == "arg" && !Value.getAsInteger(10, Arg))
      P.Args.push_back(Arg);
    else
      return paramError("invalid parameter '" + S +
                        "' (expected kernel=NAME or arg=N)");
  }
  if (P.Kernel.empty())
    return paramError("kernel=NAME is required");
  return P;
}

/// `fn=NAME` (required) and `extent=P:E` (repeatable).
Expected<NoAliasVersionParams> parseNoAliasVersionParams(StringRef Params) {
  NoAliasVersionParams P;
  SmallVector<StringRef, 4> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef S : Settings) {
    auto [Key, Value] = S.split('=');
    auto [Ptr, Extent] = Value.split(':');
    unsigned PtrIndex, ExtentIndex;
    if (Key == "fn" && !Value.empty())
      P.Fn = unescapePassParameter(Value);
    else if (Key == "extent" && !Ptr.getAsInteger(10, PtrIndex) &&
             !Extent.getAsInteger(10, ExtentIndex))
      P.Extents.push_back({PtrIndex, ExtentIndex});
    else
      return paramError("invalid parameter '" + S +
                        "' (expected fn=NAME or extent=P:E)");
  }
  if (P.Fn.empty())
    return paramError("fn=NAME is required");
  return P;
}

struct DerivativeWrapperParams {
  std::string Fn;
  DiffMode Mode = DiffMode::Forward;
  ActivityMap Activities;
};

/// `fn=NAME`, `mode=forward|reverse` and `activity=A.A...` (all required).
Expected<DerivativeWrapperParams>
parseDerivativeWrapperParams(StringRef Params) {
  DerivativeWrapperParams P;
  bool HasMode = false, HasActivity = false;
  SmallVector<StringRef, 4> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef S : Settings) {
    auto [Key, Value] = S.split('=');
    std::optional<DiffMode> Mode = parseDiffMode(Value);
    if (Key == "fn" && !Value.empty()) {
      P.Fn = unescapePassParameter(Value);
    } else if (Key == "mode" && Mode) {
      P.Mode = *Mode;
      HasMode = true;
    } else if (Key == "activity") {
      SmallVector<StringRef, 16> Names; // none: a function without parameters
      Value.split(Names, '.', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
      for (StringRef Name : Names) {
        std::optional<Activity> A = parseActivity(Name);
        if (!A)
          return paramError("unknown activity '" + Name +
                            "' (expected const, dup, dupnoneed or out)");
        P.Activities.push_back(*A);
      }
      HasActivity = true;
    } else {
      return paramError("invalid parameter '" + S +
                        "' (expected fn=NAME, mode=forward|reverse or "
                        "activity=A.A...)");
    }
  }
  if (P.Fn.empty() || !HasMode || !HasActivity)
    return paramError("fn=NAME, mode=forward|reverse and activity=A.A... are "
                      "required");
  return P;
}

} // namespace

namespace {

/// Whether \p Name is \p PassName (with parameters \p Parse accepts): then
/// true when the pass went into \p PM, false when a parameter is invalid
/// (reported to \p Diags).
template <typename PassManagerT, typename ParserT, typename CreateT>
std::optional<bool> addParsed(StringRef Name, StringRef PassName,
                              PassManagerT &PM, ParserT Parse, CreateT Create,
                              DiagnosticHandler *Diags) {
  std::optional<StringRef> Params = passParameters(Name, PassName);
  if (!Params)
    return std::nullopt;
  auto Parsed = Parse(*Params);
  if (!Parsed) {
    std::string Msg = toString(Parsed.takeError());
    if (Diags)
      Diags->warning(PassName + ": " + Msg);
    return false;
  }
  PM.addPass(Create(std::move(*Parsed)));
  return true;
}

bool parseModulePass(StringRef Name, ModulePassManager &MPM,
                     DiagnosticHandler *Diags) {
#define MODULE_PASS(NAME, CLASS, CREATE_PASS, DESC)                            \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE_PASS);                                                  \
    return true;                                                               \
  }
#define MODULE_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,      \
                                DESC)                                          \
  if (std::optional<bool> Added =                                              \
          addParsed(Name, NAME, MPM, PARSER, CREATE_PASS, Diags))              \
    return *Added;
#include "ir-sanitize/Passes/PassRegistry.def"
  return false;
}

bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM,
                       DiagnosticHandler *Diags) {
#define FUNCTION_PASS(NAME, CLASS, CREATE_PASS, DESC)                          \
  if (Name == NAME) {                                                          \
    FPM.addPass(CREATE_PASS);                                                  \
    return true;                                                               \
  }
#define FUNCTION_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,    \
                                  DESC)                                        \
  if (std::optional<bool> Added =                                              \
          addParsed(Name, NAME, FPM, PARSER, CREATE_PASS, Diags))              \
    return *Added;
#include "ir-sanitize/Passes/PassRegistry.def"
  return false;
}

/// Maps each pass class to its pipeline name, as PassBuilder maps LLVM's.
void addClassNames(PassInstrumentationCallbacks &PIC) {
#define MODULE_PASS(NAME, CLASS, CREATE_PASS, DESC)                            \
  PIC.addClassToPassName(CLASS::name(), NAME);
#define MODULE_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,      \
                                DESC)                                          \
  PIC.addClassToPassName(CLASS::name(), NAME);
#define FUNCTION_PASS(NAME, CLASS, CREATE_PASS, DESC)                          \
  PIC.addClassToPassName(CLASS::name(), NAME);
#define FUNCTION_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,    \
                                  DESC)                                        \
  PIC.addClassToPassName(CLASS::name(), NAME);
#include "ir-sanitize/Passes/PassRegistry.def"
}

} // namespace

void registerIRSanitizePasses(PassBuilder &PB, PassResults *Results,
                              DiagnosticHandler *ParameterDiags) {
  if (PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks())
    addClassNames(*PIC);
  // The first registration of an analysis counts: a runner that registers
  // its store before PassBuilder::registerModuleAnalyses keeps it.
  PB.registerAnalysisRegistrationCallback(
      [Results](ModuleAnalysisManager &MAM) {
        MAM.registerPass([Results] { return PassResultsAnalysis(Results); });
      });
  PB.registerPipelineParsingCallback(
      [ParameterDiags](StringRef Name, ModulePassManager &MPM,
                       ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePass(Name, MPM, ParameterDiags);
      });
  PB.registerPipelineParsingCallback(
      [ParameterDiags](StringRef Name, FunctionPassManager &FPM,
                       ArrayRef<PassBuilder::PipelineElement>) {
        return parseFunctionPass(Name, FPM, ParameterDiags);
      });
}

const std::vector<RegisteredPass> &registeredPasses() {
  static const std::vector<RegisteredPass> Passes = {
#define MODULE_PASS(NAME, CLASS, CREATE_PASS, DESC) {NAME, "module", "", DESC},
#define MODULE_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,      \
                                DESC)                                          \
  {NAME, "module", PARAMS, DESC},
#define FUNCTION_PASS(NAME, CLASS, CREATE_PASS, DESC)                          \
  {NAME, "function", "", DESC},
#define FUNCTION_PASS_WITH_PARAMS(NAME, CLASS, CREATE_PASS, PARSER, PARAMS,    \
                                  DESC)                                        \
  {NAME, "function", PARAMS, DESC},
#include "ir-sanitize/Passes/PassRegistry.def"
  };
  return Passes;
}

void printRegisteredPasses(raw_ostream &OS) {
  for (StringRef Unit : {"module", "function"}) {
    for (bool WithParams : {false, true}) {
      OS << (Unit == "module" ? "Module" : "Function") << " passes"
         << (WithParams ? " with params" : "") << ":\n";
      for (const RegisteredPass &P : registeredPasses()) {
        bool HasParams = *P.Params != '\0';
        if (P.Unit != Unit || HasParams != WithParams)
          continue;
        OS << "  " << P.Name;
        if (WithParams)
          OS << '<' << P.Params << '>';
        OS << " - " << P.Description << "\n";
      }
    }
  }
}

namespace {

/// The pipeline names of LLVM's pass classes, found as opt would know them
/// (compat::PassBuilderNamesLLVMPasses): each name PassBuilder lists is
/// parsed alone and printed, and the one class name the printer asks to
/// map is that name's class. Made once, when first needed.
const StringMap<std::string> &llvmPassNames() {
  static const StringMap<std::string> Names = [] {
    StringMap<std::string> Map;
    PassBuilder PB;
    std::string Listed;
    raw_string_ostream LS(Listed);
    PB.printPassNames(LS);
    // "  NAME" or "  NAME<PARAMS>" under headings such as "Loop passes:".
    StringRef Wrap;
    SmallVector<StringRef, 512> Lines;
    StringRef(LS.str()).split(Lines, '\n');
    for (StringRef Line : Lines) {
      if (!Line.starts_with("  ")) {
        Wrap = Line.starts_with("Function passes") ? "function("
               : Line.starts_with("Loop passes")   ? "function(loop("
               : Line.starts_with("LoopNest")      ? "function(loop("
               : Line.starts_with("CGSCC passes")  ? "cgscc("
               : Line.starts_with("Module passes") ? ""
                                                   : "-";
        continue;
      }
      StringRef Name = Line.trim().split('<').first;
      if (Wrap == "-" || Name.empty())
        continue;
      std::string Text =
          Wrap.str() + Name.str() + std::string(count(Wrap, '('), ')');
      ModulePassManager MPM;
      if (Error E = PB.parsePassPipeline(MPM, Text)) {
        consumeError(std::move(E));
        continue;
      }
      SmallVector<std::string, 1> Classes;
      std::string Ignored;
      raw_string_ostream OS(Ignored);
      MPM.printPipeline(OS, [&](StringRef Class) {
        Classes.push_back(Class.str());
        return Class;
      });
      if (Classes.size() != 1 || Classes[0] == Name)
        continue;
      // Only a name that prints back as itself: LLVM 16's module pass
      // inliner-wrapper-no-mandatory-first asks for its nested InlinerPass
      // too, which is cgscc(inline), and is listed first.
      std::string Again;
      raw_string_ostream AS(Again);
      MPM.printPipeline(AS, [&](StringRef) { return Name; });
      if (StringRef(AS.str()).starts_with(
              Text.substr(0, Text.size() - count(Wrap, '('))))
        Map.try_emplace(Classes[0], Name.str());
    }
    return Map;
  }();
  return Names;
}

} // namespace

static std::string pipelineText(ModulePassManager &MPM,
                                PassInstrumentationCallbacks &PIC) {
  std::string Text;
  raw_string_ostream OS(Text);
  MPM.printPipeline(OS, [&PIC](StringRef ClassName) -> StringRef {
    StringRef PassName = PIC.getPassNameForClassName(ClassName);
    if (!PassName.empty() || compat::PassBuilderNamesLLVMPasses)
      return PassName.empty() ? ClassName : PassName;
    auto It = llvmPassNames().find(ClassName);
    return It == llvmPassNames().end() ? ClassName : StringRef(It->second);
  });
  return Text;
}

namespace {
/// \p PB with the project's passes registered, before the analysis managers
/// register theirs (the first registration of PassResultsAnalysis counts).
PassBuilder &withIRSanitizePasses(PassBuilder &PB, PassResults &Results) {
  registerIRSanitizePasses(PB, &Results);
  return PB;
}
} // namespace

struct Pipeline::Parts {
  PassResults Local; // when the caller gives no store
  PassResults &Results;
  PassInstrumentationCallbacks PIC;
  PassBuilder PB;
  AnalysisManagers AM;
  ModulePassManager MPM;

  Parts(PassResults *Given, TargetMachine *TM)
      : Results(Given ? *Given : Local),
        PB(TM, PipelineTuningOptions(), std::nullopt, &PIC),
        AM(withIRSanitizePasses(PB, Results)) {}
};

Pipeline::Pipeline(std::unique_ptr<Parts> P) : P(std::move(P)) {}
Pipeline::~Pipeline() = default;

Expected<std::unique_ptr<Pipeline>>
Pipeline::parse(StringRef Text, PassResults *Results, TargetMachine *TM) {
  auto P = std::make_unique<Parts>(Results, TM);
  if (Error E = P->PB.parsePassPipeline(P->MPM, Text))
    return E;
  return std::unique_ptr<Pipeline>(new Pipeline(std::move(P)));
}

std::string Pipeline::text() { return pipelineText(P->MPM, P->PIC); }

Error Pipeline::run(Module &M) {
  // Cached before the run: function passes see cached module analyses only.
  P->AM.MAM.getResult<PassResultsAnalysis>(M);
  P->MPM.run(M, P->AM.MAM);
  return P->Results.takeFailure();
}

Expected<std::string> printedPipeline(StringRef Text, TargetMachine *TM) {
  Expected<std::unique_ptr<Pipeline>> P = Pipeline::parse(Text, nullptr, TM);
  if (!P)
    return P.takeError();
  return (*P)->text();
}

Error runPipeline(Module &M, StringRef Text, PassResults *Results,
                  TargetMachine *TM) {
  Expected<std::unique_ptr<Pipeline>> P = Pipeline::parse(Text, Results, TM);
  if (!P)
    return P.takeError();
  return (*P)->run(M);
}

} // namespace irs
