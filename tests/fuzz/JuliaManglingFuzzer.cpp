//===- JuliaManglingFuzzer.cpp - Kernel names read as Julia signatures ----===//
//
// The input is a kernel name, read in both of GPUCompiler's manglings. It
// never crashes or runs long, and a name that reads gives arguments whose
// element types, where there are any, are names the input spells (or
// Nothing, which it spells `v`).
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Analysis/JuliaMangling.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Name(reinterpret_cast<const char *>(Data), Size);
  for (irs::JuliaMangling D :
       {irs::JuliaMangling::AllTypes, irs::JuliaMangling::NamesOnly}) {
    std::optional<std::vector<irs::JuliaType>> Args =
        irs::demangleJuliaArguments(Name, D);
    if (!Args)
      continue;
    if (Name.compare(0, 2, "_Z") != 0)
      irs::fuzz::fail("a name without _Z was read");
    for (const irs::JuliaType &T : *Args)
      if (std::optional<std::string> E = irs::juliaElementType(T))
        if (E->empty() ||
            (*E != "Nothing" && Name.find(*E) == std::string::npos))
          irs::fuzz::fail("an element type the name does not spell");
  }
  return 0;
}
