//===- ProcessHooks.cpp ---------------------------------------------------===//
#include "ir-sanitize/Support/ProcessHooks.h"

namespace irs {

static ProcessHooks &hooks() {
  static ProcessHooks Hooks;
  return Hooks;
}

void setProcessHooks(const ProcessHooks &Hooks) { hooks() = Hooks; }

const ProcessHooks &processHooks() { return hooks(); }

} // namespace irs
