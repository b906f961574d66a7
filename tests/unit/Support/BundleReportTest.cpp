#include "ir-sanitize/Support/BundleReport.h"

#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {

/// Two functions, three call sites, one bundle of each action.
BundleReport sample() {
  BundleReport R;
  R.addCallSite({"f",
                 "cuInit",
                 {"lib.jl", 12, 5},
                 {{"gc-transition", 0, BundleAction::Lower, ""},
                  {"jl_roots", 1, BundleAction::Keep, ""}}});
  R.addCallSite({"f", "<indirect>", {}, {{"x", 2, BundleAction::Drop, ""}}});
  R.addCallSite(
      {"g", "h", {"a.jl", 3, 0}, {{"x", 0, BundleAction::Stash, "why"}}});
  return R;
}

/// The report as --report writes it: one object, attributes in key order.
std::string toJSON(const BundleReport &R) {
  std::string S;
  raw_string_ostream OS(S);
  json::OStream J(OS);
  J.object([&] {
    R.writeFunctions(J);
    R.writeTags(J);
    R.writeTotals(J);
  });
  return S;
}

} // namespace

TEST_CASE("counts and the one-line summary", "[BundleReport]") {
  BundleReport R = sample();
  CHECK(R.numBundles() == 4);
  CHECK(R.count(BundleAction::Lower) == 1);
  CHECK(R.count(BundleAction::Keep) == 1);
  CHECK(R.count(BundleAction::Drop) == 1);
  CHECK(R.count(BundleAction::Stash) == 1);
  CHECK(R.summary() == "4 bundles on 3 call sites: lowered 1, stashed 1, "
                       "dropped 1, kept 1");
  CHECK(BundleReport().summary() == "0 bundles on 0 call sites: lowered 0, "
                                    "stashed 0, dropped 0, kept 0");
}

TEST_CASE("source locations print with and without a column",
          "[BundleReport]") {
  CHECK(SourceLocation{"lib.jl", 12, 5}.str() == "lib.jl:12:5");
  CHECK(SourceLocation{"lib.jl", 12, 0}.str() == "lib.jl:12");
  CHECK(SourceLocation().str() == "");
  CHECK(SourceLocation().empty());
}

TEST_CASE("the JSON groups call sites by function, keys sorted",
          "[BundleReport]") {
  std::string Got = toJSON(sample());
  Expected<json::Value> Parsed = json::parse(Got);
  REQUIRE(static_cast<bool>(Parsed));
  // json::Value prints its objects with sorted keys: the streamed report
  // must already be in that order.
  std::string Reprinted;
  raw_string_ostream(Reprinted) << *Parsed;
  CHECK(Got == Reprinted);
  const json::Object &Root = *Parsed->getAsObject();
  const json::Array &Functions = *Root.getArray("functions");
  REQUIRE(Functions.size() == 2);
  CHECK(Functions[0].getAsObject()->getString("name") == "f");
  CHECK(Functions[0].getAsObject()->getArray("call_sites")->size() == 2);
  CHECK(Functions[1].getAsObject()->getString("name") == "g");
  CHECK(Root.getObject("tags")->getInteger("x") == 2);
  CHECK(Root.getObject("totals")->getInteger("call_sites") == 3);
  CHECK(Got.find("\"location\":\"lib.jl:12:5\"") != std::string::npos);
  CHECK(Got.find("\"note\":\"why\"") != std::string::npos);
}
