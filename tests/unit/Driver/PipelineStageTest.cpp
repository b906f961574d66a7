#include "ir-sanitize/Driver/PipelineStage.h"

#include "CatchCompat.h"

using namespace irs;

TEST_CASE("a stage prints as OUTPUT: INPUT | COMMAND, with its note",
          "[PipelineStage]") {
  PipelineStage S{"enzyme", "sanitize", "opt -passes=enzyme", ""};
  CHECK(S.str() == "enzyme: sanitize | opt -passes=enzyme");
  S.Note = "in memory";
  CHECK(S.str() == "enzyme: sanitize | opt -passes=enzyme  # in memory");
  CHECK(optCommand("ir-sanitize-restore") ==
        "opt -passes='ir-sanitize-restore'");
}
