//===- FailureSignature.h - How an Enzyme run failed ------------*- C++ -*-===//
//
// What `ir-sanitize reduce` keeps constant while it shrinks a module: how the
// run ended (signal, exit status or timeout), Enzyme's message with the
// instruction it quoted and value names taken out, the phase and the
// innermost plugin frame. Two runs fail "the same way" when their signatures
// are equal.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ENZYME_FAILURESIGNATURE_H
#define IR_SANITIZE_ENZYME_FAILURESIGNATURE_H

#include "ir-sanitize/Enzyme/EnzymeRunner.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace irs {

struct FailureSignature {
  enum class Kind { Signal, ExitStatus, Timeout };
  Kind How = Kind::Signal;
  int Code = 0;        ///< The signal or the exit status (0 for Timeout).
  std::string Message; ///< normalizeEnzymeMessage of Enzyme's message.
  std::string Phase;   ///< "forward mode (CreateForwardDiff)", ...
  std::string Frame;   ///< "GradientUtils::getInvertedBundles".

  /// The signature of a failed run; nothing for a run that succeeded.
  static std::optional<FailureSignature> of(const EnzymeResult &R);

  bool operator==(const FailureSignature &O) const;
  bool operator!=(const FailureSignature &O) const { return !(*this == O); }

  /// "signal 6 (SIGABRT): unsupported tag gc-transition; forward mode
  /// (CreateForwardDiff); in GradientUtils::getInvertedBundles".
  std::string describe() const;
};

/// Enzyme's message without what changes as a module is cut down: the
/// instruction it quotes, value and function names, attribute group and
/// metadata numbers. "unsupported tag gc-transition for %0 = call ..." gives
/// "unsupported tag gc-transition"; "No create nofree of empty function
/// julia_f_12" gives "No create nofree of empty function ...". The callee of a
/// missing derivative rule stays ("... found for julia.get_pgcstack").
std::string normalizeEnzymeMessage(llvm::StringRef Message);

/// {"kind": "signal"|"exit_status"|"timeout", "code", "message", "phase",
/// "frame"}, the form the interestingness test reads back.
llvm::json::Value toJSON(const FailureSignature &S);
/// Errors: not JSON, or not that shape (ExitCode::BadInput).
llvm::Expected<FailureSignature> parseFailureSignature(llvm::StringRef JSON);

/// Runs \p Inv and says whether it fails with signature \p Want.
/// Errors only when Enzyme cannot be started.
llvm::Expected<bool> failsWithSignature(const EnzymeInvocation &Inv,
                                        const FailureSignature &Want);

} // namespace irs

#endif
