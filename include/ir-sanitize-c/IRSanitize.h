/*===-- ir-sanitize-c/IRSanitize.h - ir-sanitize C interface ------*- C -*-===*\
|*                                                                            *|
|* ir-sanitize's passes for callers that hold an LLVMModuleRef: Julia         *|
|* (GPUCompiler.jl, Enzyme.jl through ccall), or any LLVM-C program. Link     *|
|* libIRSanitize built against the same LLVM as the module (for Julia: the    *|
|* LLVM that Julia ships, through -DLLVM_DIR).                                *|
|*                                                                            *|
|* Conventions (as in LLVM-C and Enzyme's CApi.h):                            *|
|*  - Every function returns an IRSStatus; IRSStatusOk is 0.                  *|
|*  - Out-strings (JSON documents, error messages) are malloc'd, owned by the *|
|*    caller, and released with IRSDisposeString. On failure *OutJSON is set *|
|*    to NULL and *ErrorMessage to a one-line message; on success            *|
|*    *ErrorMessage is NULL. ErrorMessage may be NULL if the caller does not *|
|*    want the message.                                                       *|
|*  - Nothing here exits, aborts, prints, or changes LLVM's global options. A *|
|*    module that fails the verifier on entry is left untouched              *|
|*    (IRSStatusBadInput); a rewrite that leaves a broken module (a bug) is   *|
|*    reported as IRSStatusVerifierFailed: discard that module.               *|
|*  - Calls on modules of different LLVMContexts may run concurrently; calls  *|
|*    on one context must not (LLVM's own rule).                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef IR_SANITIZE_C_IRSANITIZE_H
#define IR_SANITIZE_C_IRSANITIZE_H

#include "llvm-c/Types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this interface; bumped when an entry point is added or a
 *  signature changes (2: IRSOptimizeDerivativeAccesses). */
#define IRS_C_API_VERSION 2

/** Status codes; the values are the command line's exit codes
 *  (include/ir-sanitize/Support/ExitCodes.def, checked at compile time). */
typedef enum {
  IRSStatusOk = 0,
  IRSStatusFindings = 1,      /**< IRSCheck found something Enzyme aborts on, or
                                   IRSRestoreBundles or IRSNormalizeBundles
                                   lost a stashed bundle. */
  IRSStatusUsage = 2,         /**< A bad argument: NULL, a malformed policy, an
                                   unknown kernel name. */
  IRSStatusBadInput = 3,      /**< The module fails the LLVM verifier. */
  IRSStatusVerifierFailed = 5 /**< The rewrite broke the module (a bug in
                                   ir-sanitize; please report it). */
} IRSStatus;

/** ir-sanitize's version (major.minor.patch) and the C interface version. */
void IRSGetVersion(unsigned *Major, unsigned *Minor, unsigned *Patch,
                   unsigned *CAPIVersion);

/** The LLVM version this library was built against, e.g. "19.1.7". A module
 *  from another LLVM must not be passed in. Static storage: do not dispose. */
const char *IRSGetLLVMVersion(void);

/** Releases a string this interface returned. NULL is allowed. */
void IRSDisposeString(char *S);

/** Normalises operand bundles that Enzyme aborts on and, where the module
 *  calls warp intrinsics, gives its warp shuffles rules Enzyme takes
 *  (`ir-sanitize --no-splat`; docs/WarpRules.md). Policy uses the
 * pass-parameter syntax of `opt -passes='ir-sanitize-bundles<...>'`:
 * ';'-separated `TAG=ACTION` (keep, drop, stash, lower) and `scope=ccalls|all`,
 * e.g. "gc-transition=lower;scope=all"; NULL or "" means the defaults. The
 * report is the JSON that `ir-sanitize --no-splat --report=FILE` writes, with
 *  "input" naming the module identifier.
 *  The module is verified first (IRSStatusBadInput if it fails), and
 *  afterwards every function whose calls were rewritten is verified
 *  (IRSStatusVerifierFailed). Three more settings, for a caller that verifies
 *  the module itself and wants only counts (the fastest call):
 *  `no-verify-input`, `no-verify-output` (an invalid module then comes back
 *  as IRSStatusOk) and `report=totals` (the report without "functions",
 *  the per-call-site list). A bundle an earlier call stashed that cannot be
 *  restored (its record damaged or forged) is reported as dropped, with why
 *  in its note, and the call returns IRSStatusFindings with the report. */
IRSStatus IRSNormalizeBundles(LLVMModuleRef M, const char *Policy,
                              char **OutReportJSON, char **ErrorMessage);

/** Puts stashed bundles back (`ir-sanitize restore`). The result is
 *  {"calls":N,"bundles":N,"lost":N,"orphan_markers":N}; IRSStatusFindings
 *  when a stashed bundle could not be restored (the module is still valid). */
IRSStatus IRSRestoreBundles(LLVMModuleRef M, char **OutStatsJSON,
                            char **ErrorMessage);

/** Lists what makes Enzyme abort, changing nothing: the JSON that
 *  `ir-sanitize check --format=json` prints. Options: "" / NULL or
 *  "scope=ccalls|all". IRSStatusFindings (with the JSON) when not clean. */
IRSStatus IRSCheck(LLVMModuleRef M, const char *Options, char **OutFindingsJSON,
                   char **ErrorMessage);

/** Splats the aggregate parameters of GPU kernels into scalars: every kernel
 *  when KernelName is NULL, else only that one (IRSStatusUsage if the module
 *  defines no such kernel). The result is the launch manifest that
 *  `ir-sanitize --manifest=FILE` writes; a host repacks a launch's arguments
 *  from it (see examples/julia). */
IRSStatus IRSSplatKernels(LLVMModuleRef M, const char *KernelName,
                          char **OutManifestJSON, char **ErrorMessage);

/** Makes GPU derivative kernels faster after Enzyme and the host's own
 *  optimisation pipeline, before code generation (what `ir-sanitize
 *  gpu-check` does to its derivatives): in every function, loads and atomics
 *  before stores where this thread's addresses are disjoint, checked at run
 *  time, and a clear and an accumulation of one element made one store where
 *  the addresses are equal (in place; StoreSinkVersioning), then two atomic
 *  additions into one element made one (AccumulationMerging; floating-point
 *  sums reassociated); with accumulation=aggregated, then the lanes of a
 *  warp that accumulate into one element summed first, one of them doing the
 *  atomic (AccumulationAggregation: match.any.sync, sm_70; left off in a
 *  function whose target-cpu is older). Options: NULL / "" for the
 *  defaults, or ';'-separated `order=versioned|generated` (generated: no
 *  reordering) and `accumulation=aggregated|merged|separate` (merged, the
 *  default here, since this call is not told the GPU: no aggregation;
 *  aggregated for sm_70 and later, what gpu-check does by default;
 *  separate: neither). The result is
 *  {"versioned":N,"in_place":N,"reordered":N,"address_checks":N,
 *  "joined_branches":N,"merged_accumulations":N,"guarded_merges":N,
 *  "aggregated_accumulations":N,"uniform_accumulations":N,
 *  "lane_distinct_accumulations":N}. The module
 * is verified before (IRSStatusBadInput) and after (IRSStatusVerifierFailed).
 */
IRSStatus IRSOptimizeDerivativeAccesses(LLVMModuleRef M, const char *Options,
                                        char **OutStatsJSON,
                                        char **ErrorMessage);

#ifdef __cplusplus
}
#endif

#endif /* IR_SANITIZE_C_IRSANITIZE_H */
