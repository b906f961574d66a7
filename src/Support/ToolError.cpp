//===- ToolError.cpp - An error that carries an exit code -----------------===//
#include "ir-sanitize/Support/ToolError.h"

using namespace llvm;

namespace irs {

char ToolError::ID = 0;

std::error_code ToolError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

} // namespace irs
