//===- ToolError.h - An error that carries an exit code ---------*- C++ -*-===//
//
// Every failure of an ir-sanitize command ends in one of the codes of
// ExitCodes.def (the ExitCode enum) with one line on stderr. Library code
// reports failures as llvm::Error carrying a ToolError and prints nothing;
// the front ends decide how to print them (reportError in
// src/tools/ir-sanitize/Commands.h).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_TOOLERROR_H
#define IR_SANITIZE_SUPPORT_TOOLERROR_H

#include "ir-sanitize/Support/ExitCode.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irs {

/// An error that ends the tool with a given exit code and a one-line message.
class ToolError : public llvm::ErrorInfo<ToolError> {
public:
  static char ID;
  ToolError(ExitCode Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override { OS << Message; }
  std::error_code convertToErrorCode() const override;
  ExitCode code() const { return Code; }
  std::string message() const override { return Message; }

private:
  ExitCode Code;
  std::string Message;
};

inline llvm::Error makeToolError(ExitCode Code, const llvm::Twine &Message) {
  return llvm::make_error<ToolError>(Code, Message.str());
}

/// The exit code of one error: a ToolError's own, else \p Default. Of
/// several joined errors the first one's decides (reportError, asToolError).
ExitCode exitCodeOf(const llvm::ErrorInfoBase &EI, ExitCode Default);

/// \p E (not success) as one ToolError, to keep beside a result: the
/// first error's code where it is a ToolError, else \p Default; the
/// messages of several joined by "; ".
ToolError asToolError(llvm::Error E, ExitCode Default);

} // namespace irs

#endif
