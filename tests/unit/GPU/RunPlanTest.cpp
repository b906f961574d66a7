// The plan writer (src/GPU, llvm::json): every word of the vocabulary, every
// key of the schema, the file it writes. The runner's reader of the same
// plans is tested in tools/ir-sanitize-gpurun/PlanReaderTest.cpp.
#include "RunPlanSample.h"

#include "ir-sanitize/GPU/RunPlan.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include "CatchCompat.h"

#include <functional>
#include <set>
#include <vector>

using namespace llvm;
using namespace irs::test;

TEST_CASE("every word of the plan vocabulary spells and parses back",
          "[RunPlan]") {
  auto RoundTrips = [](auto Tag) {
    using Enum = decltype(Tag);
    for (Enum E : allOf<Enum>()) {
      INFO(irs::spelling(E));
      CHECK(irs::parseSpelling<Enum>(irs::spelling(E)) == E);
    }
    CHECK_FALSE(irs::parseSpelling<Enum>("nonsense"));
  };
  RoundTrips(irs::ElementType());
  RoundTrips(irs::BufferInit());
  RoundTrips(irs::KernelRole());
  RoundTrips(irs::AddressKind());
  CHECK(allOf<irs::ElementType>().size() == 5);
  CHECK(allOf<irs::BufferInit>().size() == 5);
  CHECK(allOf<irs::KernelRole>().size() == 4);
  CHECK(irs::spellingList<irs::ElementType>() == "f32, f64, i32, i64 or u8");
}

TEST_CASE("the sample plan writes every key of the schema, and only those",
          "[RunPlan]") {
  // The reader refuses keys outside the schema's lists (the round trip
  // below); this checks that no list holds a key the writer never writes.
  std::set<std::string> Written;
  std::function<void(const json::Value &)> Collect = [&](const json::Value &V) {
    if (const json::Object *O = V.getAsObject())
      for (const auto &[Key, Child] : *O) {
        Written.insert(Key.str());
        Collect(Child);
      }
    else if (const json::Array *A = V.getAsArray())
      for (const json::Value &Child : *A)
        Collect(Child);
  };
  irs::RunPlan P = samplePlan();
  P.DerivativesSkipped = "a reason";
  Expected<json::Value> Doc = json::parse(printed(P));
  REQUIRE(static_cast<bool>(Doc));
  Collect(*Doc);
  std::set<std::string> Schema;
  for (const auto &Keys :
       {std::vector<const char *>(std::begin(irs::plan::PlanKeys),
                                  std::end(irs::plan::PlanKeys)),
        std::vector<const char *>(std::begin(irs::plan::LaunchKeys),
                                  std::end(irs::plan::LaunchKeys)),
        std::vector<const char *>(std::begin(irs::plan::ToleranceKeys),
                                  std::end(irs::plan::ToleranceKeys)),
        std::vector<const char *>(std::begin(irs::plan::BufferKeys),
                                  std::end(irs::plan::BufferKeys)),
        std::vector<const char *>(std::begin(irs::plan::KernelKeys),
                                  std::end(irs::plan::KernelKeys)),
        std::vector<const char *>(std::begin(irs::plan::ParamKeys),
                                  std::end(irs::plan::ParamKeys)),
        std::vector<const char *>(std::begin(irs::plan::RelocKeys),
                                  std::end(irs::plan::RelocKeys))})
    Schema.insert(Keys.begin(), Keys.end());
  // A launch holds threads or grid and block, never both; print the other.
  P.Spec.Threads = P.Spec.Threads ? 0 : 1000;
  Doc = json::parse(printed(P));
  REQUIRE(static_cast<bool>(Doc));
  Collect(*Doc);
  CHECK(Written == Schema);
}

TEST_CASE("writeRunPlan writes DIR/plan.json", "[RunPlan]") {
  SmallString<128> Dir;
  REQUIRE(!sys::fs::createUniqueDirectory("irs-plan", Dir));
  Error W = irs::writeRunPlan(samplePlan(), Dir);
  REQUIRE_FALSE(static_cast<bool>(W));
  CHECK(irs::runPlanPath(Dir) == (Dir + "/plan.json").str());
  auto Buf = MemoryBuffer::getFile(irs::runPlanPath(Dir));
  REQUIRE(Buf);
  CHECK((*Buf)->getBuffer().starts_with(
      "{\n  \"format\": \"ir-sanitize-gpu-plan\",\n  \"version\": 2,"));
  sys::fs::remove_directories(Dir);
  Error E = irs::writeRunPlan(samplePlan(), "/nonexistent/dir");
  CHECK(static_cast<bool>(E));
  consumeError(std::move(E));
}

TEST_CASE("buffer bytes add up to the plan's limit and never wrap",
          "[RunPlan]") {
  using irs::ElementType;
  using namespace irs::plan;
  uint64_t Total = 0;
  CHECK(addBufferBytes(ElementType::F64, 1 << 20, Total));
  CHECK(Total == 8u << 20);
  uint64_t Full = MaxTotalBufferBytes - 8;
  CHECK(addBufferBytes(ElementType::F64, 1, Full));
  CHECK(Full == MaxTotalBufferBytes);
  CHECK_FALSE(addBufferBytes(ElementType::U8, 1, Full));
  uint64_t Huge = 0;
  // 2^61 f64 elements are 2^64 bytes: 0 after a wrap.
  CHECK_FALSE(addBufferBytes(ElementType::F64, uint64_t(1) << 61, Huge));
  uint64_t Near = UINT64_MAX - 4;
  CHECK_FALSE(addBufferBytes(ElementType::F32, 2, Near));
}
