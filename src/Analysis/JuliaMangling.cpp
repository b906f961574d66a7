//===- JuliaMangling.cpp - The Julia types in a kernel's name -------------===//
#include "ir-sanitize/Analysis/JuliaMangling.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace irs {
namespace {

/// Bounds for a hostile name: a signature nests a few levels and names a
/// few dozen types.
constexpr unsigned MaxDepth = 64;
constexpr size_t MaxTypes = 4096;

class Demangler {
public:
  Demangler(StringRef Text, JuliaMangling Dialect)
      : Text(Text), Dialect(Dialect) {}

  std::optional<std::vector<JuliaType>> arguments() {
    if (!Text.consume_front("_Z") || !identifier())
      return std::nullopt;
    Subs.clear(); // the function's name is no candidate
    std::vector<JuliaType> Args;
    while (!Text.empty()) {
      std::optional<JuliaType> T = type(0);
      if (!T || Args.size() >= MaxTypes)
        return std::nullopt;
      Text.consume_front("z"); // T... (variadic)
      Args.push_back(std::move(*T));
    }
    return Args;
  }

private:
  StringRef Text;
  JuliaMangling Dialect;
  std::vector<JuliaType> Subs;

  /// <length><text>: the text, which also becomes a candidate.
  std::optional<JuliaType> identifier() {
    size_t Digits = Text.find_first_not_of("0123456789");
    unsigned Length;
    if (Digits == 0 || Digits == StringRef::npos ||
        Text.take_front(Digits).getAsInteger(10, Length) || Length == 0 ||
        Text.size() - Digits < Length)
      return std::nullopt;
    JuliaType T;
    T.Name = Text.substr(Digits, Length).str();
    Text = Text.drop_front(Digits + Length);
    // A value (a tuple `_256__`, a symbol `_x`) is spelled without being a
    // candidate; an operator's function type (`_` for +) is one.
    T.Literal = StringRef(T.Name).starts_with("_") &&
                T.Name.find_first_not_of('_') != std::string::npos;
    if (!T.Literal && !candidate(T))
      return std::nullopt;
    return T;
  }

  /// Adds \p T to the candidates; false when it is one already: the
  /// mangler would have referred to it, so the name is not of this dialect.
  bool candidate(const JuliaType &T) {
    if (is_contained(Subs, T))
      return false;
    Subs.push_back(T);
    return true;
  }

  /// S_ (the first candidate), S0_, S1_, ... SA_ (base 36).
  std::optional<JuliaType> substitution() {
    size_t End = Text.find('_');
    if (End == StringRef::npos)
      return std::nullopt;
    StringRef Seq = Text.substr(1, End - 1);
    Text = Text.drop_front(End + 1);
    uint64_t Index = 0;
    if (!Seq.empty()) {
      if (Seq.size() > 4 || Seq.getAsInteger(36, Index) ||
          any_of(Seq, [](char C) { return C >= 'a' && C <= 'z'; }))
        return std::nullopt;
      ++Index;
    }
    if (Index >= Subs.size())
      return std::nullopt;
    return Subs[Index];
  }

  /// I<type>...E (J<type>...E a pack inside).
  bool parameters(JuliaType &T, unsigned Depth) {
    while (!Text.consume_front("E")) {
      if (Text.consume_front("J"))
        continue; // a pack's types are the tuple's
      std::optional<JuliaType> P = type(Depth + 1);
      if (!P || T.Params.size() >= MaxTypes)
        return false;
      T.Params.push_back(std::move(*P));
    }
    return true;
  }

  std::optional<JuliaType> literal() {
    size_t End = Text.find('E');
    if (End == StringRef::npos)
      return std::nullopt;
    JuliaType T;
    T.Name = Text.substr(1, End - 1).str();
    T.Literal = true;
    Text = Text.drop_front(End + 1);
    return T;
  }

  std::optional<JuliaType> type(unsigned Depth) {
    if (Text.empty() || Depth > MaxDepth || Subs.size() > MaxTypes)
      return std::nullopt;
    if (Text.consume_front("v"))
      return JuliaType{"Nothing", {}, false, false};
    if (Text.starts_with("L"))
      return literal();
    if (Text.consume_front("P")) {
      std::optional<JuliaType> Elt = type(Depth + 1);
      if (!Elt)
        return std::nullopt;
      JuliaType T{"Ptr", {std::move(*Elt)}, false, true};
      if (Dialect == JuliaMangling::AllTypes && !candidate(T))
        return std::nullopt;
      return T;
    }
    bool Ref = Text.starts_with("S");
    std::optional<JuliaType> T = Ref ? substitution() : identifier();
    if (!T || !Text.consume_front("I"))
      return T;
    // Only a name takes parameters: a whole type is referred to as it is.
    if (!T->Params.empty() || T->Pointer || T->Literal ||
        !parameters(*T, Depth))
      return std::nullopt;
    if (Dialect == JuliaMangling::AllTypes && !candidate(*T))
      return std::nullopt;
    return T;
  }
};

} // namespace

std::optional<std::vector<JuliaType>>
demangleJuliaArguments(StringRef Mangled, JuliaMangling Dialect) {
  // LLVM's suffix for a renamed duplicate (".1") is not part of the name.
  size_t Dot = Mangled.rfind('.');
  if (Dot != StringRef::npos && all_of(Mangled.drop_front(Dot + 1), isDigit) &&
      Dot + 1 < Mangled.size())
    Mangled = Mangled.take_front(Dot);
  return Demangler(Mangled, Dialect).arguments();
}

bool isJuliaDeviceArray(const JuliaType &T) {
  static constexpr StringLiteral Arrays[] = {
      "CuDeviceArray", "CuDeviceVector", "CuDeviceMatrix", "ROCDeviceArray",
      "CLDeviceArray", "oneDeviceArray", "MtlDeviceArray"};
  return !T.Literal && is_contained(Arrays, T.Name);
}

std::optional<std::string> juliaElementType(const JuliaType &T) {
  bool Pointer =
      T.Pointer || (!T.Literal && (T.Name == "Ptr" || T.Name == "LLVMPtr"));
  if ((!Pointer && !isJuliaDeviceArray(T)) || T.Params.empty() ||
      T.Params.front().Literal || !T.Params.front().Params.empty())
    return std::nullopt;
  return T.Params.front().Name;
}

} // namespace irs
