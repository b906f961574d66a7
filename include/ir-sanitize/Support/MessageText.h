//===- MessageText.h - User text made fit for one-line messages -*- C++ -*-===//
//
// Every message of ir-sanitize, its C interface and ir-sanitize-gpurun is
// one line. Text from the user (paths, option values, spec keys, IR names)
// can hold newlines or terminal escape sequences that would split a message
// or forge one, so it passes through escapeForMessage where it enters a
// message; and each front end passes the finished line through
// keepOnOneLine as a last line of defence. Both cut what they are given at a
// bound (MaxQuotedBytes, a line MaxMessageBytes), so that a 100 KB kernel
// name or a 1 MB option string cannot make a message of that size; what is
// cut is marked with "..." and the original length. LLVM-free: the runner
// uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_MESSAGETEXT_H
#define IR_SANITIZE_SUPPORT_MESSAGETEXT_H

#include <cstddef>
#include <string>
#include <string_view>

namespace irs {

/// The most bytes of one user-given text (a path, a name, an option value)
/// that a message quotes, and of one whole message line.
inline constexpr size_t MaxQuotedBytes = 512;
inline constexpr size_t MaxMessageBytes = 8 * MaxQuotedBytes;

/// \p Text if it has at most \p Max bytes, else its first \p Max bytes and
/// "... (N bytes)", N its length: how a message cuts what it quotes.
inline std::string_view cutForMessage(std::string_view Text, size_t Max,
                                      std::string &Suffix) {
  Suffix.clear();
  if (Text.size() <= Max)
    return Text;
  Suffix = "... (" + std::to_string(Text.size()) + " bytes)";
  return Text.substr(0, Max);
}

namespace detail {

inline std::string escapeBytes(std::string_view Text, bool DoubleBackslash) {
  static constexpr char Hex[] = "0123456789ABCDEF";
  std::string Out;
  Out.reserve(Text.size());
  for (unsigned char C : Text) {
    if (C == '\\' && DoubleBackslash)
      Out += "\\\\";
    else if (C >= 0x20 && C < 0x7f)
      Out += static_cast<char>(C);
    else
      Out += {'\\', Hex[C >> 4], Hex[C & 15]};
  }
  return Out;
}

} // namespace detail

/// \p Text (a user-given or IR name) as it appears in a one-line message:
/// a backslash doubled, every other byte outside printable ASCII as \XX
/// (two hex digits, as LLVM IR spells them), so that a name with newlines or
/// terminal escape sequences can neither break nor forge a message line.
/// Text longer than MaxQuotedBytes is cut there (cutForMessage).
inline std::string escapeForMessage(std::string_view Text) {
  std::string Suffix;
  Text = cutForMessage(Text, MaxQuotedBytes, Suffix);
  return detail::escapeBytes(Text, /*DoubleBackslash=*/true) + Suffix;
}

/// A finished message line with every byte outside printable ASCII as \XX.
/// Backslashes are left alone: text escapeForMessage made printable comes
/// through unchanged (it is never escaped twice), and text a message forgot
/// to escape still cannot leave the line or reach the terminal raw.
/// A line longer than MaxMessageBytes is cut there (cutForMessage).
inline std::string keepOnOneLine(std::string_view Message) {
  std::string Suffix;
  Message = cutForMessage(Message, MaxMessageBytes, Suffix);
  return detail::escapeBytes(Message, /*DoubleBackslash=*/false) + Suffix;
}

} // namespace irs

#endif
