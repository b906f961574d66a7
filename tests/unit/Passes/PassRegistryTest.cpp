#include "../TestSupport.h"
#include "PassTestSupport.h"

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("every pass of PassRegistry.def parses by its name", "[Passes]") {
  const std::vector<RegisteredPass> &Passes = registeredPasses();
  REQUIRE(Passes.size() == 10);
  for (const RegisteredPass &P : Passes) {
    INFO(P.Name);
    std::string Text = P.Name;
    if (Text == "ir-sanitize-integer-pointer-args") // kernel= is required
      Text += "<kernel=k;arg=1>";
    if (Text == "ir-sanitize-derivative-wrapper") // and all of these
      Text += "<fn=f;mode=reverse;activity=dup.const>";
    if (StringRef(P.Unit) == "function")
      CHECK(parses("function(" + Text + ")"));
    CHECK(parses(Text));
  }
}

TEST_CASE("every pass of PassRegistry.def prints on one line", "[Passes]") {
  std::string Text;
  raw_string_ostream OS(Text);
  printRegisteredPasses(OS);
  for (const RegisteredPass &P : registeredPasses()) {
    INFO(P.Name);
    // NAME<PARAMS> is one word, so that the line reads as `WORD - TEXT`.
    CHECK(StringRef(P.Params).find_first_of(" \t") == StringRef::npos);
    CHECK_FALSE(StringRef(P.Description).empty());
    std::string Line = std::string("  ") + P.Name;
    if (*P.Params)
      Line += std::string("<") + P.Params + ">";
    Line += std::string(" - ") + P.Description + "\n";
    CHECK(Text.find(Line) != std::string::npos);
  }
  CHECK(
      StringRef(Text).starts_with("Module passes:\n  ir-sanitize-restore - "));
  CHECK(StringRef(Text).contains("\nFunction passes with params:\n  "
                                 "ir-sanitize-merge-accumulations<"
                                 "[reassociate-fp]> - "));
}

TEST_CASE("an invalid pass parameter is a warning and the element unknown",
          "[Passes]") {
  CollectingDiagnosticHandler Diags;
  CHECK_FALSE(parses("ir-sanitize-merge-accumulations<fast>", &Diags));
  CHECK_FALSE(parses("ir-sanitize-bundles<scope=everything>", &Diags));
  std::vector<std::string> W = Diags.of(irs::DiagnosticKind::Warning);
  REQUIRE(W.size() == 2);
  CHECK(W[0] == "ir-sanitize-merge-accumulations: unknown parameter 'fast' "
                "(expected reassociate-fp)");
  CHECK(W[1].rfind("ir-sanitize-bundles: unknown scope 'everything'", 0) == 0);
}

TEST_CASE("pass parameter values escape the pipeline syntax", "[Passes]") {
  for (const char *Name : {"plain", "a,b", "f(x)<y>;z=w", "100%", "a b"}) {
    std::string Escaped = escapePassParameter(Name);
    CHECK(Escaped.find_first_of(",;<>()= ") == std::string::npos);
    CHECK(unescapePassParameter(Escaped) == Name);
  }
  CHECK(escapePassParameter("a,b") == "a%2Cb");
}

TEST_CASE("runPipeline hands the splat's failure back with its exit code",
          "[Passes]") {
  LLVMContext Ctx;
  auto M = test::parseModule(Ctx, R"(
define ptx_kernel void @k({ i32, float } %a) {
  ret void
}
)");
  Error Failure = Error::success();
  LaunchManifest Manifest;
  PassSinks Sinks;
  Sinks.Splat.Manifest = &Manifest;
  Sinks.Splat.Failure = &Failure;
  REQUIRE_FALSE(
      errorToBool(runPipeline(*M, "ir-sanitize-splat<kernel=nope>", Sinks)));
  CHECK(test::codeOf(std::move(Failure)) == ExitCode::Usage);

  Failure = Error::success();
  REQUIRE_FALSE(
      errorToBool(runPipeline(*M, "ir-sanitize-splat<kernel=k>", Sinks)));
  CHECK_FALSE(errorToBool(std::move(Failure)));
  REQUIRE(Manifest.Kernels.size() == 1);
  CHECK(Manifest.Kernels[0].Params.size() == 2);
}
