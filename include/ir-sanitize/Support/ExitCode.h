//===- ExitCode.h - The documented exit codes (LLVM-free) -------*- C++ -*-===//
//
// The one list of exit codes, shared by ir-sanitize (through ExitCodes.h,
// which adds the llvm::Error that carries them) and ir-sanitize-gpurun, which
// has no LLVM. Scripts rely on the values exactly; the README lists them.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_EXITCODE_H
#define IR_SANITIZE_SUPPORT_EXITCODE_H

namespace irs {

enum class ExitCode : int {
  Ok = 0,
  Findings = 1,       ///< `check` found something / a check did not pass.
  Usage = 2,          ///< Bad command line.
  BadInput = 3,       ///< Input missing, unreadable or not valid IR.
  OutputError = 4,    ///< Output could not be written.
  VerifierFailed = 5, ///< The rewritten module failed the verifier (a bug).
  NoEnzyme = 6,       ///< No usable Enzyme plugin was found.
  NoDevice = 7,       ///< ir-sanitize-gpurun: no usable CUDA driver or device.
};

} // namespace irs

#endif
