//===- MessageText.h - User text made fit for one-line messages -*- C++ -*-===//
//
// Every message of ir-sanitize, its C interface and ir-sanitize-gpurun is
// one line. Text from the user (paths, option values, spec keys, IR names)
// can hold newlines or terminal escape sequences that would split a message
// or forge one, so it passes through escapeForMessage where it enters a
// message; and each front end passes the finished line through
// keepOnOneLine as a last line of defence. LLVM-free: the runner uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_MESSAGETEXT_H
#define IR_SANITIZE_SUPPORT_MESSAGETEXT_H

#include <string>
#include <string_view>

namespace irs {
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
inline std::string escapeForMessage(std::string_view Text) {
  return detail::escapeBytes(Text, /*DoubleBackslash=*/true);
}

/// A finished message line with every byte outside printable ASCII as \XX.
/// Backslashes are left alone: text escapeForMessage made printable comes
/// through unchanged (it is never escaped twice), and text a message forgot
/// to escape still cannot leave the line or reach the terminal raw.
inline std::string keepOnOneLine(std::string_view Message) {
  return detail::escapeBytes(Message, /*DoubleBackslash=*/false);
}

} // namespace irs

#endif
