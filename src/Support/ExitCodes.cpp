//===- ExitCodes.cpp ------------------------------------------------------===//
#include "ir-sanitize/Support/ExitCodes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

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

int reportError(Error E, StringRef Tool, ExitCode Default) {
  int Code = -1;
  handleAllErrors(
      std::move(E),
      [&](const ToolError &TE) {
        if (Code < 0)
          Code = static_cast<int>(TE.code());
        errs() << Tool << ": error: " << TE.message() << "\n";
      },
      [&](const ErrorInfoBase &EI) {
        if (Code < 0)
          Code = static_cast<int>(Default);
        errs() << Tool << ": error: " << EI.message() << "\n";
      });
  return Code < 0 ? static_cast<int>(Default) : Code;
}

} // namespace irs
