//===- GuardZones.cpp - Memory around every buffer, watched ---------------===//
#include "GuardZones.h"

namespace gpurun {

std::optional<GuardBreach> findBreach(const std::vector<uint8_t> &Zone,
                                      uint8_t Fill, bool Before) {
  GuardBreach B;
  B.Before = Before;
  bool Seen = false;
  for (uint64_t I = 0; I < Zone.size(); ++I) {
    if (Zone[I] == Fill)
      continue;
    ++B.Bytes;
    uint64_t Distance = Before ? Zone.size() - 1 - I : I;
    if (!Seen || Distance < B.Nearest)
      B.Nearest = Distance;
    Seen = true;
  }
  if (!Seen)
    return std::nullopt;
  return B;
}

std::string describeBreach(const GuardBreach &B, KernelRole Role,
                           const std::string &Buffer, bool Shadow) {
  return std::string("the ") + irs::spelling(Role) + " kernel wrote " +
         std::to_string(B.Bytes) + " bytes " + (B.Before ? "before" : "after") +
         " " + (Shadow ? "the shadow of " : "") + Buffer + " (the nearest " +
         std::to_string(B.Nearest) + " bytes " +
         (B.Before ? "before its start" : "past its end") +
         "): the launch writes outside its buffers";
}

} // namespace gpurun
