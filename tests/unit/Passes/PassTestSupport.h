//===- PassTestSupport.h - Pipeline text checks -----------------*- C++ -*-===//
#ifndef IR_SANITIZE_TESTS_PASSTESTSUPPORT_H
#define IR_SANITIZE_TESTS_PASSTESTSUPPORT_H

#include "ir-sanitize/Passes/PassRegistry.h"
#include "ir-sanitize/Support/Diagnostics.h"

#include "llvm/Passes/PassBuilder.h"

namespace irs::test {

/// Whether \p Text parses with the registry; its warnings into \p Diags.
inline bool parses(llvm::StringRef Text,
                   irs::DiagnosticHandler *Diags = nullptr) {
  llvm::PassBuilder PB;
  registerIRSanitizePasses(PB, /*Results=*/nullptr, Diags);
  llvm::ModulePassManager MPM;
  llvm::Error E = PB.parsePassPipeline(MPM, Text);
  bool OK = !E;
  consumeError(std::move(E));
  return OK;
}

} // namespace irs::test

#endif
