#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/ToolError.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("BundlePolicy defaults: jl_roots keep, gc-transition lower, "
          "others stash",
          "[BundlePolicy]") {
  BundlePolicy P;
  CHECK(P.actionFor("jl_roots") == BundleAction::Keep);
  CHECK(P.actionFor("gc-transition") == BundleAction::Lower);
  CHECK(P.actionFor("julia.gc_alloc_ptr_offsets") == BundleAction::Stash);
  CHECK(P.actionFor("deopt") == BundleAction::Stash);
  CHECK(P.Scope == BundleScope::CCalls);
}

TEST_CASE("BundlePolicy settings override the defaults", "[BundlePolicy]") {
  BundlePolicy P;
  REQUIRE(succeeded(P.applySetting("gc-transition=stash")));
  REQUIRE(succeeded(P.applySetting("jl_roots=drop")));
  REQUIRE(succeeded(P.applySetting("my=tag=keep"))); // The last '=' separates.
  CHECK(P.actionFor("gc-transition") == BundleAction::Stash);
  CHECK(P.actionFor("jl_roots") == BundleAction::Drop);
  CHECK(P.actionFor("my=tag") == BundleAction::Keep);
}

TEST_CASE("BundlePolicy rejects malformed settings as usage errors",
          "[BundlePolicy]") {
  BundlePolicy P;
  CHECK(codeOf(P.applySetting("jl_roots=lower")) == ExitCode::Usage);
  CHECK(codeOf(P.applySetting("gc-transition=explode")) == ExitCode::Usage);
  CHECK(codeOf(P.applySetting("gc-transition")) == ExitCode::Usage);
  CHECK(codeOf(P.applySetting("=keep")) == ExitCode::Usage);
  CHECK(codeOf(P.applySetting("gc-transition=")) == ExitCode::Usage);
  // Nothing was applied.
  CHECK(P.actionFor("gc-transition") == BundleAction::Lower);
}

TEST_CASE("BundlePolicy refuses one tag given two different actions",
          "[BundlePolicy]") {
  BundlePolicy P;
  REQUIRE(succeeded(P.applySetting("gc-transition=lower")));
  REQUIRE(succeeded(P.applySetting("gc-transition=lower"))); // Same: fine.
  Error Conflict = P.applySetting("gc-transition=drop");
  std::string Message = toString(std::move(Conflict));
  CHECK(Message.find("'gc-transition=lower'") != std::string::npos);
  CHECK(Message.find("'gc-transition=drop'") != std::string::npos);
  CHECK(codeOf(P.applySetting("gc-transition=drop")) == ExitCode::Usage);
  CHECK(P.actionFor("gc-transition") == BundleAction::Lower);
  // A setting that only repeats a default is still a setting.
  REQUIRE(succeeded(P.applySetting("jl_roots=keep")));
  CHECK(codeOf(P.applySetting("jl_roots=stash")) == ExitCode::Usage);
  // Other tags are independent.
  REQUIRE(succeeded(P.applySetting("deopt=drop")));

  auto Params = BundlePolicy::fromPassParameters(
      "gc-transition=lower;gc-transition=drop");
  REQUIRE_FALSE(static_cast<bool>(Params));
  CHECK(codeOf(Params.takeError()) == ExitCode::Usage);
  auto Same =
      BundlePolicy::fromPassParameters("gc-transition=drop;gc-transition=drop");
  REQUIRE(static_cast<bool>(Same));
  CHECK(Same->actionFor("gc-transition") == BundleAction::Drop);
}

TEST_CASE("BundlePolicy messages name the setting, not a command-line flag",
          "[BundlePolicy]") {
  for (const char *Setting : {"=stash", "gc-transition", "gc-transition=",
                              "jl_roots=lower", "gc-transition=explode"}) {
    BundlePolicy P;
    std::string Message = toString(P.applySetting(Setting));
    INFO(Message);
    CHECK_FALSE(Message.empty());
    CHECK(Message.find("--") == std::string::npos);
  }
  BundlePolicy P;
  CHECK(toString(P.applySetting("=stash")) ==
        "expected TAG=ACTION, got '=stash'");
}

TEST_CASE("BundlePolicy parses opt pass parameters", "[BundlePolicy]") {
  auto P = BundlePolicy::fromPassParameters("gc-transition=stash;scope=all");
  REQUIRE(static_cast<bool>(P));
  CHECK(P->Scope == BundleScope::All);
  CHECK(P->actionFor("gc-transition") == BundleAction::Stash);
  auto Empty = BundlePolicy::fromPassParameters("");
  REQUIRE(static_cast<bool>(Empty));
  CHECK(Empty->actionFor("gc-transition") == BundleAction::Lower);
  auto Bad = BundlePolicy::fromPassParameters("scope=some");
  REQUIRE_FALSE(static_cast<bool>(Bad));
  CHECK(codeOf(Bad.takeError()) == ExitCode::Usage);
}

TEST_CASE("any tag round-trips through pass parameters", "[BundlePolicy]") {
  // The syntax's characters, the keyword, a quote, control bytes, '%XX'
  // that is already text, '=' at either end.
  for (const char *Tag :
       {"scope", "scope=", "a;b", "a,b", "f(x)", "<t>", "it's", "tab\tx",
        "%73cope", "100%", "=x", "x=", "Scope", "scopes", "\x01"}) {
    INFO(Tag);
    BundlePolicy P;
    P.setAction(Tag, BundleAction::Drop);
    P.setAction("jl_roots", BundleAction::Stash);
    P.Scope = BundleScope::All;
    std::string Text = P.toPassParameters();
    Expected<BundlePolicy> Back = BundlePolicy::fromPassParameters(Text);
    REQUIRE(static_cast<bool>(Back));
    CHECK(*Back == P);
    CHECK(Back->actionFor(Tag) == BundleAction::Drop);
  }
  BundlePolicy Scope;
  Scope.setAction("scope", BundleAction::Keep);
  CHECK(Scope.toPassParameters() == "%73cope=keep");
}

TEST_CASE("Action and scope names round-trip", "[BundlePolicy]") {
  REQUIRE(bundleActions().size() == 4);
  for (BundleAction A : bundleActions())
    CHECK(parseActionName(actionName(A)) == A);
  CHECK(parseScopeName("all") == BundleScope::All);
  CHECK(parseScopeName("ccalls") == BundleScope::CCalls);
  CHECK_FALSE(parseScopeName("intrinsics"));
}

TEST_CASE("BundleTags.def: every tag row is what the policy and check read",
          "[BundlePolicy]") {
  // The three headline tags are rows of the table, not literals elsewhere.
  std::vector<std::string> Tags;
  for (const BundleTagInfo &Info : knownBundleTags()) {
    Tags.push_back(Info.Tag.str());
    CHECK(&bundleTagInfo(Info.Tag) == &Info);
    CHECK(BundlePolicy().actionFor(Info.Tag) == Info.DefaultAction);
  }
  CHECK(Tags == std::vector<std::string>{"jl_roots", "gc-transition",
                                         "julia.gc_alloc_ptr_offsets"});
  CHECK(bundleTagInfo("deopt").Tag.empty());
  CHECK(knownEnzymeSupport("gc-transition") == KnownEnzymeSupport::SincePR2906);
  CHECK(knownEnzymeSupport("julia.gc_alloc_ptr_offsets") ==
        KnownEnzymeSupport::NoEnzyme);
  CHECK_FALSE(enzymeSupportInfo(knownEnzymeSupport("jl_roots")).Blocking);
  CHECK(enzymeSupportInfo(KnownEnzymeSupport::NoEnzyme).Blocking);
  // `lower` is defined where the row says so, and refused elsewhere.
  BundlePolicy P;
  CHECK(succeeded(P.applySetting("gc-transition=lower")));
  CHECK_FALSE(succeeded(P.applySetting("julia.gc_alloc_ptr_offsets=lower")));
}

TEST_CASE("BundleTags.def: the words every help text lists", "[BundlePolicy]") {
  CHECK(actionNameList("|", "|") == "keep|drop|stash|lower");
  CHECK(actionNameList(", ", " or ") == "keep, drop, stash or lower");
  CHECK(defaultActionsDescription() ==
        "jl_roots=keep, gc-transition=lower, others stash");
  CHECK(actionPastTense(BundleAction::Lower) == "lowered");
  CHECK(actionStillDone(BundleAction::Keep).empty());
  // The pass table's parameter syntax is a literal (a .def row): it must
  // spell the actions as the table does.
  bool Found = false;
  for (const RegisteredPass &Pass : registeredPasses())
    if (StringRef(Pass.Name) == "ir-sanitize-bundles") {
      Found = true;
      CHECK(StringRef(Pass.Params)
                .contains("TAG=" + actionNameList("|", "|") + ";"));
    }
  CHECK(Found);
}
