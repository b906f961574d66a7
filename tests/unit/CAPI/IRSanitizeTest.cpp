#include "ir-sanitize-c/IRSanitize.h"
#include "ir-sanitize/Config.h"
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/MessageText.h"

#include "llvm-c/Core.h"
#include "llvm-c/IRReader.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace llvm;
using namespace irs::test;
using namespace irs;

namespace {

/// Parses IR text as a host may hold it: without the parser's debug-info
/// upgrade, which verifies the module (and aborts or strips).
std::unique_ptr<Module> parseModuleUnverified(LLVMContext &Ctx, StringRef IR) {
  SMDiagnostic Diag;
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(IR), SMLoc());
  auto M = std::make_unique<Module>("unverified", Ctx);
  bool Failed = LLParser(IR, SM, Diag, M.get(), nullptr, Ctx)
                    .Run(/*UpgradeDebugInfo=*/false);
  INFO(Diag.getMessage().str());
  REQUIRE_FALSE(Failed);
  return M;
}

const std::string HostModulePath =
    sourcePath("examples/cuda_ccall_gc_transition_fwddiff.ll");
const std::string KernelModulePath =
    sourcePath("examples/kernels/bcast_add_2d.ll");
const char *const HostModule = HostModulePath.c_str();
const char *const KernelModule = KernelModulePath.c_str();

/// A module parsed with LLVM-C, as a C caller would, or null with \p Error
/// set. It uses no Catch2 macro: they are not thread-safe.
LLVMModuleRef tryParseFile(LLVMContextRef Ctx, const char *Path,
                           std::string &Error) {
  LLVMMemoryBufferRef Buf = nullptr;
  char *Msg = nullptr;
  LLVMModuleRef M = nullptr;
  if (LLVMCreateMemoryBufferWithContentsOfFile(Path, &Buf, &Msg) ||
      LLVMParseIRInContext(Ctx, Buf, &M, &Msg)) {
    Error = std::string(Path) + ": " + (Msg ? Msg : "unreadable");
    LLVMDisposeMessage(Msg);
    return nullptr;
  }
  return M;
}

LLVMModuleRef parseFile(LLVMContextRef Ctx, const char *Path) {
  std::string Error;
  LLVMModuleRef M = tryParseFile(Ctx, Path, Error);
  INFO(Error);
  REQUIRE(M);
  return M;
}

std::string printed(LLVMModuleRef M) {
  char *Text = LLVMPrintModuleToString(M);
  std::string S(Text);
  LLVMDisposeMessage(Text);
  return S;
}

/// The result of one call: status, JSON (parsed) and message.
struct Call {
  IRSStatus Status;
  std::string JSON, Message;
  bool HasJSON = false;
  json::Object doc() const {
    Expected<json::Value> V = json::parse(JSON);
    REQUIRE(static_cast<bool>(V));
    REQUIRE(V->getAsObject());
    return *V->getAsObject();
  }
};

Call take(IRSStatus Status, char *Out, char *Msg) {
  Call C{Status, Out ? Out : "", Msg ? Msg : "", Out != nullptr};
  IRSDisposeString(Out);
  IRSDisposeString(Msg);
  return C;
}

Call normalize(LLVMModuleRef M, const char *Policy) {
  char *Out = nullptr, *Msg = nullptr;
  IRSStatus S = IRSNormalizeBundles(M, Policy, &Out, &Msg);
  return take(S, Out, Msg);
}

Call check(LLVMModuleRef M, const char *Options) {
  char *Out = nullptr, *Msg = nullptr;
  IRSStatus S = IRSCheck(M, Options, &Out, &Msg);
  return take(S, Out, Msg);
}

Call splat(LLVMModuleRef M, const char *Kernel) {
  char *Out = nullptr, *Msg = nullptr;
  IRSStatus S = IRSSplatKernels(M, Kernel, &Out, &Msg);
  return take(S, Out, Msg);
}

Call restore(LLVMModuleRef M) {
  char *Out = nullptr, *Msg = nullptr;
  IRSStatus S = IRSRestoreBundles(M, &Out, &Msg);
  return take(S, Out, Msg);
}

/// @f holds one call with a gc-transition bundle and fails the verifier:
/// its block has no terminator.
std::unique_ptr<Module> brokenBundledCall(LLVMContext &Ctx) {
  std::unique_ptr<Module> M = test::parseModule(Ctx, R"(
declare void @g()
define void @f() {
  call void @g() [ "gc-transition"() ]
  ret void
}
)");
  M->getFunction("f")->getEntryBlock().getTerminator()->eraseFromParent();
  return M;
}

int64_t total(const json::Object &Report, StringRef Key) {
  return *Report.getObject("totals")->getInteger(Key);
}

} // namespace

TEST_CASE("the C API reports its own and LLVM's version", "[CAPI]") {
  unsigned Major = 99, Minor = 99, Patch = 99, API = 0;
  IRSGetVersion(&Major, &Minor, &Patch, &API);
  CHECK(std::to_string(Major) + "." + std::to_string(Minor) + "." +
            std::to_string(Patch) ==
        IRS_VERSION);
  CHECK(API == IRS_C_API_VERSION);
  CHECK(StringRef(IRSGetLLVMVersion()) == IRS_LLVM_VERSION_STRING);
  IRSGetVersion(nullptr, nullptr, nullptr, nullptr); // Any may be NULL.
}

TEST_CASE("C API: normalise, check and restore a host module", "[CAPI]") {
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMModuleRef M = parseFile(Ctx, HostModule);

  Call Before = check(M, nullptr);
  CHECK(Before.Status == IRSStatusFindings);
  CHECK(Before.doc().getBoolean("clean") == false);
  CHECK(*Before.doc().getString("input") == HostModule);

  Call Stashed = normalize(M, "gc-transition=stash;scope=all");
  REQUIRE(Stashed.Status == IRSStatusOk);
  CHECK(Stashed.Message.empty());
  CHECK(total(Stashed.doc(), "stash") == 1);
  CHECK(*Stashed.doc().getString("scope") == "all");
  CHECK(check(M, "scope=all").Status == IRSStatusOk);

  Call Restored = restore(M);
  REQUIRE(Restored.Status == IRSStatusOk);
  CHECK(Restored.doc().getInteger("bundles") == 1);
  CHECK(check(M, "").Status == IRSStatusFindings);

  Call Lowered = normalize(M, nullptr); // The default lowers gc-transition.
  REQUIRE(Lowered.Status == IRSStatusOk);
  CHECK(total(Lowered.doc(), "lower") == 1);
  CHECK(printed(M).find("@jl_gc_safe_enter()") != std::string::npos);
  LLVMContextDispose(Ctx);
}

TEST_CASE("C API: normalising gives warp shuffles their rules", "[CAPI]") {
  LLVMContextRef Ctx = LLVMContextCreate();
  const std::string Path = sourcePath("examples/kernels/sum_abs2_f64.ll");
  LLVMModuleRef M = parseFile(Ctx, Path.c_str());
  CHECK(check(M, nullptr).Status == IRSStatusFindings); // warp_shuffles
  Call Done = normalize(M, nullptr);
  REQUIRE(Done.Status == IRSStatusOk);
  std::string Text = printed(M);
  CHECK(Text.find("@__enzyme_register_gradient___irs_shfl_down_f64_") !=
        std::string::npos);
  CHECK(Text.find("call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %w0") ==
        std::string::npos);
  CHECK(check(M, nullptr).Status == IRSStatusOk);
  LLVMContextDispose(Ctx);
}

TEST_CASE("C API: bad arguments give a status and a message, never an abort",
          "[CAPI]") {
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMModuleRef M = parseFile(Ctx, HostModule);
  std::string Original = printed(M);

  Call BadPolicy = normalize(M, "gc-transition=explode");
  CHECK(BadPolicy.Status == IRSStatusUsage);
  CHECK_FALSE(BadPolicy.HasJSON);
  CHECK(BadPolicy.Message.find("explode") != std::string::npos);
  CHECK(normalize(M, "scope=some").Status == IRSStatusUsage);
  CHECK(check(M, "scope").Status == IRSStatusUsage);
  CHECK(check(M, "color=red").Status == IRSStatusUsage);

  Call NoKernel = splat(M, "no_such_kernel");
  CHECK(NoKernel.Status == IRSStatusUsage);
  CHECK(NoKernel.Message.find("no kernel named 'no_such_kernel'") !=
        std::string::npos);
  CHECK(printed(M) == Original);

  char *Out = reinterpret_cast<char *>(1), *Msg = nullptr;
  CHECK(IRSNormalizeBundles(nullptr, nullptr, &Out, &Msg) == IRSStatusUsage);
  CHECK(Out == nullptr);
  CHECK(StringRef(Msg).contains("module is NULL"));
  IRSDisposeString(Msg);
  CHECK(IRSCheck(M, nullptr, nullptr, nullptr) == IRSStatusUsage);
  CHECK(IRSSplatKernels(M, nullptr, nullptr, nullptr) == IRSStatusUsage);
  CHECK(IRSRestoreBundles(M, nullptr, nullptr) == IRSStatusUsage);
  LLVMContextDispose(Ctx);
}

TEST_CASE("C API: a module that fails the verifier is refused untouched",
          "[CAPI]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = brokenBundledCall(Ctx);
  LLVMModuleRef Ref = wrap(M.get());
  for (const Call &C : {normalize(Ref, nullptr), check(Ref, nullptr),
                        splat(Ref, nullptr), restore(Ref)}) {
    CHECK(C.Status == IRSStatusBadInput);
    CHECK(StringRef(C.Message).contains("invalid IR"));
    CHECK_FALSE(C.HasJSON);
  }
  CHECK(M->getFunction("f")->getEntryBlock().size() == 1); // Bundle kept.
  auto *CB = cast<CallBase>(&M->getFunction("f")->getEntryBlock().front());
  CHECK(CB->getNumOperandBundles() == 1);
}

// Module identifiers and option strings come from the caller: a newline or
// an escape sequence in them stays escaped in the one-line message.
TEST_CASE("C API: messages escape module identifiers and option strings",
          "[CAPI]") {
  auto OneLine = [](const std::string &Message) {
    return Message.find_first_of("\n\x1b") == std::string::npos;
  };
  LLVMContext Ctx;
  std::unique_ptr<Module> M = brokenBundledCall(Ctx);
  M->setModuleIdentifier("evil\nname\x1b[31m");
  LLVMModuleRef Ref = wrap(M.get());
  for (const Call &C : {normalize(Ref, nullptr), check(Ref, nullptr),
                        splat(Ref, nullptr), restore(Ref)}) {
    CHECK(C.Status == IRSStatusBadInput);
    CHECK(StringRef(C.Message).starts_with("evil\\0Aname\\1B[31m: invalid IR"));
    CHECK(OneLine(C.Message));
  }
  LLVMContextRef Good = LLVMContextCreate();
  LLVMModuleRef H = parseFile(Good, HostModule);
  for (const Call &C : {normalize(H, "gc-transition=ex\nplode\x1b[31m"),
                        check(H, "co\nlor\x1b=red"), splat(H, "k\n\x1b")}) {
    CHECK(C.Status == IRSStatusUsage);
    CHECK(StringRef(C.Message).contains("\\0A"));
    CHECK(OneLine(C.Message));
  }
  LLVMContextDispose(Good);
}

TEST_CASE("C API: messages quote at most MaxQuotedBytes of an option string",
          "[CAPI]") {
  LLVMContextRef Good = LLVMContextCreate();
  LLVMModuleRef H = parseFile(Good, HostModule);
  std::string Huge(1 << 20, 'x');
  for (const Call &C :
       {normalize(H, ("gc-transition=" + Huge).c_str()),
        normalize(H, (Huge + "=explode").c_str()), check(H, Huge.c_str())}) {
    CHECK(C.Status == IRSStatusUsage);
    CHECK(C.Message.size() < MaxMessageBytes + 32);
    CHECK(StringRef(C.Message).contains(" bytes)"));
  }
  LLVMContextDispose(Good);
}

// LLVM 19's verifier crashes printing a #dbg_ record without a location;
// the module is refused with one line instead (found by the module fuzzer).
TEST_CASE("C API: a debug value without a location is refused, not printed",
          "[CAPI]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = parseModuleUnverified(Ctx, R"(
define void @f(i64 %x) !dbg !3 {
  call void @llvm.dbg.value(metadata i64 %x, metadata !5, metadata !DIExpression())
  ret void
}
declare void @llvm.dbg.value(metadata, metadata, metadata)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !1, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.jl", directory: ".")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !{})
!5 = !DILocalVariable(name: "x", arg: 1, scope: !3, file: !1, line: 1)
)");
  // Not printed: LLVM 19 cannot print it either.
  size_t Before = M->getFunction("f")->getEntryBlock().size();
  Call C = normalize(wrap(M.get()), nullptr);
  CHECK(C.Status == IRSStatusBadInput);
  CHECK(StringRef(C.Message).contains("invalid IR: "));
  CHECK(StringRef(C.Message).count('\n') == 0);
  CHECK(M->getFunction("f")->getEntryBlock().size() == Before);
}

// LLVM's verifier crashes on a !tbaa tag without a first operand.
TEST_CASE("C API: a !tbaa tag LLVM cannot check is refused, not verified",
          "[CAPI]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = test::parseModule(Ctx, R"(
define i32 @f(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
)");
  Instruction &Load = M->getFunction("f")->getEntryBlock().front();
  MDNode *Null = MDNode::get(Ctx, {nullptr});
  MDNode *Scalar = MDNode::get(Ctx, {MDString::get(Ctx, "t"), Null});
  Metadata *Zero =
      ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(Ctx), 0));
  // No operands, a null first one, a null one in a parent type.
  std::vector<MDNode *> Tags = {MDNode::get(Ctx, {}), Null,
                                MDNode::get(Ctx, {Scalar, Scalar, Zero})};
  for (MDNode *Tag : Tags) {
    Load.setMetadata(LLVMContext::MD_tbaa, Tag);
    Call C = normalize(wrap(M.get()), nullptr);
    CHECK(C.Status == IRSStatusBadInput);
    CHECK(StringRef(C.Message).contains("a !tbaa tag in @f has no first "
                                        "operand, or reaches a null one"));
    CHECK(Load.getMetadata(LLVMContext::MD_tbaa) == Tag);
  }
}

TEST_CASE("C API: no-verify-input trusts the caller; rewritten functions are "
          "still verified",
          "[CAPI]") {
  LLVMContext Ctx;
  std::unique_ptr<Module> M = test::parseModule(Ctx, R"(
declare void @g()
define void @f() {
  call void @g() [ "gc-transition"() ]
  ret void
}
define void @untouched() {
  ret void
}
define void @also_rewritten() {
  call void @g() [ "gc-transition"() ]
  ret void
}
)");
  auto BreakTerminator = [&](StringRef Name) {
    M->getFunction(Name)->getEntryBlock().getTerminator()->eraseFromParent();
  };
  BreakTerminator("untouched");
  LLVMModuleRef Ref = wrap(M.get());
  CHECK(normalize(Ref, "scope=all").Status == IRSStatusBadInput);
  // The damage lies outside every rewritten function: the caller's word is
  // taken for it.
  Call Trusted = normalize(Ref, "no-verify-input;scope=all;gc-transition=drop");
  INFO(Trusted.Message);
  CHECK(Trusted.Status == IRSStatusOk);
  CHECK(total(Trusted.doc(), "drop") == 2);
  // Inside a rewritten function it is found, whatever the caller said.
  std::unique_ptr<Module> M2 = brokenBundledCall(Ctx);
  Call Broken = normalize(wrap(M2.get()), "gc-transition=drop;no-verify-input");
  CHECK(Broken.Status == IRSStatusVerifierFailed);
  CHECK_FALSE(Broken.HasJSON);
  // Unless the caller takes over the output check too.
  M2 = brokenBundledCall(Ctx);
  Call Unchecked = normalize(
      wrap(M2.get()),
      "gc-transition=drop;no-verify-input;no-verify-output;report=totals");
  CHECK(Unchecked.Status == IRSStatusOk);
  // report=totals: the counts without the per-call-site list.
  json::Object Totals = Unchecked.doc();
  CHECK_FALSE(Totals.getArray("functions"));
  CHECK(total(Totals, "drop") == 1);
  CHECK(*Totals.getString("input") == M2->getModuleIdentifier());
  // The setting belongs to the C interface; a malformed policy is still one.
  CHECK(normalize(Ref, "no-verify-input;gc-transition=sideways").Status ==
        IRSStatusUsage);
}

TEST_CASE("C API: policy errors name the policy entry, never a "
          "command-line flag",
          "[CAPI]") {
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMModuleRef M = parseFile(Ctx, HostModule);
  std::string Original = printed(M);
  for (const char *Policy :
       {"=stash", "gc-transition", "gc-transition=", "jl_roots=lower",
        "gc-transition=explode", "scope=some", "no-verify-input;=stash"}) {
    Call Bad = normalize(M, Policy);
    INFO(Policy << ": " << Bad.Message);
    CHECK(Bad.Status == IRSStatusUsage);
    CHECK(Bad.Message.rfind("IRSNormalizeBundles: ", 0) == 0);
    CHECK(Bad.Message.find("--") == std::string::npos);
  }
  CHECK(normalize(M, "=stash").Message ==
        "IRSNormalizeBundles: expected TAG=ACTION, got '=stash'");

  // One tag, two different actions: refused, naming both, nothing changed.
  Call Conflict = normalize(M, "gc-transition=lower;gc-transition=drop");
  CHECK(Conflict.Status == IRSStatusUsage);
  CHECK_FALSE(Conflict.HasJSON);
  CHECK(Conflict.Message.find("'gc-transition=lower'") != std::string::npos);
  CHECK(Conflict.Message.find("'gc-transition=drop'") != std::string::npos);
  CHECK(Conflict.Message.find("--") == std::string::npos);
  CHECK(printed(M) == Original);
  // The same action twice is one action.
  CHECK(normalize(M, "gc-transition=drop;gc-transition=drop").Status ==
        IRSStatusOk);
  LLVMContextDispose(Ctx);
}

TEST_CASE("C API: splat one kernel or all, with a manifest", "[CAPI]") {
  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMModuleRef M = parseFile(Ctx, KernelModule);
  Call All = splat(M, nullptr);
  REQUIRE(All.Status == IRSStatusOk);
  Expected<LaunchManifest> Manifest =
      LaunchManifest::fromJSON(cantFail(json::parse(All.JSON)));
  REQUIRE(static_cast<bool>(Manifest));
  REQUIRE(Manifest->Kernels.size() == 1);
  CHECK(Manifest->Kernels[0].Params.size() >
        Manifest->Kernels[0].OriginalParams.size());
  // Splatted already: a second run finds nothing to splat in that kernel.
  Call Again = splat(M, Manifest->Kernels[0].Name.c_str());
  REQUIRE(Again.Status == IRSStatusOk);
  CHECK(Again.doc().getArray("kernels")->empty());
  LLVMContextDispose(Ctx);
}

TEST_CASE("C API: calls on modules of different contexts run concurrently",
          "[CAPI]") {
  // The single-threaded answers, then the same calls from 8 threads at once.
  // The threads use no Catch2 macro (not thread-safe: a concurrent INFO
  // corrupted its message stack on CI); the main thread compares.
  auto RunAll = [] {
    LLVMContextRef Ctx = LLVMContextCreate();
    std::string Error;
    LLVMModuleRef Host = tryParseFile(Ctx, HostModule, Error);
    LLVMModuleRef Kernels =
        Host ? tryParseFile(Ctx, KernelModule, Error) : nullptr;
    std::vector<std::string> Results = {Error};
    if (Kernels)
      Results = {check(Host, nullptr).JSON, normalize(Host, "scope=all").JSON,
                 splat(Kernels, nullptr).JSON, printed(Host), printed(Kernels)};
    LLVMContextDispose(Ctx);
    return Results;
  };
  std::vector<std::string> Expected = RunAll();
  INFO(Expected.front());
  REQUIRE(Expected.size() == 5);
  std::vector<std::vector<std::string>> Got(8);
  std::vector<std::thread> Threads;
  for (auto &G : Got)
    Threads.emplace_back([&G, &RunAll] { G = RunAll(); });
  for (std::thread &T : Threads)
    T.join();
  for (const auto &G : Got)
    CHECK(G == Expected);
}

namespace {

Call optimizeDerivatives(LLVMModuleRef M, const char *Options) {
  char *Out = nullptr, *Msg = nullptr;
  IRSStatus S = IRSOptimizeDerivativeAccesses(M, Options, &Out, &Msg);
  return take(S, Out, Msg);
}

/// The reverse of dest = x + x after O2: store dest, read and clear d_dest,
/// accumulate twice into d_x through two parameters (x passed twice).
const char *const ReverseOfSelfAdd = R"(
target triple = "nvptx64-nvidia-cuda"
define void @rev(ptr addrspace(1) %x, ptr addrspace(1) %dest,
                 ptr addrspace(1) %ddest, ptr addrspace(1) %dx1,
                 ptr addrspace(1) %dx2, i64 %i) {
  %xa = getelementptr inbounds float, ptr addrspace(1) %x, i64 %i
  %v = load float, ptr addrspace(1) %xa
  %s = fadd float %v, %v
  %da = getelementptr inbounds float, ptr addrspace(1) %dest, i64 %i
  store float %s, ptr addrspace(1) %da
  %dda = getelementptr inbounds float, ptr addrspace(1) %ddest, i64 %i
  %g = load float, ptr addrspace(1) %dda
  store float 0.0, ptr addrspace(1) %dda
  %p = getelementptr inbounds float, ptr addrspace(1) %dx1, i64 %i
  %q = getelementptr inbounds float, ptr addrspace(1) %dx2, i64 %i
  %a = atomicrmw fadd ptr addrspace(1) %p, float %g monotonic
  %b = atomicrmw fadd ptr addrspace(1) %q, float %g monotonic
  ret void
}
)";

size_t occurrences(const std::string &Text, const std::string &What) {
  size_t N = 0;
  for (size_t At = Text.find(What); At != std::string::npos;
       At = Text.find(What, At + 1))
    ++N;
  return N;
}

} // namespace

TEST_CASE("C API: derivative accesses reordered and accumulations merged",
          "[CAPI]") {
  LLVMContext Ctx;
  SECTION("both by default") {
    std::unique_ptr<Module> M = test::parseModule(Ctx, ReverseOfSelfAdd);
    Call C = optimizeDerivatives(wrap(M.get()), nullptr);
    REQUIRE(C.Status == IRSStatusOk);
    json::Object Doc = C.doc();
    CHECK(Doc.getInteger("versioned") == 1);
    CHECK(Doc.getInteger("in_place") == 1);
    CHECK(*Doc.getInteger("address_checks") > 0);
    // The fast and the ordered copy each get their pair merged; the in-place
    // copy keeps each accumulation as an atomic under its own equality test
    // (for an element other than d_dest's), one block each.
    CHECK(Doc.getInteger("guarded_merges") == 2);
    std::string Text = printed(wrap(M.get()));
    CHECK(occurrences(Text, "icmp eq ptr addrspace(1)") == 2);
    CHECK(occurrences(Text, "atomicrmw fadd") == 6);
  }
  SECTION("each can be left out") {
    std::unique_ptr<Module> M = test::parseModule(Ctx, ReverseOfSelfAdd);
    Call C = optimizeDerivatives(wrap(M.get()),
                                 "order=generated;accumulation=merged");
    REQUIRE(C.Status == IRSStatusOk);
    CHECK(C.doc().getInteger("versioned") == 0);
    CHECK(C.doc().getInteger("guarded_merges") == 1);
    std::unique_ptr<Module> M2 = test::parseModule(Ctx, ReverseOfSelfAdd);
    std::string Before = printed(wrap(M2.get()));
    C = optimizeDerivatives(wrap(M2.get()),
                            "order=generated;accumulation=separate");
    REQUIRE(C.Status == IRSStatusOk);
    CHECK(printed(wrap(M2.get())) == Before);
  }
  SECTION("bad options and broken modules are refused untouched") {
    std::unique_ptr<Module> M = test::parseModule(Ctx, ReverseOfSelfAdd);
    std::string Before = printed(wrap(M.get()));
    Call C = optimizeDerivatives(wrap(M.get()), "accumulation=fused");
    CHECK(C.Status == IRSStatusUsage);
    CHECK_FALSE(C.HasJSON);
    CHECK(C.Message.find("unknown option 'accumulation=fused'") !=
          std::string::npos);
    std::unique_ptr<Module> Broken = brokenBundledCall(Ctx);
    CHECK(optimizeDerivatives(wrap(Broken.get()), "").Status ==
          IRSStatusBadInput);
    CHECK(printed(wrap(M.get())) == Before);
    CHECK(optimizeDerivatives(nullptr, "").Status == IRSStatusUsage);
  }
}

namespace {

/// The .ll files of a test input folder, sorted.
std::vector<std::string> inputFiles(StringRef Dir) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).ends_with(".ll"))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

bool verifies(LLVMModuleRef M) { return !verifyModule(*unwrap(M), &errs()); }

} // namespace

TEST_CASE("C API: forged stash records are lost bundles, never a crash or a "
          "broken module",
          "[CAPI]") {
  // The inputs of tools/restore/forged-records.test (issue 21, defects 1-6)
  // and tools/ir-sanitize/required-bundles.test (defect 17): a crash here is
  // a crash of the host.
  std::vector<std::string> Files =
      inputFiles(sourcePath("tests/lit/tools/restore/Inputs/forged"));
  for (const std::string &F : inputFiles(
           sourcePath("tests/lit/tools/ir-sanitize/Inputs/required-bundles")))
    Files.push_back(F);
  REQUIRE(Files.size() >= 10);
  for (const std::string &File : Files) {
    INFO(File);
    // Restore alone, then each policy followed by restore.
    for (const char *Policy :
         {(const char *)nullptr, "", "scope=all",
          "scope=all;deopt=drop;gc-live=drop;gc-transition=drop"}) {
      INFO((Policy ? Policy : "(restore only)"));
      LLVMContextRef Ctx = LLVMContextCreate();
      LLVMModuleRef M = parseFile(Ctx, File.c_str());
      if (Policy) {
        Call C = normalize(M, Policy);
        CHECK((C.Status == IRSStatusOk || C.Status == IRSStatusFindings));
        CHECK(verifies(M));
      }
      Call R = restore(M);
      CHECK((R.Status == IRSStatusOk || R.Status == IRSStatusFindings));
      CHECK(verifies(M));
      LLVMDisposeModule(M);
      LLVMContextDispose(Ctx);
    }
  }
}
