//===- Messages.cpp - Text fit for one-line messages ----------------------===//
#include "ir-sanitize/Support/Messages.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace irs {

std::string escapeForMessage(StringRef Name) {
  std::string Out;
  Out.reserve(Name.size());
  for (unsigned char C : Name) {
    if (C == '\\')
      Out += "\\\\";
    else if (isPrint(C))
      Out += C;
    else
      Out += '\\' + std::string(1, hexdigit(C >> 4)) + hexdigit(C & 15);
  }
  return Out;
}

std::string firstLine(StringRef Message) {
  return Message.split('\n').first.rtrim().str();
}

} // namespace irs
