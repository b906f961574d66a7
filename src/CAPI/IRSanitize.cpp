//===- IRSanitize.cpp - The C interface (ir-sanitize-c/IRSanitize.h) ------===//
//
// Thin wrappers: each entry point checks its arguments, runs the driver's
// pipeline or one library entry point on the unwrapped module, verifies what it
// changed and hands back JSON. Errors become a status and a malloc'd message;
// nothing escapes as an exception, an abort or output.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize-c/IRSanitize.h"

#include "ir-sanitize/Config.h"
#include "ir-sanitize/Driver/Check.h"
#include "ir-sanitize/Driver/DerivativeAccesses.h"
#include "ir-sanitize/Driver/Restore.h"
#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace irs;

// IRSStatus stays plain C, so it spells its values out; they must be the
// exit codes of ExitCodes.def (fail() converts one into the other).
#define IRS_CHECK_STATUS(Name)                                                 \
  static_assert(IRSStatus##Name == static_cast<int>(ExitCode::Name),           \
                "IRSStatus" #Name " differs from ExitCodes.def")
IRS_CHECK_STATUS(Ok);
IRS_CHECK_STATUS(Findings);
IRS_CHECK_STATUS(Usage);
IRS_CHECK_STATUS(BadInput);
IRS_CHECK_STATUS(VerifierFailed);
#undef IRS_CHECK_STATUS

namespace {

/// A malloc'd copy, as IRSDisposeString frees.
char *copyString(StringRef S) {
  char *Copy = static_cast<char *>(std::malloc(S.size() + 1));
  if (!Copy)
    return nullptr;
  std::memcpy(Copy, S.data(), S.size());
  Copy[S.size()] = '\0';
  return Copy;
}

/// Sets the out-parameters of a call that produced \p JSON.
IRSStatus succeed(IRSStatus Status, const std::string &JSON, char **Out,
                  char **ErrorMessage) {
  *Out = copyString(JSON);
  if (ErrorMessage)
    *ErrorMessage = nullptr;
  return Status;
}

/// Sets the out-parameters of a failed call from \p E.
IRSStatus fail(Error E, char **Out, char **ErrorMessage) {
  IRSStatus Status = IRSStatusUsage;
  std::string Message;
  handleAllErrors(
      std::move(E),
      [&](const ToolError &TE) {
        if (Message.empty()) {
          Status = static_cast<IRSStatus>(TE.code());
          Message = TE.message();
        }
      },
      [&](const ErrorInfoBase &EI) {
        if (Message.empty())
          Message = EI.message();
      });
  if (Out)
    *Out = nullptr;
  if (ErrorMessage)
    *ErrorMessage = copyString(keepOnOneLine(Message));
  return Status;
}

Error usage(const Twine &Message) {
  return makeToolError(ExitCode::Usage, Message);
}

/// The module, or a usage error for a NULL argument.
Expected<Module *> moduleArg(LLVMModuleRef M, char **Out,
                             const char *Function) {
  if (!Out)
    return usage(Twine(Function) + ": the result pointer is NULL");
  if (!M)
    return usage(Twine(Function) + ": the module is NULL");
  return unwrap(M);
}

/// The verifier's first complaint about \p M as a ToolError with \p Code.
Error verify(const Module &M, ExitCode Code, StringRef What) {
  std::optional<std::string> Problem = verifierProblem(M);
  if (!Problem)
    return Error::success();
  return makeToolError(Code, escapeForMessage(M.getModuleIdentifier()) + ": " +
                                 What + ": " + *Problem);
}

/// A module that fails the verifier is refused before anything changes it:
/// passes may crash on invalid IR.
Error verifyInput(const Module &M) {
  return verify(M, ExitCode::BadInput, "invalid IR");
}

/// The rewritten module must still verify; a failure is a bug in ir-sanitize
/// that the caller must hear about rather than receive a broken module.
Error verifyOutput(const Module &M) {
  return verify(M, ExitCode::VerifierFailed,
                "the rewritten module failed the LLVM verifier (a bug in "
                "ir-sanitize, please report it)");
}

/// After a bundle rewrite of a valid module only the functions holding a
/// rewritten call can have become invalid, so only they are verified: on a
/// Julia module this is a small fraction of a whole-module verification.
/// Falls back to the whole module when a function cannot be found by name.
Error verifyRewrittenFunctions(const Module &M, const BundleReport &Report) {
  StringSet<> Changed;
  for (const CallSiteRecord &Site : Report.callSites())
    for (const BundleRecord &B : Site.Bundles)
      if (B.Action != BundleAction::Keep)
        Changed.insert(Site.Function);
  for (const auto &Name : Changed.keys()) {
    const Function *F = M.getFunction(Name);
    if (!F || Name.empty())
      return verifyOutput(M);
    if (!functionVerifies(*F))
      return verifyOutput(M); // the whole-module message names the problem
  }
  return Error::success();
}

/// The settings IRSNormalizeBundles takes besides the bundle policy's.
struct NormalizeSettings {
  bool VerifyInput = true;
  bool VerifyOutput = true;
  bool PerCallSiteReport = true;
  std::string Policy; ///< The rest, for BundlePolicy::fromPassParameters.
};

NormalizeSettings parseNormalizeSettings(StringRef Text) {
  NormalizeSettings S;
  SmallVector<StringRef, 4> Parts;
  Text.split(Parts, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    if (Part == "no-verify-input")
      S.VerifyInput = false;
    else if (Part == "no-verify-output")
      S.VerifyOutput = false;
    else if (Part == "report=totals")
      S.PerCallSiteReport = false;
    else
      S.Policy += (S.Policy.empty() ? "" : ";") + Part.str();
  }
  return S;
}

std::string toJSONText(const json::Value &V) {
  return formatv("{0:2}", V).str() + "\n";
}

/// `ir-sanitize --no-splat --report=FILE` for \p M; \p Lost: whether a
/// bundle an earlier run stashed could not be restored (the report says why).
Expected<std::string> normalize(Module &M, const char *SettingsText,
                                bool &Lost) {
  NormalizeSettings Settings =
      parseNormalizeSettings(SettingsText ? SettingsText : "");
  // Policy errors name the entry; the prefix names the function, as the
  // other entry points' option errors do.
  Expected<BundlePolicy> Policy =
      BundlePolicy::fromPassParameters(Settings.Policy);
  if (!Policy)
    return usage("IRSNormalizeBundles: " + toString(Policy.takeError()));
  if (Settings.VerifyInput)
    if (Error E = verifyInput(M))
      return E;
  // The command's sanitize pipeline without its second step.
  SanitizeConfig Config;
  Config.Policy = std::move(*Policy);
  Config.Splat = false;
  // The output check finds the rewritten functions by the sites' names;
  // the warp rules (which run where the module calls warp intrinsics) add
  // functions and rewrite others, so then the whole module is verified.
  Config.ReportCallSites = Settings.PerCallSiteReport || Settings.VerifyOutput;
  Expected<SanitizeResult> Result = sanitizeModule(M, Config);
  if (!Result)
    return Result.takeError();
  if (Settings.VerifyOutput)
    if (Error E = Result->WarpRules
                      ? verifyOutput(M)
                      : verifyRewrittenFunctions(M, Result->Bundles))
      return E;
  Lost = Result->Bundles.numLost() != 0;
  std::string Report;
  raw_string_ostream OS(Report);
  Result->printReport(OS, M.getModuleIdentifier(), Settings.PerCallSiteReport);
  return Report;
}

Expected<BundleScope> parseCheckOptions(StringRef Options) {
  BundleScope Scope = BundleScope::CCalls;
  SmallVector<StringRef, 2> Settings;
  Options.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Setting : Settings) {
    std::optional<BundleScope> S;
    if (Setting.consume_front("scope="))
      S = parseScopeName(Setting);
    if (!S)
      return usage("IRSCheck: unknown option '" + Setting +
                   "' (expected scope=ccalls or scope=all)");
    Scope = *S;
  }
  return Scope;
}

/// "order=versioned|generated;accumulation=aggregated|merged|separate".
/// Merged unless asked: the host compiles for a GPU this call is not told
/// of, and aggregation's match.any needs sm_70 (gpu-check, which knows the
/// GPU, aggregates by default).
Expected<DerivativeAccessOptions> parseDerivativeOptions(StringRef Options) {
  DerivativeAccessOptions Opts;
  setAccumulationMode(Opts, "merged");
  SmallVector<StringRef, 2> Settings;
  Options.split(Settings, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Setting : Settings) {
    if (Setting == "order=versioned" || Setting == "order=generated")
      Opts.SinkStores = Setting == "order=versioned";
    else if (StringRef Mode = Setting; !Mode.consume_front("accumulation=") ||
                                       !setAccumulationMode(Opts, Mode))
      return usage("IRSOptimizeDerivativeAccesses: unknown option '" + Setting +
                   "' (expected order=versioned|generated or "
                   "accumulation=" +
                   join(std::begin(AccumulationModes),
                        std::end(AccumulationModes), "|") +
                   ")");
  }
  return Opts;
}

} // namespace

extern "C" {

void IRSGetVersion(unsigned *Major, unsigned *Minor, unsigned *Patch,
                   unsigned *CAPIVersion) {
  unsigned Parts[3] = {0, 0, 0};
  StringRef Rest = IRS_VERSION;
  for (unsigned &Part : Parts) {
    auto [Number, Tail] = Rest.split('.');
    Number.getAsInteger(10, Part);
    Rest = Tail;
  }
  if (Major)
    *Major = Parts[0];
  if (Minor)
    *Minor = Parts[1];
  if (Patch)
    *Patch = Parts[2];
  if (CAPIVersion)
    *CAPIVersion = IRS_C_API_VERSION;
}

const char *IRSGetLLVMVersion(void) { return IRS_LLVM_VERSION_STRING; }

void IRSDisposeString(char *S) { std::free(S); }

IRSStatus IRSNormalizeBundles(LLVMModuleRef MRef, const char *Policy,
                              char **OutReportJSON, char **ErrorMessage) {
  Expected<Module *> M = moduleArg(MRef, OutReportJSON, "IRSNormalizeBundles");
  if (!M)
    return fail(M.takeError(), OutReportJSON, ErrorMessage);
  bool Lost = false;
  Expected<std::string> Report = normalize(**M, Policy, Lost);
  if (!Report)
    return fail(Report.takeError(), OutReportJSON, ErrorMessage);
  return succeed(Lost ? IRSStatusFindings : IRSStatusOk, *Report, OutReportJSON,
                 ErrorMessage);
}

IRSStatus IRSRestoreBundles(LLVMModuleRef MRef, char **OutStatsJSON,
                            char **ErrorMessage) {
  Expected<Module *> M = moduleArg(MRef, OutStatsJSON, "IRSRestoreBundles");
  if (!M)
    return fail(M.takeError(), OutStatsJSON, ErrorMessage);
  if (Error E = verifyInput(**M))
    return fail(std::move(E), OutStatsJSON, ErrorMessage);
  RestoreStats Stats = restoreModule(**M);
  if (Error E = verifyOutput(**M))
    return fail(std::move(E), OutStatsJSON, ErrorMessage);
  const RestoreStats &S = Stats;
  json::Object Doc{IRS_RESTORE_COUNTERS(IRS_COUNTER_JSON)};
  return succeed(Stats.Lost ? IRSStatusFindings : IRSStatusOk,
                 toJSONText(std::move(Doc)), OutStatsJSON, ErrorMessage);
}

IRSStatus IRSCheck(LLVMModuleRef MRef, const char *Options,
                   char **OutFindingsJSON, char **ErrorMessage) {
  Expected<Module *> M = moduleArg(MRef, OutFindingsJSON, "IRSCheck");
  if (!M)
    return fail(M.takeError(), OutFindingsJSON, ErrorMessage);
  Expected<BundleScope> Scope = parseCheckOptions(Options ? Options : "");
  if (!Scope)
    return fail(Scope.takeError(), OutFindingsJSON, ErrorMessage);
  if (Error E = verifyInput(**M))
    return fail(std::move(E), OutFindingsJSON, ErrorMessage);
  CheckOptions Opts;
  Opts.Scope = *Scope;
  std::vector<CheckSection> Sections = collectCheckSections(**M, Opts);
  bool Clean = isClean(Sections);
  std::string JSON;
  raw_string_ostream OS(JSON);
  printCheckJSON(OS, (*M)->getModuleIdentifier(), Sections);
  return succeed(Clean ? IRSStatusOk : IRSStatusFindings, OS.str(),
                 OutFindingsJSON, ErrorMessage);
}

IRSStatus IRSSplatKernels(LLVMModuleRef MRef, const char *KernelName,
                          char **OutManifestJSON, char **ErrorMessage) {
  Expected<Module *> M = moduleArg(MRef, OutManifestJSON, "IRSSplatKernels");
  if (!M)
    return fail(M.takeError(), OutManifestJSON, ErrorMessage);
  if (Error E = verifyInput(**M))
    return fail(std::move(E), OutManifestJSON, ErrorMessage);
  std::vector<std::string> Kernels;
  if (KernelName)
    Kernels.push_back(KernelName);
  Expected<LaunchManifest> Manifest = splatModule(**M, Kernels);
  if (!Manifest)
    return fail(Manifest.takeError(), OutManifestJSON, ErrorMessage);
  if (Error E = verifyOutput(**M))
    return fail(std::move(E), OutManifestJSON, ErrorMessage);
  std::string JSON;
  raw_string_ostream OS(JSON);
  Manifest->printFile(OS);
  return succeed(IRSStatusOk, OS.str(), OutManifestJSON, ErrorMessage);
}

IRSStatus IRSOptimizeDerivativeAccesses(LLVMModuleRef MRef, const char *Options,
                                        char **OutStatsJSON,
                                        char **ErrorMessage) {
  Expected<Module *> M =
      moduleArg(MRef, OutStatsJSON, "IRSOptimizeDerivativeAccesses");
  if (!M)
    return fail(M.takeError(), OutStatsJSON, ErrorMessage);
  Expected<DerivativeAccessOptions> Opts =
      parseDerivativeOptions(Options ? Options : "");
  if (!Opts)
    return fail(Opts.takeError(), OutStatsJSON, ErrorMessage);
  if (Error E = verifyInput(**M))
    return fail(std::move(E), OutStatsJSON, ErrorMessage);
  DerivativeAccessStats Stats = optimizeDerivativeAccesses(**M, *Opts);
  if (Error E = verifyOutput(**M))
    return fail(std::move(E), OutStatsJSON, ErrorMessage);
  json::Object Doc;
  {
    const StoreSinkStats &S = Stats.Sink;
    Doc = json::Object{IRS_STORE_SINK_COUNTERS(IRS_COUNTER_JSON)};
  }
  {
    const AccumulationMergingStats &S = Stats.Merge;
    for (auto &KV :
         json::Object{IRS_ACCUMULATION_MERGING_COUNTERS(IRS_COUNTER_JSON)})
      Doc[KV.first] = std::move(KV.second);
  }
  {
    const AccumulationAggregationStats &S = Stats.Aggregate;
    for (auto &KV :
         json::Object{IRS_ACCUMULATION_AGGREGATION_COUNTERS(IRS_COUNTER_JSON)})
      Doc[KV.first] = std::move(KV.second);
  }
  return succeed(IRSStatusOk, toJSONText(std::move(Doc)), OutStatsJSON,
                 ErrorMessage);
}

} // extern "C"
