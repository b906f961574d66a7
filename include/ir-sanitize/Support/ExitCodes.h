//===- ExitCodes.h - Documented exit codes and tool errors ------*- C++ -*-===//
//
// Every failure of an ir-sanitize command ends in one of the codes of
// ExitCode.h with one line on stderr. Library code reports failures as
// llvm::Error carrying a ToolError, so that the drivers decide how to print
// them.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_EXITCODES_H
#define IR_SANITIZE_SUPPORT_EXITCODES_H

#include "ir-sanitize/Support/ExitCode.h"

#include "llvm/ADT/StringRef.h"
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

/// \p Name (a user-given or IR name) as it appears in a one-line message:
/// a backslash doubled, every other byte outside printable ASCII as \XX
/// (two hex digits, as LLVM IR spells them), so that a name with newlines or
/// terminal escape sequences can neither break nor forge a message line.
std::string escapeForMessage(llvm::StringRef Name);

/// Prints `<tool>: error: <message>` (one line) for every error in \p E and
/// returns the exit code of the first one; plain llvm errors map to \p Default.
int reportError(llvm::Error E, llvm::StringRef Tool,
                ExitCode Default = ExitCode::BadInput);

} // namespace irs

#endif
