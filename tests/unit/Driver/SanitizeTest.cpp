#include "../Enzyme/EnzymeTestUtils.h"
#include "../TestSupport.h"

#include "ir-sanitize/Driver/Sanitize.h"
#include "ir-sanitize/Support/ToolError.h"
#include "ir-sanitize/Transforms/KernelSplat.h"

#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;
using namespace irs;

namespace {

const char *const EscapingKernel = R"(
%Pair = type { ptr addrspace(1), { i32, double } }
@keep = global ptr @escapes
define void @escapes(%Pair %p) {
  ret void
}
define void @splat_me(%Pair %p) {
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @escapes, !"kernel", i32 1}
!1 = !{ptr @splat_me, !"kernel", i32 1}
)";

std::vector<std::string> filesIn(StringRef Dir) {
  std::vector<std::string> Names;
  for (const std::string &Path : test::entriesOf(Dir))
    Names.push_back(sys::path::filename(Path).str());
  return Names;
}

} // namespace

TEST_CASE("sanitizeModule returns the splat's notes instead of printing",
          "[Driver]") {
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, EscapingKernel);
  Expected<SanitizeResult> R = sanitizeModule(*M, SanitizeConfig());
  REQUIRE(static_cast<bool>(R));
  REQUIRE(R->Notes.size() == 1);
  CHECK(R->Notes[0] == "kernel 'escapes' is not splatted: its address is "
                       "used other than by direct (non-musttail) calls");
  REQUIRE(R->Manifest.Kernels.size() == 1);
  CHECK(R->summary() == "0 bundles on 0 call sites: lowered 0, stashed 0, "
                        "dropped 0, kept 0; splatted 1 kernel (1 parameters "
                        "into 3)");
  std::string Text;
  raw_string_ostream OS(Text);
  R->printReport(OS, "in.ll");
  Expected<json::Value> Report = json::parse(Text);
  REQUIRE(static_cast<bool>(Report));
  CHECK(*Report->getAsObject()->getString("input") == "in.ll");
}

TEST_CASE("the streamed report prints as the JSON value it holds", "[Driver]") {
  // The report is streamed in the key order json::Object prints (sorted):
  // reading it back and printing the value must give the same text.
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, R"(
declare void @g(ptr)
define void @f(ptr %p) {
  call void @g(ptr %p) [ "jl_roots"(ptr %p), "gc-transition"() ]
  call void @g(ptr %p) [ "zz-unknown"(ptr %p), "gc-transition"(ptr %p) ]
  ret void
}
define void @h(ptr %p) {
  call void @g(ptr %p) [ "gc-transition"() ]
  ret void
}
)");
  SanitizeConfig Config;
  Config.Policy.Scope = BundleScope::All;
  Expected<SanitizeResult> R = sanitizeModule(*M, Config);
  REQUIRE(static_cast<bool>(R));
  std::string Text;
  raw_string_ostream OS(Text);
  R->printReport(OS, "in \"quoted\".ll");
  Expected<json::Value> Report = json::parse(Text);
  REQUIRE(static_cast<bool>(Report));
  CHECK(formatv("{0:2}", *Report).str() + "\n" == Text);
  const json::Object &Totals = *Report->getAsObject()->getObject("totals");
  CHECK(*Totals.getInteger("bundles") == 5);
  CHECK(*Totals.getInteger("call_sites") == 3);
  CHECK(Report->getAsObject()->getArray("functions")->size() == 2);
}

TEST_CASE("sanitizeModule without the splat", "[Driver]") {
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, EscapingKernel);
  SanitizeConfig Config;
  Config.Splat = false;
  Expected<SanitizeResult> R = sanitizeModule(*M, Config);
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Notes.empty());
  CHECK(R->Manifest.Kernels.empty());
  CHECK(M->getFunction("splat_me")->arg_size() == 1);
  CHECK(defaultManifestPath(*R, "", "out.ll") == "");
}

TEST_CASE("An unknown kernel name comes back escaped, in one line",
          "[Driver]") {
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, EscapingKernel);
  SanitizeConfig Config;
  Config.Kernels = {"evil\n\x1b[31mname\\"};
  Expected<SanitizeResult> R = sanitizeModule(*M, Config);
  REQUIRE(!R);
  std::string Msg = toString(R.takeError());
  CHECK(Msg.find('\n') == std::string::npos);
  CHECK(Msg.find('\x1b') == std::string::npos);
  CHECK(Msg.find("no kernel named 'evil\\0A\\1B[31mname\\\\'") !=
        std::string::npos);
}

TEST_CASE("writeSanitizeOutputs writes module and manifest together or "
          "neither",
          "[Driver]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-driver-out", Dir));
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, EscapingKernel);
  Expected<SanitizeResult> R = sanitizeModule(*M, SanitizeConfig());
  REQUIRE(static_cast<bool>(R));
  SanitizeOutputs Out;
  Out.Module = (Dir + "/out.ll").str();
  CHECK(defaultManifestPath(*R, "", Out.Module) ==
        Out.Module + ".manifest.json");

  SECTION("a manifest that is a directory") {
    Out.Manifest = Dir.str().str();
    CHECK(test::codeOf(writeSanitizeOutputs(*M, *R, Out)) ==
          ExitCode::OutputError);
    CHECK(filesIn(Dir).empty());
  }
  SECTION("a manifest on a full device") {
    Out.Manifest = "/dev/full";
    CHECK(test::codeOf(writeSanitizeOutputs(*M, *R, Out)) ==
          ExitCode::OutputError);
    CHECK(filesIn(Dir).empty());
  }
  SECTION("a report that cannot be written") {
    Out.Manifest = (Dir + "/m.json").str();
    Out.Report = (Dir + "/no/such/r.json").str();
    CHECK(test::codeOf(writeSanitizeOutputs(*M, *R, Out)) ==
          ExitCode::OutputError);
    CHECK(filesIn(Dir).empty());
  }
  SECTION("all writable") {
    Out.Manifest = (Dir + "/m.json").str();
    Out.Report = (Dir + "/r.json").str();
    REQUIRE(test::codeOf(writeSanitizeOutputs(*M, *R, Out)) == ExitCode::Ok);
    std::vector<std::string> Files = filesIn(Dir);
    std::sort(Files.begin(), Files.end());
    CHECK(Files == std::vector<std::string>{"m.json", "out.ll", "r.json"});
  }
  sys::fs::remove_directories(Dir);
}

TEST_CASE("runSanitize reads, sanitizes and writes; notes go to the handler",
          "[Driver][Sanitize]") {
  test::WorkDir Dir("irs-sanitize-job");
  SanitizeRequest Req;
  Req.Input = Dir.write("in.ll", EscapingKernel);
  Req.Output = Dir.path("out.ll");
  Req.ReportPath = Dir.path("report.json");
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<SanitizeJobResult> Job = runSanitize(Req, Ctx, Diags);
  REQUIRE(static_cast<bool>(Job));
  CHECK(Job->InputName == Req.Input);
  CHECK(Job->Module);
  CHECK(Diags.of(DiagnosticKind::Note) ==
        std::vector<std::string>{
            "kernel 'escapes' is not splatted: its address is used other "
            "than by direct (non-musttail) calls"});
  CHECK(Diags.of(DiagnosticKind::Progress) ==
        std::vector<std::string>{Req.Input + ": " + Job->Result.summary()});
  CHECK(Diags.of(DiagnosticKind::Warning).empty());
  // The manifest goes next to a file output without --manifest.
  CHECK(filesIn(Dir.Dir).size() == 4);
  CHECK(sys::fs::exists(Dir.path("out.ll.manifest.json")));
  CHECK(sys::fs::exists(Dir.path("report.json")));
}

TEST_CASE("runSanitize writes nothing after an error", "[Driver][Sanitize]") {
  test::WorkDir Dir("irs-sanitize-job");
  SanitizeRequest Req;
  Req.Input = Dir.write("in.ll", EscapingKernel);
  Req.Output = Dir.path("out.ll");
  Req.Config.Kernels = {"nope"};
  LLVMContext Ctx;
  CollectingDiagnosticHandler Diags;
  Expected<SanitizeJobResult> Job = runSanitize(Req, Ctx, Diags);
  CHECK(test::codeOf(Job.takeError()) == ExitCode::Usage);
  CHECK(filesIn(Dir.Dir) == std::vector<std::string>{"in.ll"});
  CHECK(Diags.Messages.empty());

  Req.Input = Dir.path("missing.ll");
  Expected<SanitizeJobResult> Missing = runSanitize(Req, Ctx, Diags);
  CHECK(test::codeOf(Missing.takeError()) == ExitCode::BadInput);
}

TEST_CASE("splatModule is the splat pass through the pipeline, as "
          "splatKernels does it",
          "[Sanitize]") {
  const std::string Path =
      irs::test::sourcePath("examples/kernels/bcast_add_2d.ll");
  // Two contexts: one would rename the second module's struct types.
  LLVMContext Ctx, Ctx2;
  SMDiagnostic Diag;
  std::unique_ptr<Module> ViaPipeline = parseIRFile(Path, Diag, Ctx);
  std::unique_ptr<Module> Direct = parseIRFile(Path, Diag, Ctx2);
  REQUIRE(ViaPipeline);
  REQUIRE(Direct);
  Expected<LaunchManifest> A = splatModule(*ViaPipeline, {});
  Expected<LaunchManifest> B = splatKernels(*Direct, SplatOptions());
  REQUIRE(static_cast<bool>(A));
  REQUIRE(static_cast<bool>(B));
  std::string TextA, TextB;
  raw_string_ostream OSA(TextA), OSB(TextB);
  A->printFile(OSA);
  B->printFile(OSB);
  CHECK(TextA == TextB);
  CHECK_FALSE(A->Kernels.empty());
  // An unknown kernel is the user's mistake, with its exit code.
  Expected<LaunchManifest> Unknown = splatModule(*Direct, {"nope"});
  REQUIRE_FALSE(static_cast<bool>(Unknown));
  CHECK(test::codeOf(Unknown.takeError()) == ExitCode::Usage);
}
