#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "EnzymeTestUtils.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

#include <cstdlib>

using namespace llvm;
using namespace irs;
using namespace irs::test;
using namespace irs::test;

namespace {

std::string otherMajorPlugin() {
  return fakePlugin(enzymePluginFileName(hostLLVMMajor() - 1));
}

/// A search that sees only \p Dir: no environment, no configured default.
PluginSearch isolatedSearch(const WorkDir &Dir) {
  PluginSearch S;
  S.ExecutablePath = "/nonexistent/bin/ir-sanitize";
  S.UseEnvironment = false;
  S.UseConfiguredDefault = false;
  S.LibraryDirs = {std::string(Dir.Dir)};
  return S;
}

} // namespace

TEST_CASE("inspectPlugin reads the LLVM major from DT_NEEDED, else the name",
          "[PluginLocator]") {
  auto Abort = inspectPlugin(fakePlugin("FakeEnzymeAbort.so"));
  REQUIRE(static_cast<bool>(Abort));
  REQUIRE(Abort->LLVMMajor);
  CHECK(*Abort->LLVMMajor == hostLLVMMajor());
  CHECK(Abort->HasEntryPoint);

  auto Other = inspectPlugin(otherMajorPlugin());
  REQUIRE(static_cast<bool>(Other));
  REQUIRE(Other->LLVMMajor);
  CHECK(*Other->LLVMMajor == hostLLVMMajor() - 1);

  auto NoEntry = inspectPlugin(fakePlugin("NotAPlugin.so"));
  REQUIRE(static_cast<bool>(NoEntry));
  CHECK_FALSE(NoEntry->HasEntryPoint);
}

TEST_CASE("checkPlugin refuses other majors, non-plugins and non-libraries",
          "[PluginLocator]") {
  unsigned Major = hostLLVMMajor();
  CHECK(
      static_cast<bool>(checkPlugin(fakePlugin("FakeEnzymeAbort.so"), Major)));

  auto Other = checkPlugin(otherMajorPlugin(), Major);
  REQUIRE_FALSE(static_cast<bool>(Other));
  std::string Msg = toString(Other.takeError());
  CHECK(Msg.find("built for LLVM " + std::to_string(Major - 1)) !=
        std::string::npos);
  CHECK(Msg.find("needs " + enzymePluginFileName(Major)) != std::string::npos);

  // Enzyme_jll's plugin, of the right major but for Julia's libLLVM.
  auto Julia = checkPlugin(
      fakePlugin("libEnzyme-" + std::to_string(Major) + ".so"), Major);
  REQUIRE_FALSE(static_cast<bool>(Julia));
  std::string JuliaMsg = toString(Julia.takeError());
  CHECK(JuliaMsg.find("linked against Julia's own LLVM (libLLVM-" +
                      std::to_string(Major) + "jl.so)") != std::string::npos);
  CHECK(JuliaMsg.find('\n') == std::string::npos);

  auto NoEntry = checkPlugin(fakePlugin("NotAPlugin.so"), Major);
  REQUIRE_FALSE(static_cast<bool>(NoEntry));
  CHECK(toString(NoEntry.takeError()).find("llvmGetPassPluginInfo") !=
        std::string::npos);

  WorkDir Dir;
  std::string Text = Dir.write("LLVMEnzyme.so", "not a library\n");
  CHECK(codeOf(checkPlugin(Text, Major).takeError()) == ExitCode::NoEnzyme);
  CHECK(codeOf(checkPlugin(Dir.path("missing.so"), Major).takeError()) ==
        ExitCode::NoEnzyme);
}

TEST_CASE("the search finds a plugin in the library directories",
          "[PluginLocator]") {
  WorkDir Dir;
  std::string Target = Dir.path(enzymePluginFileName(hostLLVMMajor()));
  REQUIRE(!sys::fs::copy_file(fakePlugin("FakeEnzymeAbort.so"), Target));
  auto Found = locateEnzymePlugin(isolatedSearch(Dir));
  REQUIRE(static_cast<bool>(Found));
  CHECK(Found->Path == Target);
  CHECK(Found->Origin == "search");
}

TEST_CASE("next to the binary comes before the library directories",
          "[PluginLocator]") {
  WorkDir Bin, Lib;
  std::string Name = enzymePluginFileName(hostLLVMMajor());
  REQUIRE(
      !sys::fs::copy_file(fakePlugin("FakeEnzymeAbort.so"), Bin.path(Name)));
  REQUIRE(!sys::fs::copy_file(fakePlugin("FakeEnzymeHang.so"), Lib.path(Name)));
  PluginSearch S = isolatedSearch(Lib);
  S.ExecutablePath = Bin.path("ir-sanitize");
  auto Found = locateEnzymePlugin(S);
  REQUIRE(static_cast<bool>(Found));
  CHECK(Found->Path == Bin.path(Name));
  CHECK(Found->Origin == "next to ir-sanitize");
}

TEST_CASE("an explicit or environment plugin wins and is never skipped",
          "[PluginLocator]") {
  WorkDir Dir;
  REQUIRE(!sys::fs::copy_file(fakePlugin("FakeEnzymeAbort.so"),
                              Dir.path(enzymePluginFileName(hostLLVMMajor()))));
  PluginSearch S = isolatedSearch(Dir);
  S.Explicit = fakePlugin("FakeEnzymeHang.so");
  auto Found = locateEnzymePlugin(S);
  REQUIRE(static_cast<bool>(Found));
  CHECK(Found->Origin == "--enzyme-plugin");

  // A bad explicit plugin is an error even though the search would succeed.
  S.Explicit = fakePlugin("NotAPlugin.so");
  CHECK(codeOf(locateEnzymePlugin(S).takeError()) == ExitCode::NoEnzyme);

  S.Explicit.clear();
  S.UseEnvironment = true;
  ::setenv("ENZYME_PLUGIN", fakePlugin("FakeEnzymeHang.so").c_str(), 1);
  auto FromEnv = locateEnzymePlugin(S);
  ::unsetenv("ENZYME_PLUGIN");
  REQUIRE(static_cast<bool>(FromEnv));
  CHECK(FromEnv->Origin == "ENZYME_PLUGIN");
}

TEST_CASE("nothing usable: exit code 6, where it looked, what it rejected",
          "[PluginLocator]") {
  WorkDir Dir;
  auto None = locateEnzymePlugin(isolatedSearch(Dir));
  REQUIRE_FALSE(static_cast<bool>(None));
  std::string Msg;
  ExitCode Code = ExitCode::Ok;
  handleAllErrors(None.takeError(), [&](const ToolError &TE) {
    Code = TE.code();
    Msg = TE.message();
  });
  CHECK(Code == ExitCode::NoEnzyme);
  CHECK(Msg.find("--enzyme-plugin") != std::string::npos);
  CHECK(Msg.find(std::string(Dir.Dir)) != std::string::npos);
  CHECK(Msg.find('\n') == std::string::npos);

  // A wrong-major file under the searched name is reported, not used.
  REQUIRE(!sys::fs::copy_file(otherMajorPlugin(),
                              Dir.path(enzymePluginFileName(hostLLVMMajor()))));
  auto Wrong = locateEnzymePlugin(isolatedSearch(Dir));
  REQUIRE_FALSE(static_cast<bool>(Wrong));
  CHECK(toString(Wrong.takeError()).find("rejected") != std::string::npos);
}
