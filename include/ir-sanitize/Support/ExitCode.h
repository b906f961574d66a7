//===- ExitCode.h - The documented exit codes (LLVM-free) -------*- C++ -*-===//
//
// The exit codes of ExitCodes.def as an enum, shared by ir-sanitize (whose
// ToolError carries them) and ir-sanitize-gpurun, which has no LLVM.
// Scripts rely on the values exactly.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_EXITCODE_H
#define IR_SANITIZE_SUPPORT_EXITCODE_H

#include <string>

namespace irs {

enum class ExitCode : int {
#define IRS_EXIT_CODE(Name, Value, Meaning) Name = Value,
#include "ir-sanitize/Support/ExitCodes.def"
};

/// One code of ExitCodes.def with its meaning, as the docs show it.
struct ExitCodeInfo {
  ExitCode Code;
  const char *Meaning;
};

inline constexpr ExitCodeInfo ExitCodeTable[] = {
#define IRS_EXIT_CODE(Name, Value, Meaning) {ExitCode::Name, Meaning},
#include "ir-sanitize/Support/ExitCodes.def"
};

/// \p Code in a few words, as ir-sanitize's --help shows it; "" for a code
/// only ir-sanitize-gpurun returns.
inline const char *exitCodeBrief(ExitCode Code) {
  switch (Code) {
#define IRS_EXIT_CODE_BRIEF(Name, Brief)                                       \
  case ExitCode::Name:                                                         \
    return Brief;
#include "ir-sanitize/Support/ExitCodes.def"
  default:
    return "";
  }
}

/// The "Exit codes: 0 ok, 1 ..." paragraph of ir-sanitize's --help, every
/// code with a brief, wrapped at \p Width columns.
std::string exitCodesHelp(unsigned Width = 72);

} // namespace irs

#endif
