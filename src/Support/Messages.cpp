//===- Messages.cpp - Text fit for one-line messages ----------------------===//
#include "ir-sanitize/Support/Messages.h"

using namespace llvm;

namespace irs {

std::string firstLine(StringRef Message) {
  return Message.split('\n').first.rtrim().str();
}

} // namespace irs
