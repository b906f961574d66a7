#include "../TestSupport.h"

#include "ir-sanitize/Support/PassParameters.h"

using namespace irs;

TEST_CASE("pass parameter values escape the pipeline syntax", "[Support]") {
  for (const char *Name : {"plain", "a,b", "f(x)<y>;z=w", "100%", "a b"}) {
    std::string Escaped = escapePassParameter(Name);
    CHECK(Escaped.find_first_of(",;<>()= ") == std::string::npos);
    CHECK(unescapePassParameter(Escaped) == Name);
  }
  CHECK(escapePassParameter("a,b") == "a%2Cb");
}

TEST_CASE("pass parameter values can go inside a shell's single quotes",
          "[Support]") {
  std::string Odd = "it's\ttab\x01\x7f";
  std::string Escaped = escapePassParameter(Odd);
  CHECK(Escaped == "it%27s%09tab%01%7F");
  CHECK(unescapePassParameter(Escaped) == Odd);
  // Other bytes (UTF-8 names) stay as they are.
  CHECK(escapePassParameter("\xc3\xa9") == "\xc3\xa9");
}
