// What the runner checks before any launch (src/tools/ir-sanitize-gpurun/
// PlanLoader.cpp), for --validate-only and a run alike: the plan, and that
// every PTX file it names is there, not empty, and declares each entry the
// plan launches with the parameters the plan passes.
#include "PlanLoader.h"

#include "../../Launch/RunPlanSample.h"

#include "CatchCompat.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace gpurun;
using namespace irs::test;
namespace fs = std::filesystem;

namespace {

/// A kernel as llc declares it: `.visible .entry NAME(` parameters `)`.
std::string entry(const std::string &Name, const std::string &Params) {
  return ".visible .entry " + Name + "(\n" + Params + "\n)\n{\n\tret;\n}\n";
}

/// The sample plan's two 16-byte parameters, in the forms llc writes.
std::string sampleParams(const std::string &Name) {
  return "\t.param .align 8 .b8 " + Name +
         "_param_0[16],\n\t.param .align 8 "
         ".b8 " +
         Name + "_param_1[16]";
}

/// A directory with the sample plan and PTX files that fit it; removed at
/// the end of the test.
struct PlanDir {
  fs::path Path;
  PlanDir() {
    std::string Model =
        (fs::temp_directory_path() / "irs-planloader-XXXXXX").string();
    REQUIRE(::mkdtemp(Model.data()));
    Path = Model;
    write("plan.json", printed(samplePlan()));
    for (const char *Role : {"original", "splat", "forward"})
      write(std::string(Role) + ".ptx",
            "// header\n.version 7.8\n" +
                entry(std::string("k_") + Role,
                      sampleParams(std::string("k_") + Role)));
    write("reverse.ptx",
          entry("k_reverse", sampleParams("k_reverse")) +
              entry("k_reverse_grid_stride",
                    sampleParams("k_reverse_grid_stride") +
                        ",\n\t.param .u32 k_reverse_grid_stride_param_2"));
  }
  ~PlanDir() { fs::remove_all(Path); }
  void write(const std::string &Name, const std::string &Text) {
    std::ofstream(Path / Name) << Text;
  }
  std::string dir() const { return Path.string(); }
  std::string problem() {
    LoadedPlan L;
    std::string Error;
    CHECK_FALSE(loadPlan(dir(), L, Error));
    return Error;
  }
};

} // namespace

TEST_CASE("a plan whose PTX declares every entry it launches loads, with "
          "its PTX text",
          "[PlanLoader]") {
  PlanDir D;
  LoadedPlan L;
  std::string Error;
  REQUIRE(loadPlan(D.dir(), L, Error));
  CHECK(Error.empty());
  CHECK(L.P.Kernels.size() == 4);
  REQUIRE(L.PTX.size() == 4);
  CHECK(L.PTX.at("reverse.ptx").find("k_reverse_grid_stride") !=
        std::string::npos);
}

TEST_CASE("an empty, missing or unreadable PTX file is refused",
          "[PlanLoader]") {
  PlanDir D;
  D.write("forward.ptx", "");
  CHECK(D.problem() == D.dir() + "/forward.ptx: the forward kernel's PTX is "
                                 "empty");
  fs::remove(D.Path / "forward.ptx");
  CHECK(D.problem().find(D.dir() + "/forward.ptx: cannot read the forward "
                                   "kernel's PTX") == 0);
  fs::remove(D.Path / "plan.json");
  CHECK(D.problem().find("plan.json: cannot read the run plan") !=
        std::string::npos);
}

TEST_CASE("a PTX file that lacks an entry, or declares other parameters, is "
          "refused",
          "[PlanLoader]") {
  PlanDir D;
  // Another kernel whose name starts with the entry's is not the entry.
  D.write("splat.ptx", entry("k_splat_other", sampleParams("x")));
  CHECK(D.problem() == D.dir() + "/splat.ptx: the splat kernel's PTX "
                                 "declares no kernel 'k_splat'");
  D.write("splat.ptx", entry("k_splat", "\t.param .u64 k_splat_param_0"));
  CHECK(D.problem() == D.dir() + "/splat.ptx: the splat kernel's PTX kernel "
                                 "'k_splat' takes parameters of (8) bytes, "
                                 "the plan passes (16, 16)");
  D.write("splat.ptx",
          entry("k_splat", sampleParams("k_splat") + ",\n\t.param .u32 extra"));
  CHECK(D.problem().find("takes parameters of (16, 16, 4) bytes") !=
        std::string::npos);
  D.write("splat.ptx", entry("k_splat", sampleParams("k_splat")));
  // The grid-stride version takes the blocks to cover as well.
  D.write("reverse.ptx", entry("k_reverse", sampleParams("k_reverse")) +
                             entry("k_reverse_grid_stride",
                                   sampleParams("k_reverse_grid_stride")));
  CHECK(D.problem().find("reverse.ptx: the reverse kernel's PTX kernel "
                         "'k_reverse_grid_stride' takes parameters of (16, "
                         "16) bytes, the plan passes (16, 16, 4)") !=
        std::string::npos);
  D.write("reverse.ptx", entry("k_reverse", sampleParams("k_reverse")));
  CHECK(D.problem().find("declares no kernel 'k_reverse_grid_stride'") !=
        std::string::npos);
}

TEST_CASE("PTX parameter declarations as llc writes them", "[PlanLoader]") {
  std::string Problem;
  auto Params = [&](const std::string &Decls) {
    return ptxEntryParams(entry("k", Decls), "k", Problem);
  };
  CHECK(Params("") == std::vector<uint64_t>{});
  CHECK(Params("\n") == std::vector<uint64_t>{});
  CHECK(Params(".param .u64 .ptr .global .align 1 k_param_0,\n"
               ".param .f32 k_param_1, .param .b8 k_param_2,"
               ".param .align 4 .b8 k_param_3[12], .param .s16 k_param_4") ==
        std::vector<uint64_t>{8, 4, 1, 12, 2});
  CHECK_FALSE(Params(".param .u128 k_param_0"));
  CHECK(Problem == "kernel 'k': parameter 0 is not understood");
  CHECK_FALSE(Params(".param .b8 k_param_0[]"));
  CHECK_FALSE(Params(".param .b8 k_param_0[99999999999999999999]"));
  CHECK_FALSE(Params(".param .b8 k_param_0[4] extra"));
  CHECK_FALSE(Params(".reg .b32 r"));
  // A declaration of a function, not a kernel, is not an entry.
  CHECK_FALSE(ptxEntryParams(".func k(.param .u64 a)", "k", Problem));
  CHECK(Problem == "declares no kernel 'k'");
  CHECK_FALSE(ptxEntryParams(".entry k", "k", Problem));
  CHECK_FALSE(ptxEntryParams("", "k", Problem));
}
