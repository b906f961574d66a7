//===- ToolError.cpp - An error that carries an exit code -----------------===//
#include "ir-sanitize/Support/ToolError.h"

#include <optional>

using namespace llvm;

namespace irs {

char ToolError::ID = 0;

std::error_code ToolError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

ExitCode exitCodeOf(const ErrorInfoBase &EI, ExitCode Default) {
  return EI.isA<ToolError>() ? static_cast<const ToolError &>(EI).code()
                             : Default;
}

ToolError asToolError(Error E, ExitCode Default) {
  std::optional<ExitCode> Code;
  std::string Message;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    if (!Code)
      Code = exitCodeOf(EI, Default);
    Message += (Message.empty() ? "" : "; ") + EI.message();
  });
  assert(Code && "asToolError of success");
  return ToolError(Code.value_or(Default), std::move(Message));
}

} // namespace irs
