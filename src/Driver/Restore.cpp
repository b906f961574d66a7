//===- Restore.cpp - Putting stashed bundles back -------------------------===//
#include "ir-sanitize/Driver/Restore.h"
#include "ir-sanitize/Support/OutputSafety.h"

#include "SanitizeSteps.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/ModuleWriter.h"
#include "ir-sanitize/Transforms/PassResults.h"

using namespace llvm;

namespace irs {

namespace {
constexpr const char *RestorePipeline = passname::BundleRestorePass;
} // namespace

RestoreStats restoreModule(Module &M) {
  PassResults Results;
  cantFail(runPipeline(M, RestorePipeline, &Results));
  return Results.get<RestoreStats>();
}

Expected<std::string> printRestorePipeline(const RestoreRequest &Req,
                                           LLVMContext &Ctx) {
  if (Error E = readModule(Req.Input, Ctx).takeError())
    return E;
  return printedPipeline(RestorePipeline);
}

Expected<RestoreJobResult> runRestore(const RestoreRequest &Req,
                                      LLVMContext &Ctx,
                                      DiagnosticHandler &Diags) {
  JobFiles Files;
  Files.ModuleInput = {"the input", Req.Input};
  Files.ModuleOutput = {"-o", Req.Output};
  if (Error E = checkDistinctFiles(Files))
    return E;
  Expected<LoadedModule> LM = readModule(Req.Input, Ctx);
  if (!LM)
    return LM.takeError();
  RestoreJobResult Job{LM->DisplayName, restoreModule(*LM->M), nullptr};
  IRFormat Format = outputFormatFor(Req.Output, parseIRFormat(Req.Emit));
  reportDebugInfoForm(Diags, *LM->M, LM->DbgForm);
  if (Error E = writeModule(*LM->M, Req.Output, Format, LM->DbgForm))
    return E;
  const RestoreStats &S = Job.Stats;
  Diags.progress(Job.InputName + ": restored " + Twine(S.Bundles) +
                 " bundles on " + Twine(S.Calls) + " calls");
  if (S.OrphanMarkers)
    Diags.note(Job.InputName + ": removed " + Twine(S.OrphanMarkers) +
               " operand markers whose call lost its record (e.g. copies "
               "made by Enzyme, which drops unknown metadata)");
  if (S.Lost)
    Diags.warning(Job.InputName + ": " + Twine(S.Lost) +
                  " stashed bundles could not be restored (their operand "
                  "marker was lost, or their record is damaged or would "
                  "break the IR)");
  Job.Module = std::move(LM->M);
  return Job;
}

} // namespace irs
