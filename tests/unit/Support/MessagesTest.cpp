#include "ir-sanitize/Support/Messages.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

TEST_CASE("escapeForMessage keeps a name on one printable line", "[Messages]") {
  CHECK(escapeForMessage("julia_f_12#3") == "julia_f_12#3");
  CHECK(escapeForMessage("a\\b") == "a\\\\b");
  CHECK(escapeForMessage("a\nb") == "a\\0Ab");
  CHECK(escapeForMessage(StringRef("a\n\x1b[0m\0z", 8)) == "a\\0A\\1B[0m\\00z");
}

TEST_CASE("firstLine keeps the first line without trailing blanks",
          "[Messages]") {
  CHECK(firstLine("one  \ntwo") == "one");
  CHECK(firstLine("only") == "only");
  CHECK(firstLine("") == "");
}

TEST_CASE("keepOnOneLine escapes control bytes but never escapes twice",
          "[Messages]") {
  CHECK(keepOnOneLine("a\nb\x1b[0m") == "a\\0Ab\\1B[0m");
  std::string Escaped = escapeForMessage("evil\nname\\");
  CHECK(keepOnOneLine("'" + Escaped + "' in x") == "'" + Escaped + "' in x");
  CHECK(keepOnOneLine("plain \\ text") == "plain \\ text");
}

TEST_CASE("messages cut long user text at a bound, saying how long it was",
          "[Messages]") {
  std::string Name(100 * 1024, 'k');
  std::string Quoted = escapeForMessage(Name);
  CHECK(Quoted == std::string(MaxQuotedBytes, 'k') + "... (102400 bytes)");
  CHECK(escapeForMessage(std::string(MaxQuotedBytes, 'k')) ==
        std::string(MaxQuotedBytes, 'k'));
  // Cut before escaping: no \XX is split, and the escaped form is bounded.
  std::string Controls(MaxQuotedBytes + 1, '\n');
  CHECK(escapeForMessage(Controls).size() ==
        3 * MaxQuotedBytes + std::string("... (513 bytes)").size());
  std::string Line = keepOnOneLine("unknown option '" + Name + "'");
  CHECK(Line.size() < MaxMessageBytes + 32);
  CHECK(Line.find("... (102417 bytes)") != std::string::npos);
}
