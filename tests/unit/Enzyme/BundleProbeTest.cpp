#include "ir-sanitize/Enzyme/BundleProbe.h"
#include "EnzymeTestUtils.h"
#include "TestSupport.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdlib>
#include <functional>

#include <sys/stat.h>
#include <unistd.h>

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

BundleShape shape(StringRef Tag, std::vector<std::string> Types = {},
                  std::vector<std::string> Operands = {}) {
  BundleShape S;
  S.Tag = Tag.str();
  S.OperandTypes = std::move(Types);
  S.Operands = std::move(Operands);
  return S;
}

/// Lines in \p File (0 if it does not exist).
size_t linesIn(const std::string &File) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
  return Buf ? (*Buf)->getBuffer().count('\n') : 0;
}

/// Sets an environment variable for the children of one test case.
struct ScopedEnv {
  std::string Name;
  ScopedEnv(const char *Name, const std::string &Value) : Name(Name) {
    ::setenv(Name, Value.c_str(), 1);
  }
  ~ScopedEnv() { ::unsetenv(Name.c_str()); }
};

ProbeOptions probeOptions(const WorkDir &W, StringRef Plugin) {
  ProbeOptions Opts;
  Opts.PluginPath = Plugin.str();
  Opts.CacheDir = W.path("cache");
  Opts.WorkDir = W.Dir.str().str();
  Opts.TimeoutSeconds = 60;
  return Opts;
}

} // namespace

TEST_CASE("probeModuleText: a valid module whose differentiated call carries "
          "the bundle",
          "[BundleProbe]") {
  BundleShape S = shape("odd\"tag", {"ptr addrspace(10)", "%Box"},
                        {"ptr addrspace(10) null", "%Box zeroinitializer"});
  S.TypeDefinitions = {"%Box = type { i64, %Inner }", "%Inner = type { i8 }"};
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(probeModuleText(S), Err, Ctx);
  REQUIRE(M);
  CHECK_FALSE(verifyModule(*M, &errs()));
  CallBase *Call =
      firstCallTo(*M->getFunction("irs.probe.f"), "irs.probe.callee");
  REQUIRE(Call);
  REQUIRE(Call->getNumOperandBundles() == 1);
  CHECK(Call->getOperandBundleAt(0).getTagName() == "odd\"tag");
  CHECK(Call->getOperandBundleAt(0).Inputs.size() == 2);
  CHECK(M->getFunction("__enzyme_fwddiff"));
  CHECK(M->getFunction("__enzyme_autodiff"));
}

TEST_CASE("probe cache: printed and read back; hostile files are refused",
          "[BundleProbe]") {
  ProbeCache C;
  C.SHA256 = std::string(64, 'a');
  C.Answers["\"gc-transition\"()"] = {ProbeVerdict::Accepted, "gc-transition",
                                      "", false, "q1"};
  C.Answers["\"x\"(ptr)"] = {ProbeVerdict::Rejected, "x",
                             "unsupported tag x for call", false, "q2"};
  Expected<ProbeCache> Back = parseProbeCache(printProbeCache(C), "c.json");
  REQUIRE(static_cast<bool>(Back));
  CHECK(Back->SHA256 == C.SHA256);
  REQUIRE(Back->Answers.size() == 2);
  const ProbeAnswer &X = Back->Answers.at("\"x\"(ptr)");
  CHECK(X.Verdict == ProbeVerdict::Rejected);
  CHECK(X.Tag == "x");
  CHECK(X.Detail == "unsupported tag x for call");
  CHECK(X.Question == "q2");
  CHECK(X.FromCache);

  auto Refused = [](StringRef Text) {
    Expected<ProbeCache> R = parseProbeCache(Text, "c.json");
    if (R)
      return std::string("accepted");
    std::string Msg = toString(R.takeError());
    CHECK(StringRef(Msg).starts_with("c.json: "));
    CHECK(Msg.find('\n') == std::string::npos);
    return Msg;
  };
  CHECK(Refused("not json") != "accepted");
  CHECK(Refused(std::string(100000, '[')) != "accepted");
  CHECK(Refused("[]").find("not a JSON object") != std::string::npos);
  CHECK(Refused(R"({"version": 1, "sha256": "a", "answers": {}})")
            .find("not a version 2") != std::string::npos);
  CHECK(Refused(R"({"version": 2, "answers": {}})").find("needs") !=
        std::string::npos);
  CHECK(Refused(R"({"version": 2, "sha256": "a", "answers": {"k": 1}})") !=
        "accepted");
  // Only definite answers are cached: "unknown" is never written.
  CHECK(Refused(R"({"version": 2, "sha256": "a", "answers": {"k":
      {"verdict": "unknown", "tag": "k", "question": "q"}}})")
            .find("not accepted/rejected") != std::string::npos);
  CHECK(Refused(R"({"version": 2, "sha256": "a", "answers": {"k":
      {"verdict": "accepted", "tag": "k", "question": "q", "detail": 3}}})") !=
        "accepted");
  // Every answer says which question it answers.
  CHECK(Refused(R"({"version": 2, "sha256": "a", "answers": {"k":
      {"verdict": "accepted", "tag": "k"}}})")
            .find("\"question\"") != std::string::npos);
}

TEST_CASE("identifyEnzymePlugin: the content's SHA-256", "[BundleProbe]") {
  WorkDir W;
  Expected<EnzymePluginIdentity> Id =
      identifyEnzymePlugin(W.write("p.so", "abc"));
  REQUIRE(static_cast<bool>(Id));
  CHECK(Id->SHA256 ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  Expected<EnzymePluginIdentity> Missing =
      identifyEnzymePlugin(W.path("none.so"));
  REQUIRE_FALSE(static_cast<bool>(Missing));
  CHECK(codeOf(Missing.takeError()) == ExitCode::NoEnzyme);
}

TEST_CASE("probeBundles asks the plugin once per shape, then the cache",
          "[BundleProbe]") {
  WorkDir W;
  ScopedEnv Accepts("FAKE_ENZYME_ACCEPTS", "jl_roots,gc-transition");
  ScopedEnv Runs("FAKE_ENZYME_RUNS", W.path("runs"));
  std::vector<BundleShape> Shapes = {
      shape("gc-transition"), shape("gc-transition", {"ptr"}, {"ptr null"}),
      shape("julia.gc_alloc_ptr_offsets", {"i64"}, {"i64 0"}),
      shape("gc-transition")}; // a repeat: asked once
  BundleShape Odd = shape("y", {"target(\"t\")"});
  Odd.Unprobeable = "operand type target(\"t\") has no constant";
  Shapes.push_back(Odd);
  ProbeOptions Opts = probeOptions(W, fakePlugin("FakeEnzymeStrict.so"));

  Expected<ProbeReport> First = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(First));
  CHECK(First->Probed == 3);
  CHECK(First->Cached == 0);
  CHECK(linesIn(W.path("runs")) == 3);
  CHECK(First->CacheProblem.empty());
  CHECK(First->answerFor(Shapes[0]).Verdict == ProbeVerdict::Accepted);
  CHECK(First->answerFor(Shapes[1]).Verdict == ProbeVerdict::Accepted);
  ProbeAnswer Alloc = First->answerFor(Shapes[2]);
  CHECK(Alloc.Verdict == ProbeVerdict::Rejected);
  CHECK(StringRef(Alloc.Detail)
            .starts_with("unsupported tag julia.gc_alloc_ptr_offsets"));
  CHECK(First->answerFor(Odd).Verdict == ProbeVerdict::Unknown);
  CHECK(First->tagsWith(ProbeVerdict::Accepted) ==
        std::vector<std::string>{"gc-transition"});
  CHECK(First->tagsWith(ProbeVerdict::Rejected) ==
        std::vector<std::string>{"julia.gc_alloc_ptr_offsets"});

  // The second run starts no child; the unprobeable shape is not cached.
  Expected<ProbeReport> Second = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(Second));
  CHECK(Second->Probed == 0);
  CHECK(Second->Cached == 3);
  CHECK(linesIn(W.path("runs")) == 3);
  CHECK(Second->answerFor(Shapes[2]).Verdict == ProbeVerdict::Rejected);
  CHECK(Second->answerFor(Shapes[2]).FromCache);
}

TEST_CASE("probeBundles: each plugin file has its own answers; a broken "
          "cache is rewritten",
          "[BundleProbe]") {
  WorkDir W;
  ScopedEnv Runs("FAKE_ENZYME_RUNS", W.path("runs"));
  std::vector<BundleShape> Shapes = {shape("gc-transition")};
  ProbeOptions Strict = probeOptions(W, fakePlugin("FakeEnzymeStrict.so"));
  ProbeOptions Noop = probeOptions(W, fakePlugin("FakeEnzymeNoop.so"));
  Expected<ProbeReport> S = probeBundles(Shapes, Strict);
  REQUIRE(static_cast<bool>(S));
  CHECK(S->answerFor(Shapes[0]).Verdict == ProbeVerdict::Rejected);
  Expected<ProbeReport> N = probeBundles(Shapes, Noop);
  REQUIRE(static_cast<bool>(N));
  CHECK(N->Probed == 1);
  CHECK(N->answerFor(Shapes[0]).Verdict == ProbeVerdict::Accepted);
  CHECK(S->CacheFile != N->CacheFile);

  W.write("cache/enzyme-probes/" + S->Plugin.SHA256 + ".json", "{broken");
  Expected<ProbeReport> Again = probeBundles(Shapes, Strict);
  REQUIRE(static_cast<bool>(Again));
  CHECK(Again->Probed == 1);
  CHECK(StringRef(Again->CacheProblem).contains("not valid JSON"));
  Expected<ProbeReport> Fixed = probeBundles(Shapes, Strict);
  REQUIRE(static_cast<bool>(Fixed));
  CHECK(Fixed->Probed == 0);
  CHECK(Fixed->CacheProblem.empty());
}

TEST_CASE("probeBundles: a cache that is a FIFO or a link to a device is "
          "refused, not read, and rewritten",
          "[BundleProbe]") {
  WorkDir W;
  ScopedEnv Runs("FAKE_ENZYME_RUNS", W.path("runs"));
  std::vector<BundleShape> Shapes = {shape("gc-transition")};
  ProbeOptions Strict = probeOptions(W, fakePlugin("FakeEnzymeStrict.so"));
  Expected<ProbeReport> First = probeBundles(Shapes, Strict);
  REQUIRE(static_cast<bool>(First));
  const std::string Cache = First->CacheFile;
  // A FIFO hung `check` (nothing ever writes to it); /dev/zero never ends.
  struct Hostile {
    const char *What;
    std::function<bool()> Make;
  };
  const Hostile Cases[] = {
      {"is a FIFO", [&] { return ::mkfifo(Cache.c_str(), 0600) == 0; }},
      {"is a device",
       [&] { return ::symlink("/dev/zero", Cache.c_str()) == 0; }},
  };
  for (const Hostile &H : Cases) {
    INFO(H.What);
    ::unlink(Cache.c_str());
    REQUIRE(H.Make());
    Expected<ProbeReport> Again = probeBundles(Shapes, Strict);
    REQUIRE(static_cast<bool>(Again));
    INFO(Again->CacheProblem);
    CHECK(StringRef(Again->CacheProblem).contains(H.What));
    CHECK(Again->answerFor(Shapes[0]).Verdict == ProbeVerdict::Rejected);
    // Rewritten as a regular file: the next run asks nothing.
    Expected<ProbeReport> Fixed = probeBundles(Shapes, Strict);
    REQUIRE(static_cast<bool>(Fixed));
    INFO(Fixed->CacheProblem);
    CHECK(Fixed->Probed == 0);
    CHECK(Fixed->CacheProblem.empty());
  }
}

TEST_CASE("probeBundles asks at most 64 shapes per run; the next run goes on",
          "[BundleProbe]") {
  WorkDir W;
  ScopedEnv Runs("FAKE_ENZYME_RUNS", W.path("runs"));
  std::vector<BundleShape> Shapes;
  for (int I = 0; I != 70; ++I)
    Shapes.push_back(shape("t" + std::to_string(I)));
  ProbeOptions Opts = probeOptions(W, fakePlugin("FakeEnzymeNoop.so"));
  Expected<ProbeReport> First = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(First));
  CHECK(First->Probed == 64);
  CHECK(First->answerFor(Shapes[63]).Verdict == ProbeVerdict::Accepted);
  ProbeAnswer Left = First->answerFor(Shapes[64]);
  CHECK(Left.Verdict == ProbeVerdict::Unknown);
  CHECK(StringRef(Left.Detail).starts_with("not asked: more than 64"));
  Expected<ProbeReport> Second = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(Second));
  CHECK(Second->Probed == 6);
  CHECK(Second->Cached == 64);
  CHECK(Second->answerFor(Shapes[69]).Verdict == ProbeVerdict::Accepted);
  CHECK(linesIn(W.path("runs")) == 70);
}

TEST_CASE("probeBundles: a plugin that hangs is no answer, after the limit",
          "[BundleProbe]") {
  WorkDir W;
  ProbeOptions Opts = probeOptions(W, fakePlugin("FakeEnzymeHang.so"));
  Opts.TimeoutSeconds = 1;
  std::vector<BundleShape> Shapes = {shape("x")};
  Expected<ProbeReport> R = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(R));
  ProbeAnswer A = R->answerFor(Shapes[0]);
  CHECK(A.Verdict == ProbeVerdict::Unknown);
  CHECK(StringRef(A.Detail).contains("timed out after 1 s"));
}

TEST_CASE("probeBundles: a plugin that fails otherwise gives no answer, and "
          "none is cached",
          "[BundleProbe]") {
  WorkDir W;
  ScopedEnv Runs("FAKE_ENZYME_RUNS", W.path("runs"));
  std::vector<BundleShape> Shapes = {shape("x")};
  // The Abort plugin always says "unsupported tag gc-transition": not an
  // answer about "x".
  ProbeOptions Opts = probeOptions(W, fakePlugin("FakeEnzymeAbort.so"));
  for (int Run = 0; Run != 2; ++Run) {
    Expected<ProbeReport> R = probeBundles(Shapes, Opts);
    REQUIRE(static_cast<bool>(R));
    CHECK(R->Probed == 1);
    ProbeAnswer A = R->answerFor(Shapes[0]);
    CHECK(A.Verdict == ProbeVerdict::Unknown);
    CHECK(StringRef(A.Detail).starts_with("the probe failed: aborted"));
  }
}

TEST_CASE("probeBundles on each real Enzyme: gc-transition only from PR #2906",
          "[BundleProbe]") {
  std::vector<EnzymeSnapshot> Snapshots = enzymeSnapshots();
  if (Snapshots.empty())
    IRS_SKIP("no Enzyme snapshot for this LLVM in ../shared/enzyme");
  std::vector<BundleShape> Shapes = {
      shape("jl_roots", {"ptr addrspace(10)"}, {"ptr addrspace(10) null"}),
      shape("gc-transition"), shape("gc-transition", {"ptr"}, {"ptr null"}),
      shape("julia.gc_alloc_ptr_offsets", {"i64"}, {"i64 8"})};
  for (const EnzymeSnapshot &E : Snapshots) {
    INFO("Enzyme " << E.Name << ": " << E.Plugin);
    WorkDir W;
    Expected<ProbeReport> R = probeBundles(Shapes, probeOptions(W, E.Plugin));
    REQUIRE(static_cast<bool>(R));
    CHECK(R->Probed == 4);
    CHECK(R->answerFor(Shapes[0]).Verdict == ProbeVerdict::Accepted);
    CHECK(R->answerFor(Shapes[3]).Verdict == ProbeVerdict::Rejected);
    // The snapshots' one difference: Enzyme PR #2906 (2026-06).
    ProbeVerdict GC = E.Name == "2025-02"   ? ProbeVerdict::Rejected
                      : E.Name == "2026-07" ? ProbeVerdict::Accepted
                                            : ProbeVerdict::Unknown;
    REQUIRE(GC != ProbeVerdict::Unknown);
    CHECK(R->answerFor(Shapes[1]).Verdict == GC);
    CHECK(R->answerFor(Shapes[2]).Verdict == GC);
  }
}

TEST_CASE("probeBundles: a cached answer to another question, or one a run "
          "contradicts, is asked again",
          "[BundleProbe]") {
  WorkDir W;
  ScopedEnv Runs("FAKE_ENZYME_RUNS", W.path("runs"));
  ScopedEnv Accepts("FAKE_ENZYME_ACCEPTS", "gc-transition");
  std::vector<BundleShape> Shapes = {shape("gc-transition")};
  ProbeOptions Opts = probeOptions(W, fakePlugin("FakeEnzymeStrict.so"));
  Expected<ProbeReport> First = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(First));
  CHECK(First->answerFor(Shapes[0]).Verdict == ProbeVerdict::Accepted);
  CHECK(First->answerFor(Shapes[0]).Question == probeQuestion(Shapes[0]));

  // The same answer filed under another question is not believed.
  std::string File = First->CacheFile;
  ProbeCache Forged{First->Plugin.SHA256, {}};
  Forged.Answers[Shapes[0].key()] = {ProbeVerdict::Accepted, "gc-transition",
                                     "", true, "another question"};
  W.write("cache/enzyme-probes/" + First->Plugin.SHA256 + ".json",
          printProbeCache(Forged));
  Expected<ProbeReport> Other = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(Other));
  CHECK(Other->OtherQuestion == 1);
  CHECK(Other->Probed == 1);
  CHECK(Other->Cached == 0);

  // The plugin now rejects the tag (as a forged "accepted" would be
  // contradicted): a run's abort names it, the answer is dropped and
  // asked again, and the cache keeps the new answer.
  ScopedEnv Rejects("FAKE_ENZYME_ACCEPTS", "none");
  EnzymeResult Run;
  Run.Outcome.How = ChildOutcome::Kind::Signalled;
  Run.Outcome.Signal = 6;
  Run.Diagnosis.Message = "unsupported tag gc-transition for %r = call ...";
  CHECK(rejectedTagIn(Run) == "gc-transition");
  Expected<ProbeReport> Stale = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(Stale));
  CHECK(Stale->answerFor(Shapes[0]).Verdict == ProbeVerdict::Accepted);
  std::vector<std::string> Contradicted =
      cachedAcceptsContradictedBy(*Stale, Run);
  REQUIRE(Contradicted == std::vector<std::string>{"gc-transition"});
  Opts.DistrustedTags.insert(Contradicted.begin(), Contradicted.end());
  Expected<ProbeReport> Again = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(Again));
  CHECK(Again->Distrusted == 1);
  CHECK(Again->Probed == 1);
  CHECK(Again->answerFor(Shapes[0]).Verdict == ProbeVerdict::Rejected);
  Opts.DistrustedTags.clear();
  Expected<ProbeReport> Kept = probeBundles(Shapes, Opts);
  REQUIRE(static_cast<bool>(Kept));
  CHECK(Kept->Probed == 0);
  CHECK(Kept->answerFor(Shapes[0]).Verdict == ProbeVerdict::Rejected);
  // A fresh answer is never "contradicted": only cached ones are doubted.
  CHECK(cachedAcceptsContradictedBy(*First, Run).empty());
}
