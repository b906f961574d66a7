#include "ir-sanitize/Enzyme/Triage.h"
#include "EnzymeTestUtils.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

TEST_CASE("triage: original aborts, sanitised differentiates", "[Triage]") {
  WorkDir W;
  auto R =
      runTriage(enzymeRun(W, "original", fakePlugin("FakeEnzymeAbort.so"), 60),
                enzymeRun(W, "sanitized", fakePlugin("FakeEnzymeNoop.so"), 60));
  REQUIRE(static_cast<bool>(R));
  R->InputName = "dump.bc";
  R->Changes = {"1 bundles on 1 call sites: lowered 1"};
  CHECK_FALSE(R->Original.ok());
  CHECK(R->sanitizedOk());
  CHECK(R->verdict().rfind("fixed:", 0) == 0);
  std::string Table;
  raw_string_ostream OS(Table);
  printTriage(OS, *R);
  INFO(OS.str());
  CHECK(Table.find("Enzyme triage of dump.bc\n") == 0);
  CHECK(Table.find("  original   aborted (signal 6 (SIGABRT)): unsupported "
                   "tag gc-transition") != std::string::npos);
  CHECK(Table.find("log: " + W.path("original.log")) != std::string::npos);
  CHECK(Table.find("  sanitized  ok (") != std::string::npos);
  CHECK(Table.find("  changes    1 bundles on 1 call sites") !=
        std::string::npos);
  CHECK(Table.find("  verdict    fixed:") != std::string::npos);

  json::Value J = triageToJSON(*R);
  const json::Object *Obj = J.getAsObject();
  REQUIRE(Obj);
  CHECK(Obj->getBoolean("fixed") == true);
  CHECK(Obj->getBoolean("sanitized_ok") == true);
  CHECK(Obj->getString("input") == "dump.bc");
  const json::Object *Orig = Obj->getObject("original");
  REQUIRE(Orig);
  CHECK(Orig->getString("status") == "aborted");
  CHECK(Orig->getInteger("signal") == 6);
  CHECK(Orig->getString("signal_name") == "SIGABRT");
  CHECK(Orig->getString("where") == "GradientUtils.cpp:308");
  CHECK(Orig->getString("log") == W.path("original.log"));
  const json::Object *San = Obj->getObject("sanitized");
  REQUIRE(San);
  CHECK(San->getString("status") == "ok");
  CHECK(San->getInteger("exit_code") == 0);
  CHECK_FALSE(San->get("message"));
  REQUIRE(Obj->getArray("changes"));
  CHECK(Obj->getArray("changes")->size() == 1);
}

TEST_CASE("triage runs both sides at once, each with its time limit",
          "[Triage]") {
  WorkDir W;
  auto Begin = std::chrono::steady_clock::now();
  auto R =
      runTriage(enzymeRun(W, "original", fakePlugin("FakeEnzymeHang.so"), 2),
                enzymeRun(W, "sanitized", fakePlugin("FakeEnzymeHang.so"), 2));
  double Total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin)
          .count();
  REQUIRE(static_cast<bool>(R));
  CHECK(R->Original.Outcome.How == ChildOutcome::Kind::TimedOut);
  CHECK(R->Sanitized.Outcome.How == ChildOutcome::Kind::TimedOut);
  // Side by side: both limits ran out together, not one after the other.
  CHECK(Total < 3.5);
  CHECK(R->verdict().rfind("not fixed:", 0) == 0);
  CHECK_FALSE(R->sanitizedOk());
}

TEST_CASE("triage verdicts name a regression", "[Triage]") {
  TriageReport R;
  R.Original.Outcome.How = ChildOutcome::Kind::Exited;
  R.Sanitized.Outcome.How = ChildOutcome::Kind::Signalled;
  R.Sanitized.Outcome.Signal = 11;
  CHECK(R.verdict().rfind("REGRESSION", 0) == 0);
  R.Sanitized.Outcome.How = ChildOutcome::Kind::Exited;
  CHECK(R.verdict().rfind("ok:", 0) == 0);
}
