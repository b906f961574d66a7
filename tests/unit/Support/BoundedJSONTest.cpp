#include "ir-sanitize/Support/BoundedJSON.h"
#include "ir-sanitize/Support/CheckedArithmetic.h"
#include "ir-sanitize/Support/JSONDepth.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {
std::string nested(unsigned Depth, const std::string &Inner = "") {
  return std::string(Depth, '[') + Inner + std::string(Depth, ']');
}
} // namespace

TEST_CASE("JSON deeper than the limit is recognised without parsing it",
          "[BoundedJSON]") {
  CHECK_FALSE(exceedsJSONDepth(nested(MaxJSONDepth)));
  CHECK(exceedsJSONDepth(nested(MaxJSONDepth + 1)));
  CHECK(exceedsJSONDepth(nested(50000)));
  CHECK(exceedsJSONDepth(R"({"a": )" + nested(MaxJSONDepth) + "}"));
  // Brackets inside strings, escaped quotes included, do not nest.
  std::string Brackets(1000, '[');
  CHECK_FALSE(exceedsJSONDepth(R"({"a": ")" + Brackets + R"("})"));
  CHECK_FALSE(exceedsJSONDepth(R"(["\"", ")" + Brackets + R"("])"));
  CHECK(exceedsJSONDepth(R"(["\\", )" + nested(MaxJSONDepth) + "]"));
  // Stray closing brackets cannot hide depth.
  CHECK(exceedsJSONDepth("]]]]" + nested(MaxJSONDepth + 1)));
}

TEST_CASE("parseBoundedJSON names the file and the problem", "[BoundedJSON]") {
  CHECK(static_cast<bool>(parseBoundedJSON(nested(MaxJSONDepth), "a.json")));
  auto Deep = parseBoundedJSON(nested(50000), "a.json");
  REQUIRE_FALSE(static_cast<bool>(Deep));
  CHECK(toString(Deep.takeError()) ==
        "a.json: JSON nested deeper than 64 levels");
  auto Bad = parseBoundedJSON("{", "b.json");
  REQUIRE_FALSE(static_cast<bool>(Bad));
  CHECK(test::codeOf(Bad.takeError()) == ExitCode::BadInput);
}

TEST_CASE("parseBoundedJSON refuses a key given twice in one object",
          "[BoundedJSON]") {
  auto Refusal = [](StringRef Text) {
    Expected<json::Value> V = parseBoundedJSON(Text, "c.json");
    return V ? std::string() : toString(V.takeError());
  };
  CHECK(Refusal(R"({"a": 1, "a": 2})") ==
        "c.json: not valid JSON: key 'a' appears twice in one object");
  // Escaped spellings of one key are one key.
  CHECK(Refusal(R"({"ab": 1, "\u0061b": 2})").find("key 'ab'") !=
        std::string::npos);
  CHECK(Refusal(R"({"x": [{"k": 1}, {"k": {"k": 2, "k": 3}}]})")
            .find("key 'k' appears twice") != std::string::npos);
  // The same key in different objects, and key-like values, are fine.
  CHECK(Refusal(R"({"k": {"k": 1}, "l": [{"k": "k"}, {"k": 2}]})").empty());
  CHECK(Refusal(R"({"a": "a", "b": ["a", "a"], "c": "\"a\""})").empty());
  CHECK(Refusal(R"([{"a": 1}, {"a": 1}])").empty());
}

TEST_CASE("checked arithmetic reports wrapping", "[BoundedJSON]") {
  uint64_t R;
  CHECK(checkedAdd(1, 2, R));
  CHECK(R == 3);
  CHECK_FALSE(checkedAdd(UINT64_MAX - 7, 8, R));
  CHECK_FALSE(checkedMul(4611686018427387904ULL, 4, R));
  CHECK(rangeFits(8, 8, 16));
  CHECK_FALSE(rangeFits(9, 8, 16));
  CHECK_FALSE(rangeFits(18446744073709551608ULL, 8, 104));
}
