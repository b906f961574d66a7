//===- FailureSignature.cpp - How an Enzyme run failed, comparably --------===//
#include "ir-sanitize/Enzyme/FailureSignature.h"
#include "ir-sanitize/Support/BoundedJSON.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace irs {
namespace {

/// \p S with every match of \p R replaced by \p Replacement (scanning on
/// after each replacement, so a replacement that matches again is kept).
std::string replaceAll(StringRef S, const Regex &R, StringRef Replacement) {
  std::string Out;
  SmallVector<StringRef, 4> M;
  while (!S.empty() && R.match(S, &M) && !M[0].empty()) {
    size_t Pos = M[0].data() - S.data();
    Out += S.take_front(Pos);
    Out += Replacement;
    S = S.drop_front(Pos + M[0].size());
  }
  Out += S;
  return Out;
}

std::string squeezeBlanks(StringRef S) {
  std::string Out;
  for (char C : S.trim()) {
    if (C == '\t')
      C = ' ';
    if (C == ' ' && !Out.empty() && Out.back() == ' ')
      continue;
    Out += C;
  }
  return Out;
}

StringRef kindName(FailureSignature::Kind K) {
  switch (K) {
  case FailureSignature::Kind::Signal:
    return "signal";
  case FailureSignature::Kind::ExitStatus:
    return "exit_status";
  case FailureSignature::Kind::Timeout:
    return "timeout";
  }
  return "";
}

} // namespace

std::string normalizeEnzymeMessage(StringRef Message) {
  // Enzyme quotes the instruction after "for" or a colon; what it quotes
  // shrinks with the module, so it is no part of the signature.
  static const Regex Quote(
      "(:| for| context:) +(%|store |(tail |musttail )?call |invoke |ret |br "
      "|unreachable)");
  std::string S = Message.str();
  SmallVector<StringRef, 2> M;
  if (Quote.match(S, &M))
    S.resize(M[0].data() - S.data());
  static const Regex FunctionName("function [^ ,:]+");
  static const Regex ValueName("[@%](\"[^\"]*\"|[-A-Za-z0-9_.$]+)");
  static const Regex Numbered(" [#!][0-9]+");
  S = replaceAll(S, FunctionName, "function ...");
  S = replaceAll(S, ValueName, "%...");
  S = replaceAll(S, Numbered, "");
  return squeezeBlanks(StringRef(squeezeBlanks(S)).rtrim(": "));
}

std::optional<FailureSignature> FailureSignature::of(const EnzymeResult &R) {
  if (R.ok())
    return std::nullopt;
  FailureSignature S;
  switch (R.Outcome.How) {
  case ChildOutcome::Kind::Signalled:
    S.How = Kind::Signal;
    S.Code = R.Outcome.Signal;
    break;
  case ChildOutcome::Kind::Exited:
    S.How = Kind::ExitStatus;
    S.Code = R.Outcome.ExitCode;
    break;
  case ChildOutcome::Kind::TimedOut:
    // A hang says nothing more than that it hung.
    S.How = Kind::Timeout;
    return S;
  }
  S.Message = normalizeEnzymeMessage(R.Diagnosis.Message);
  S.Phase = R.Diagnosis.Phase;
  S.Frame = R.Diagnosis.Frame;
  return S;
}

bool FailureSignature::operator==(const FailureSignature &O) const {
  return How == O.How && Code == O.Code && Message == O.Message &&
         Phase == O.Phase && Frame == O.Frame;
}

std::string FailureSignature::describe() const {
  std::string S;
  switch (How) {
  case Kind::Signal:
    S = "signal " + std::to_string(Code) + " (" + signalName(Code) + ")";
    break;
  case Kind::ExitStatus:
    S = "exit status " + std::to_string(Code);
    break;
  case Kind::Timeout:
    return "timeout";
  }
  if (!Message.empty())
    S += ": " + Message;
  if (!Phase.empty())
    S += "; " + Phase;
  if (!Frame.empty())
    S += "; in " + Frame;
  return S;
}

json::Value toJSON(const FailureSignature &S) {
  return json::Object{{"kind", kindName(S.How)},
                      {"code", S.Code},
                      {"message", S.Message},
                      {"phase", S.Phase},
                      {"frame", S.Frame}};
}

Expected<FailureSignature> parseFailureSignature(StringRef JSON) {
  auto Bad = [](const Twine &Why) {
    return makeToolError(ExitCode::BadInput, "failure signature: " + Why);
  };
  // Bounded: the file is the user's, and JSON nested 100,000 deep would
  // overflow the parser's stack.
  Expected<json::Value> V = parseBoundedJSON(JSON, "failure signature");
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  if (!O)
    return Bad("not a JSON object");
  FailureSignature S;
  std::optional<StringRef> Kind = O->getString("kind");
  if (Kind == kindName(FailureSignature::Kind::Signal))
    S.How = FailureSignature::Kind::Signal;
  else if (Kind == kindName(FailureSignature::Kind::ExitStatus))
    S.How = FailureSignature::Kind::ExitStatus;
  else if (Kind == kindName(FailureSignature::Kind::Timeout))
    S.How = FailureSignature::Kind::Timeout;
  else
    return Bad("\"kind\" is not signal, exit_status or timeout");
  std::optional<int64_t> Code = O->getInteger("code");
  if (!Code || *Code < INT32_MIN || *Code > INT32_MAX)
    return Bad("\"code\" is not a 32-bit integer");
  S.Code = static_cast<int>(*Code);
  for (auto [Key, Field] : {std::pair{"message", &S.Message},
                            {"phase", &S.Phase},
                            {"frame", &S.Frame}}) {
    std::optional<StringRef> Text = O->getString(Key);
    if (!Text)
      return Bad(Twine("\"") + Key + "\" is not a string");
    *Field = Text->str();
  }
  return S;
}

Expected<bool> failsWithSignature(const EnzymeInvocation &Inv,
                                  const FailureSignature &Want) {
  Expected<EnzymeResult> R = runEnzyme(Inv);
  if (!R)
    return R.takeError();
  std::optional<FailureSignature> Got = FailureSignature::of(*R);
  return Got && *Got == Want;
}

} // namespace irs
