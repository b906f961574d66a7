//===- PassParameters.cpp - Values inside a pass's <...> ------------------===//
#include "ir-sanitize/Support/PassParameters.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace irs {

std::string escapePassParameter(StringRef Value) {
  std::string Out;
  for (char C : Value) {
    // The pipeline syntax's characters, blanks, control bytes, and the quote
    // that would end the shell's -passes='...' a printed pipeline goes in.
    auto Byte = static_cast<unsigned char>(C);
    if (StringRef(",;<>()=%' ").contains(C) || Byte < 0x20 || Byte == 0x7f) {
      Out += '%';
      Out += hexdigit((C >> 4) & 0xF);
      Out += hexdigit(C & 0xF);
    } else {
      Out += C;
    }
  }
  return Out;
}

std::string unescapePassParameter(StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    unsigned Hi, Lo;
    if (Text[I] == '%' && I + 2 < Text.size() &&
        (Hi = hexDigitValue(Text[I + 1])) != -1U &&
        (Lo = hexDigitValue(Text[I + 2])) != -1U) {
      Out += static_cast<char>(Hi * 16 + Lo);
      I += 2;
    } else {
      Out += Text[I];
    }
  }
  return Out;
}

void printPassParameters(raw_ostream &OS, ArrayRef<std::string> Settings) {
  if (!Settings.empty())
    OS << '<' << join(Settings, ";") << '>';
}

} // namespace irs
