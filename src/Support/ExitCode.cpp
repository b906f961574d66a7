//===- ExitCode.cpp - Exit codes as --help lists them ---------------------===//
#include "ir-sanitize/Support/ExitCode.h"

#include <sstream>

namespace irs {

std::string exitCodesHelp(unsigned Width) {
  std::string Text = "Exit codes:";
  for (const ExitCodeInfo &E : ExitCodeTable)
    if (*exitCodeBrief(E.Code))
      Text += " " + std::to_string(static_cast<int>(E.Code)) + "\xA0" +
              exitCodeBrief(E.Code) + ",";
  Text.back() = '.';
  // Greedy wrap; "\xA0" keeps a code on the line of its first word.
  std::istringstream Words(Text);
  std::string Out, Line, Word;
  while (Words >> Word) {
    if (!Line.empty() && Line.size() + 1 + Word.size() > Width) {
      Out += Line + "\n";
      Line.clear();
    }
    Line += (Line.empty() ? "" : " ") + Word;
  }
  Out += Line + "\n";
  for (char &C : Out)
    if (C == '\xA0')
      C = ' ';
  return Out;
}

} // namespace irs
