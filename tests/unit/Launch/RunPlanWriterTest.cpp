// The plan writer (src/Launch/RunPlanWriter.cpp): every word of the
// vocabulary, every key of the schema, and the text llvm::json prints (the
// form plans have always had). The reader: RunPlanReaderTest.cpp.
#include "RunPlanSample.h"

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
          "[RunPlanWriter]") {
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
  CHECK(allOf<irs::BufferInit>().size() == 6);
  CHECK(allOf<irs::KernelRole>().size() == 4);
  CHECK(irs::spellingList<irs::ElementType>() == "f32, f64, i32, i64 or u8");
}

TEST_CASE("the sample plan writes every key of the schema, and only those",
          "[RunPlanWriter]") {
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
  P.Launch.ZeroDerivativeExpected = true;
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
  P.Launch.Threads = P.Launch.Threads ? 0 : 1000;
  Doc = json::parse(printed(P));
  REQUIRE(static_cast<bool>(Doc));
  Collect(*Doc);
  CHECK(Written == Schema);
}

namespace {
/// \p V as llvm::json::OStream prints it: what plans have always held.
template <typename T> std::string printedByLLVM(const T &V) {
  std::string Text;
  raw_string_ostream OS(Text);
  json::OStream(OS, 2).value(V);
  return Text;
}

/// The value the plan's text gives \p Key (on one line).
std::string valueOf(const std::string &Text, const std::string &Key) {
  size_t At = Text.find("\"" + Key + "\": ");
  REQUIRE(At != std::string::npos);
  At += Key.size() + 4;
  size_t End = Text.find(",\n", At);
  return Text.substr(At, End - At);
}
} // namespace

TEST_CASE("the plan's text is llvm::json's, indented by two",
          "[RunPlanWriter]") {
  std::string Text = printed(samplePlan());
  CHECK(StringRef(Text).starts_with(
      "{\n  \"format\": \"ir-sanitize-gpu-plan\",\n  \"version\": 2,\n  "
      "\"kernel\": \"_Z16broadcast_kernel_add_1d\",\n  \"launch\": {\n    "
      "\"threads\": 1048576\n  },\n  \"checks\": \"all\",\n"));
  CHECK(StringRef(Text).ends_with("\n}\n"));
  // Numbers: doubles with 17 significant digits, as LLVM prints them.
  for (double D : {1e-3, 1e-5, 1e-12, 0.1, 3.0, 2.5e-7}) {
    irs::RunPlan P = samplePlan();
    P.Settings.FdStep = D;
    CHECK(valueOf(printed(P), "fd_step") == printedByLLVM(D));
  }
  // Strings: LLVM's escapes, and invalid UTF-8 replaced as LLVM replaces a
  // lone byte.
  for (std::string S :
       {std::string("a\"b\\c"), std::string("tab\there\n"),
        std::string("\x01\x1f\x7f"), std::string("\u00e9\u2207"),
        std::string("nul\0x", 5)}) {
    irs::RunPlan P = samplePlan();
    P.Kernel = S;
    CHECK(valueOf(printed(P), "kernel") == printedByLLVM(S));
  }
  irs::RunPlan Bad = samplePlan();
  Bad.Kernel = "a\xff"
               "b";
  CHECK(valueOf(printed(Bad), "kernel") == "\"a\xEF\xBF\xBD"
                                           "b\"");
  // Empty arrays and objects print as LLVM prints them.
  irs::RunPlan Bare = samplePlan();
  Bare.Kernels[0].Params.clear();
  CHECK(StringRef(printed(Bare)).contains("\"params\": []\n"));
}

TEST_CASE("buffer bytes add up to the plan's limit and never wrap",
          "[RunPlanWriter]") {
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
