//===- Messages.h - Text made fit for one-line messages ---------*- C++ -*-===//
#ifndef IR_SANITIZE_SUPPORT_MESSAGES_H
#define IR_SANITIZE_SUPPORT_MESSAGES_H

#include "ir-sanitize/Support/MessageText.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace irs {

/// The first line of a (possibly multi-line) message, trailing blanks
/// removed: what LLVM's parser or verifier says, as one line of ours.
std::string firstLine(llvm::StringRef Message);

} // namespace irs

#endif
