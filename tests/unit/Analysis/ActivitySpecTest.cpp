#include "ir-sanitize/Analysis/ActivitySpec.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "../TestSupport.h"

#include "CatchCompat.h"

using namespace llvm;
using namespace irs;
using namespace irs::test;

namespace {

const char *HostIR = R"(
define double @f(double %x, ptr %buf, i64 %n, float %s) {
  ret double %x
}
)";

// A splatted kernel as KernelSplat leaves it: leaf names are paths.
const char *KernelIR = R"(
define ptx_kernel void @k(ptr %state.0, i32 %state.1, ptr addrspace(1) %dest.0,
                          ptr addrspace(1) %bc.0.0.0.0, i64 %bc.0.0.0.1,
                          ptr addrspace(1) %bc.0.1.0.0, float %alpha) {
  ret void
}
)";

KernelManifest kernelManifest() {
  KernelManifest K;
  K.Name = "k";
  auto Add = [&](unsigned Index, std::string Name, unsigned Orig,
                 std::vector<unsigned> Path) {
    ManifestParam P;
    P.Index = Index;
    P.Name = std::move(Name);
    P.OrigIndex = Orig;
    P.Path = std::move(Path);
    K.Params.push_back(P);
  };
  Add(0, "state.0", 0, {0});
  Add(1, "state.1", 0, {1});
  Add(2, "dest.0", 1, {0});
  Add(3, "bc.0.0.0.0", 2, {0, 0, 0, 0});
  Add(4, "bc.0.0.0.1", 2, {0, 0, 0, 1});
  Add(5, "bc.0.1.0.0", 2, {0, 1, 0, 0});
  Add(6, "alpha", 3, {});
  return K;
}

} // namespace

TEST_CASE("activity items parse, including comma lists and default",
          "[ActivitySpec]") {
  auto Spec = ActivitySpec::parse({"0=dup, buf=const", "default=dupnoneed"});
  REQUIRE(static_cast<bool>(Spec));
  REQUIRE(Spec->Entries.size() == 2);
  CHECK(Spec->Entries[1].Key == "buf");
  CHECK(Spec->Entries[1].Act == Activity::Const);
  REQUIRE(Spec->Default);
  CHECK(*Spec->Default == Activity::DupNoNeed);

  CHECK(codeOf(ActivitySpec::parse({"x"}).takeError()) == ExitCode::Usage);
  CHECK(codeOf(ActivitySpec::parse({"x=active"}).takeError()) ==
        ExitCode::Usage);
  CHECK(codeOf(ActivitySpec::parse({"=dup"}).takeError()) == ExitCode::Usage);
}

TEST_CASE("defaults: pointers dup, integers const, floats by mode",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  Function &F = *M->getFunction("f");
  auto Fwd = resolveActivities(F, DiffMode::Forward, {}, nullptr, false);
  REQUIRE(static_cast<bool>(Fwd));
  CHECK(*Fwd == ActivityMap{Activity::Dup, Activity::Dup, Activity::Const,
                            Activity::Dup});
  auto Rev = resolveActivities(F, DiffMode::Reverse, {}, nullptr, false);
  REQUIRE(static_cast<bool>(Rev));
  CHECK(*Rev == ActivityMap{Activity::Out, Activity::Dup, Activity::Const,
                            Activity::Out});
}

TEST_CASE("keys name parameters by index and IR name; default applies first",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  Function &F = *M->getFunction("f");
  auto Spec =
      cantFail(ActivitySpec::parse({"default=const", "1=dup", "s=out"}));
  auto Map = resolveActivities(F, DiffMode::Reverse, Spec, nullptr, false);
  REQUIRE(static_cast<bool>(Map));
  CHECK(*Map == ActivityMap{Activity::Const, Activity::Dup, Activity::Const,
                            Activity::Out});
}

TEST_CASE("unknown keys are usage errors listing the parameters",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  auto Spec = cantFail(ActivitySpec::parse({"nosuch=dup"}));
  auto Map = resolveActivities(*M->getFunction("f"), DiffMode::Forward, Spec,
                               nullptr, false);
  REQUIRE_FALSE(static_cast<bool>(Map));
  std::string Msg = toString(Map.takeError());
  INFO(Msg);
  CHECK(Msg.find("'nosuch' names no parameter of f") != std::string::npos);
  CHECK(Msg.find("1 %buf: ptr") != std::string::npos);
  CHECK(Msg.find("3 %s: float") != std::string::npos);
}

TEST_CASE("out is refused where Enzyme cannot return a gradient",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, HostIR);
  Function &F = *M->getFunction("f");
  auto OutX = cantFail(ActivitySpec::parse({"x=out"}));
  CHECK(codeOf(resolveActivities(F, DiffMode::Forward, OutX, nullptr, false)
                   .takeError()) == ExitCode::Usage);
  auto OutBuf = cantFail(ActivitySpec::parse({"buf=out"}));
  CHECK(codeOf(resolveActivities(F, DiffMode::Reverse, OutBuf, nullptr, false)
                   .takeError()) == ExitCode::Usage);
  auto K = parseModule(Ctx, KernelIR);
  auto OutAlpha = cantFail(ActivitySpec::parse({"alpha=out"}));
  CHECK(codeOf(resolveActivities(*K->getFunction("k"), DiffMode::Reverse,
                                 OutAlpha, nullptr, true)
                   .takeError()) == ExitCode::Usage);
}

TEST_CASE("kernel floats are const in reverse mode by default",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, KernelIR);
  auto Map = resolveActivities(*M->getFunction("k"), DiffMode::Reverse, {},
                               nullptr, true);
  REQUIRE(static_cast<bool>(Map));
  CHECK(Map->back() == Activity::Const);
}

TEST_CASE("manifest paths and leaf-name prefixes select splatted leaves",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, KernelIR);
  Function &K = *M->getFunction("k");
  KernelManifest Manifest = kernelManifest();
  // x (bc.0.0...) const by manifest path, y by leaf name; state by prefix.
  auto Spec = cantFail(ActivitySpec::parse(
      {"2.0.0=const", "bc.0.1.0.0=dupnoneed", "state=const"}));
  auto Map = resolveActivities(K, DiffMode::Forward, Spec, &Manifest, true);
  REQUIRE(static_cast<bool>(Map));
  CHECK(*Map == ActivityMap{Activity::Const, Activity::Const, Activity::Dup,
                            Activity::Const, Activity::Const,
                            Activity::DupNoNeed, Activity::Dup});
}

TEST_CASE("the most specific key wins; ties go to the later key",
          "[ActivitySpec]") {
  LLVMContext Ctx;
  auto M = parseModule(Ctx, KernelIR);
  Function &K = *M->getFunction("k");
  KernelManifest Manifest = kernelManifest();
  auto Spec = cantFail(ActivitySpec::parse(
      {"2.0.0.0.0=dup", "2=const", "2.0=const", "bc=dup", "bc=const"}));
  auto Map = resolveActivities(K, DiffMode::Forward, Spec, &Manifest, true);
  REQUIRE(static_cast<bool>(Map));
  // "2" is parameter index 2 (dest.0), never a path prefix.
  CHECK((*Map)[2] == Activity::Const);
  // Exact 2.0.0.0.0 beats the 2.0 prefix and the bc prefix.
  CHECK((*Map)[3] == Activity::Dup);
  // 2.0 (depth 2) beats bc (depth 1).
  CHECK((*Map)[5] == Activity::Const);
}
