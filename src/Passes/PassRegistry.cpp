//===- PassRegistry.cpp - Pipelines from text, as opt builds them ---------===//
#include "ir-sanitize/Passes/PassRegistry.h"

#include "ir-sanitize/Support/AnalysisManagers.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Transforms/AccumulationMerging.h"
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/BundleRestore.h"
#include "ir-sanitize/Transforms/GridStrideCoarsening.h"
#include "ir-sanitize/Transforms/IntegerPointerArguments.h"
#include "ir-sanitize/Transforms/InvariantDivision.h"
#include "ir-sanitize/Transforms/KernelSplat.h"
#include "ir-sanitize/Transforms/NVPTXPrepare.h"
#include "ir-sanitize/Transforms/StoreSinkVersioning.h"

#include "llvm/ADT/StringExtras.h"
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
Expected<bool> parseMergeParams(StringRef Params) {
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

} // namespace

std::string escapePassParameter(StringRef Value) {
  std::string Out;
  for (char C : Value) {
    if (StringRef(",;<>()=% \t\n").contains(C)) {
      Out += '%';
      Out += hexdigit((C >> 4) & 0xF);
      Out += hexdigit(C & 0xF);
    } else {
      Out += C;
    }
  }
  return Out;
}

std::string unescapePassParameter(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned Hi, Lo;
    if (Text[I] == '%' && I + 2 < Text.size() &&
        (Hi = hexDigitValue(Text[I + 1])) != -1U &&
        (Lo = hexDigitValue(Text[I + 2])) != -1U) {
      Out += static_cast<char>(Hi * 16 + Lo);
      I += 2;
    } else {
      Out += Text[I];
    }
  }
  return Out;
}

namespace {

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

/// `kernel=NAME` (repeatable, %XX-escaped).
Expected<std::vector<std::string>> parseNVPTXPrepareParams(StringRef Params) {
  std::vector<std::string> Kernels;
  SmallVector<StringRef, 2> Settings;
  Params.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef S : Settings) {
    if (!S.consume_front("kernel=") || S.empty())
      return paramError("invalid parameter '" + S + "' (expected kernel=NAME)");
    Kernels.push_back(unescapePassParameter(S));
  }
  return Kernels;
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
      SmallVector<StringRef, 16> Names;
      Value.split(Names, '.');
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
                     const PassSinks &Sinks) {
#define MODULE_PASS(NAME, CREATE_PASS, DESC)                                   \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE_PASS);                                                  \
    return true;                                                               \
  }
#define MODULE_PASS_WITH_PARAMS(NAME, CREATE_PASS, PARSER, PARAMS, DESC)       \
  if (std::optional<bool> Added =                                              \
          addParsed(Name, NAME, MPM, PARSER, CREATE_PASS, Sinks.Diags))        \
    return *Added;
#include "ir-sanitize/Passes/PassRegistry.def"
  return false;
}

bool parseFunctionPass(StringRef Name, FunctionPassManager &FPM,
                       const PassSinks &Sinks) {
#define FUNCTION_PASS(NAME, CREATE_PASS, DESC)                                 \
  if (Name == NAME) {                                                          \
    FPM.addPass(CREATE_PASS);                                                  \
    return true;                                                               \
  }
#define FUNCTION_PASS_WITH_PARAMS(NAME, CREATE_PASS, PARSER, PARAMS, DESC)     \
  if (std::optional<bool> Added =                                              \
          addParsed(Name, NAME, FPM, PARSER, CREATE_PASS, Sinks.Diags))        \
    return *Added;
#include "ir-sanitize/Passes/PassRegistry.def"
  return false;
}

} // namespace

void registerIRSanitizePasses(PassBuilder &PB, const PassSinks &Given) {
  PassSinks Sinks = Given;
  if (!Sinks.Splat.Diags)
    Sinks.Splat.Diags = Sinks.Diags;
  PB.registerPipelineParsingCallback(
      [Sinks](StringRef Name, ModulePassManager &MPM,
              ArrayRef<PassBuilder::PipelineElement>) {
        return parseModulePass(Name, MPM, Sinks);
      });
  PB.registerPipelineParsingCallback(
      [Sinks](StringRef Name, FunctionPassManager &FPM,
              ArrayRef<PassBuilder::PipelineElement>) {
        return parseFunctionPass(Name, FPM, Sinks);
      });
}

const std::vector<RegisteredPass> &registeredPasses() {
  static const std::vector<RegisteredPass> Passes = {
#define MODULE_PASS(NAME, CREATE_PASS, DESC) {NAME, "module", "", DESC},
#define MODULE_PASS_WITH_PARAMS(NAME, CREATE_PASS, PARSER, PARAMS, DESC)       \
  {NAME, "module", PARAMS, DESC},
#define FUNCTION_PASS(NAME, CREATE_PASS, DESC) {NAME, "function", "", DESC},
#define FUNCTION_PASS_WITH_PARAMS(NAME, CREATE_PASS, PARSER, PARAMS, DESC)     \
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

Error runPipeline(Module &M, StringRef Text, const PassSinks &Sinks,
                  TargetMachine *TM) {
  PassBuilder PB(TM);
  registerIRSanitizePasses(PB, Sinks);
  AnalysisManagers AM(PB);
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, Text))
    return E;
  MPM.run(M, AM.MAM);
  return Error::success();
}

} // namespace irs
