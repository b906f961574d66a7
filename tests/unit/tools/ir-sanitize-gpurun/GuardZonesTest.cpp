// The guard zones around the runner's buffers (src/tools/ir-sanitize-gpurun/
// GuardZones.cpp): which bytes a launch changed, and how the failed check
// names them.
#include "GuardZones.h"

#include "CatchCompat.h"

#include <vector>

using namespace gpurun;

TEST_CASE("an intact zone is no breach; any changed byte is", "[GuardZones]") {
  std::vector<uint8_t> Zone(64, GuardByte);
  CHECK_FALSE(findBreach(Zone, GuardByte, /*Before=*/true));
  CHECK_FALSE(findBreach(Zone, GuardByte, /*Before=*/false));
  // Against another fill, every byte differs.
  auto All = findBreach(Zone, OtherGuardByte, false);
  REQUIRE(All);
  CHECK(All->Bytes == 64);
}

TEST_CASE("the nearest changed byte is measured from the buffer's edge",
          "[GuardZones]") {
  std::vector<uint8_t> Zone(64, GuardByte);
  // After the buffer: a 4-byte store one element past the end (x[N]).
  for (int I = 0; I < 4; ++I)
    Zone[I] = 0;
  auto After = findBreach(Zone, GuardByte, /*Before=*/false);
  REQUIRE(After);
  CHECK(After->Bytes == 4);
  CHECK(After->Nearest == 0);
  CHECK_FALSE(After->Before);
  // Before the buffer: x[-1] is the zone's last 4 bytes; x[-3] further.
  std::vector<uint8_t> Front(64, GuardByte);
  Front[52] = 1;
  Front[63] = 1;
  auto Before = findBreach(Front, GuardByte, /*Before=*/true);
  REQUIRE(Before);
  CHECK(Before->Bytes == 2);
  CHECK(Before->Nearest == 0);
  Front[63] = GuardByte;
  CHECK(findBreach(Front, GuardByte, true)->Nearest == 11);
}

TEST_CASE("a breach names the kernel, the buffer, its side and offset",
          "[GuardZones]") {
  GuardBreach B;
  B.Bytes = 4;
  B.Nearest = 0;
  CHECK(describeBreach(B, KernelRole::Forward, "y", /*Shadow=*/true) ==
        "the forward kernel wrote 4 bytes after the shadow of y (the nearest "
        "0 bytes past its end): the launch writes outside its buffers");
  B.Before = true;
  B.Nearest = 12;
  CHECK(describeBreach(B, KernelRole::Splat, "x", false) ==
        "the splat kernel wrote 4 bytes before x (the nearest 12 bytes before "
        "its start): the launch writes outside its buffers");
  // The zones keep a buffer's allocation alignment.
  CHECK(GuardBytes % 256 == 0);
  CHECK(GuardByte != OtherGuardByte);
}
