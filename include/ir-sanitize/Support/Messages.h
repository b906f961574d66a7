//===- Messages.h - Text made fit for one-line messages ---------*- C++ -*-===//
#ifndef IR_SANITIZE_SUPPORT_MESSAGES_H
#define IR_SANITIZE_SUPPORT_MESSAGES_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace irs {

/// \p Name (a user-given or IR name) as it appears in a one-line message:
/// a backslash doubled, every other byte outside printable ASCII as \XX
/// (two hex digits, as LLVM IR spells them), so that a name with newlines or
/// terminal escape sequences can neither break nor forge a message line.
std::string escapeForMessage(llvm::StringRef Name);

/// The first line of a (possibly multi-line) message, trailing blanks
/// removed: what LLVM's parser or verifier says, as one line of ours.
std::string firstLine(llvm::StringRef Message);

} // namespace irs

#endif
