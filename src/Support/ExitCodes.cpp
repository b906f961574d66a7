//===- ExitCodes.cpp ------------------------------------------------------===//
#include "ir-sanitize/Support/ExitCodes.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace irs {

char ToolError::ID = 0;

std::error_code ToolError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

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

} // namespace irs
