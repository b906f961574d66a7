//===- Subcommands.cpp - The list of ir-sanitize subcommands --------------===//
#include "Commands.h"

namespace irs::cli {

// Each command file defines its factory; keep one line per subcommand here.
std::vector<Subcommand> createSubcommands() {
  std::vector<Subcommand> Subs;
  return Subs;
}

} // namespace irs::cli
