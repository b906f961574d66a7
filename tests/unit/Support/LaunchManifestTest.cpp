#include "ir-sanitize/Support/LaunchManifest.h"
#include "../TestSupport.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;

namespace {
LaunchManifest sampleManifest() {
  LaunchManifest M;
  M.Triple = "nvptx64-nvidia-cuda";
  M.DataLayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";
  KernelManifest K;
  K.Name = "_Z16broadcast_kernel";
  K.OriginalParams = {{0, "i64", 8, "scalar"},
                      {1, "{ { ptr addrspace(1), i64 } }", 16, "value"}};
  K.Params = {{0, "n", "i64", 0, {}, 0, 8, false, 0},
              {1, "bc.0.0", "ptr addrspace(1)", 1, {0, 0}, 0, 8, true, 1},
              {2, "bc.0.1", "i64", 1, {0, 1}, 8, 8, false, 0}};
  M.Kernels.push_back(K);
  return M;
}

std::string messageOf(Error E) { return toString(std::move(E)); }

Expected<LaunchManifest> parseText(StringRef Text) {
  Expected<json::Value> V = json::parse(Text);
  REQUIRE(static_cast<bool>(V));
  return LaunchManifest::fromJSON(*V);
}
} // namespace

TEST_CASE("A manifest survives a JSON round trip", "[LaunchManifest]") {
  LaunchManifest M = sampleManifest();
  std::string Text = formatv("{0}", M.toJSON()).str();
  Expected<LaunchManifest> Back = parseText(Text);
  REQUIRE(static_cast<bool>(Back));
  CHECK(Back->Version == 1);
  CHECK(Back->Triple == M.Triple);
  CHECK(Back->DataLayout == M.DataLayout);
  REQUIRE(Back->Kernels.size() == 1);
  const KernelManifest &K = Back->Kernels[0];
  CHECK(K.Name == "_Z16broadcast_kernel");
  REQUIRE(K.OriginalParams.size() == 2);
  CHECK(K.OriginalParams[1].Passing == "value");
  CHECK(K.OriginalParams[1].Size == 16);
  REQUIRE(K.Params.size() == 3);
  CHECK(K.Params[1].Path == std::vector<unsigned>{0, 0});
  CHECK(K.Params[1].Pointer);
  CHECK(K.Params[1].AddrSpace == 1);
  CHECK(K.Params[2].Offset == 8);
  // Printing the parsed manifest gives the same text.
  CHECK(formatv("{0}", Back->toJSON()).str() == Text);
}

TEST_CASE("Strings that need escaping and large numbers survive printing",
          "[LaunchManifest]") {
  LaunchManifest M = sampleManifest();
  KernelManifest &K = M.Kernels[0];
  const std::string Odd = "q\"b\\t\tu\xc3\xa9";
  K.Name += Odd;
  K.OriginalParams[1].Type = "{ %\"T" + Odd + "\" }";
  K.OriginalParams[1].Size = uint64_t(1) << 40;
  K.Params[1].Name = "bc" + Odd;
  K.Params[1].Type = "ptr addrspace(" + Odd + ")";
  K.Params[1].Path = {10, 4294967295u};
  K.Params[1].Offset = (uint64_t(1) << 40) - 8;
  K.Params[1].AddrSpace = 4294967295u;
  for (unsigned Indent : {0u, 2u}) {
    std::string Text;
    raw_string_ostream OS(Text);
    M.print(OS, Indent);
    Expected<LaunchManifest> Back = parseText(Text);
    REQUIRE(static_cast<bool>(Back));
    const KernelManifest &B = Back->Kernels[0];
    CHECK(B.Name == K.Name);
    CHECK(B.OriginalParams[1].Type == K.OriginalParams[1].Type);
    CHECK(B.OriginalParams[1].Size == K.OriginalParams[1].Size);
    CHECK(B.Params[1].Name == K.Params[1].Name);
    CHECK(B.Params[1].Type == K.Params[1].Type);
    CHECK(B.Params[1].Path == K.Params[1].Path);
    CHECK(B.Params[1].Offset == K.Params[1].Offset);
    CHECK(B.Params[1].AddrSpace == K.Params[1].AddrSpace);
    CHECK(B.Params[2].Offset == 8);
  }
}

TEST_CASE("Parameters are found by path string", "[LaunchManifest]") {
  LaunchManifest M = sampleManifest();
  const KernelManifest *K = M.findKernel("_Z16broadcast_kernel");
  REQUIRE(K);
  CHECK(K->Params[0].pathString() == "0");
  CHECK(K->Params[2].pathString() == "1.0.1");
  REQUIRE(K->findByPath("1.0.1"));
  CHECK(K->findByPath("1.0.1")->Name == "bc.0.1");
  CHECK(K->findByPath("0")->Name == "n");
  CHECK_FALSE(K->findByPath("1"));
  CHECK_FALSE(K->findByPath("1.0.10"));
  CHECK_FALSE(M.findKernel("other"));
}

TEST_CASE("Malformed manifests are rejected with the place of the problem",
          "[LaunchManifest]") {
  std::string Good = formatv("{0}", sampleManifest().toJSON()).str();

  auto Newer = parseText(
      R"({"version": 2, "triple": "", "datalayout": "", "kernels": []})");
  REQUIRE_FALSE(static_cast<bool>(Newer));
  CHECK(messageOf(Newer.takeError()).find("version 2 is not supported") !=
        std::string::npos);

  auto NotObject = parseText("[1, 2]");
  REQUIRE_FALSE(static_cast<bool>(NotObject));
  CHECK(messageOf(NotObject.takeError()).find("not a launch manifest") !=
        std::string::npos);

  std::string Missing = Good;
  Missing.replace(Missing.find("\"offset\":8"), strlen("\"offset\":8"),
                  "\"offsett\":8");
  auto NoOffset = parseText(Missing);
  REQUIRE_FALSE(static_cast<bool>(NoOffset));
  std::string Msg = messageOf(NoOffset.takeError());
  INFO(Msg);
  CHECK(Msg.find("offset") != std::string::npos);
  CHECK(Msg.find("params[2]") != std::string::npos);

  std::string BadOrig = Good;
  BadOrig.replace(BadOrig.rfind("\"orig_index\":1"), strlen("\"orig_index\":1"),
                  "\"orig_index\":7");
  auto NoSuchParam = parseText(BadOrig);
  REQUIRE_FALSE(static_cast<bool>(NoSuchParam));
  CHECK(messageOf(NoSuchParam.takeError()).find("no such original parameter") !=
        std::string::npos);

  std::string Outside = Good;
  Outside.replace(Outside.find("\"offset\":8"), strlen("\"offset\":8"),
                  "\"offset\":12");
  auto Beyond = parseText(Outside);
  REQUIRE_FALSE(static_cast<bool>(Beyond));
  CHECK(messageOf(Beyond.takeError()).find("outside its original") !=
        std::string::npos);
}

TEST_CASE("Manifest files: atomic write, read back, errors name the file",
          "[LaunchManifest]") {
  SmallString<128> Path;
  REQUIRE(!sys::fs::createTemporaryFile("irs-manifest", "json", Path));
  REQUIRE(!sampleManifest().writeFile(Path));
  Expected<LaunchManifest> Back = LaunchManifest::readFile(Path);
  REQUIRE(static_cast<bool>(Back));
  CHECK(Back->Kernels.at(0).Params.size() == 3);

  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << "{ not json";
  }
  Expected<LaunchManifest> Bad = LaunchManifest::readFile(Path);
  REQUIRE_FALSE(static_cast<bool>(Bad));
  ExitCode Code = ExitCode::Ok;
  std::string Msg;
  handleAllErrors(Bad.takeError(), [&](const ToolError &E) {
    Code = E.code();
    Msg = E.message();
  });
  CHECK(Code == ExitCode::BadInput);
  CHECK(Msg.find(Path.str().str() + ": not valid JSON") == 0);

  // 50,000 nested arrays overflowed the stack in json::parse; rejected
  // before any value is built.
  {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    OS << R"({"version": 1, "kernels": )" << std::string(50000, '[')
       << std::string(50000, ']') << "}";
  }
  Expected<LaunchManifest> Deep = LaunchManifest::readFile(Path);
  REQUIRE_FALSE(static_cast<bool>(Deep));
  CHECK(irs::test::codeOf(Deep.takeError()) == ExitCode::BadInput);
  Deep = LaunchManifest::readFile(Path);
  CHECK(messageOf(Deep.takeError()) ==
        Path.str().str() + ": JSON nested deeper than 64 levels");
  sys::fs::remove(Path);

  Expected<LaunchManifest> Missing =
      LaunchManifest::readFile("/nonexistent/m.json");
  REQUIRE_FALSE(static_cast<bool>(Missing));
  CHECK(messageOf(Missing.takeError()).find("/nonexistent/m.json: ") == 0);
  Error Unwritable = sampleManifest().writeFile("/nonexistent-dir/m.json");
  CHECK(messageOf(std::move(Unwritable)).find("/nonexistent-dir") !=
        std::string::npos);
}
