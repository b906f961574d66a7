#include "ir-sanitize/Analysis/JuliaMangling.h"

#include "CatchCompat.h"

using namespace irs;

namespace {

/// The arguments' names with their element types: "Ptr{Float64}".
std::vector<std::string> read(const char *Mangled, JuliaMangling D) {
  std::vector<std::string> Out;
  std::optional<std::vector<JuliaType>> Args =
      demangleJuliaArguments(Mangled, D);
  if (!Args)
    return {"<none>"};
  for (const JuliaType &T : *Args) {
    std::optional<std::string> E = juliaElementType(T);
    Out.push_back(T.Name + (E ? "{" + *E + "}" : ""));
  }
  return Out;
}

constexpr JuliaMangling Names = JuliaMangling::NamesOnly;
constexpr JuliaMangling Types = JuliaMangling::AllTypes;

} // namespace

TEST_CASE("names-only mangling: substitutions are type names",
          "[JuliaMangling]") {
  // matmul(::Ptr{Float64}, ::Ptr{Float64}, ::Ptr{Float64}, ::Int32)
  const char *Matmul = "_Z12julia_matmul3PtrI7Float64ES_IS0_ES_IS0_E5Int32";
  CHECK(read(Matmul, Names) ==
        std::vector<std::string>{"Ptr{Float64}", "Ptr{Float64}", "Ptr{Float64}",
                                 "Int32"});
  // SpMM(colptr::CuDeviceVector{Int32}, rowval, nzval::CuDeviceVector{
  // Float64}, B::CuDeviceMatrix{Float64}, C)
  const char *SpMM = "_Z15julia_SpMM_273613CuDeviceArrayI5Int32Li1ELi1EES_"
                     "IS0_Li1ELi1EES_I7Float64Li1ELi1EES_IS1_Li2ELi1EES_IS1_"
                     "Li2ELi1EE";
  CHECK(read(SpMM, Names) ==
        std::vector<std::string>{"CuDeviceArray{Int32}", "CuDeviceArray{Int32}",
                                 "CuDeviceArray{Float64}",
                                 "CuDeviceArray{Float64}",
                                 "CuDeviceArray{Float64}"});
  // Read as the later mangling, the second argument spells out a whole type
  // seen before (that mangling refers to it), so that reading fails.
  CHECK(read(SpMM, Types) == std::vector<std::string>{"<none>"});
}

TEST_CASE("all-types mangling: P for Ptr, whole types as substitutions",
          "[JuliaMangling]") {
  // Ptr{Float32} three times: P7Float32, then the whole type (S0_).
  const char *Three = "_Z6scale_P7Float32S0_S0_5Int64";
  CHECK(read(Three, Types) ==
        std::vector<std::string>{"Ptr{Float32}", "Ptr{Float32}", "Ptr{Float32}",
                                 "Int64"});
  // Names only, S0_ is Int64's slot's neighbour: out of range.
  CHECK(read(Three, Names) == std::vector<std::string>{"<none>"});
  // A kernel context, then CuDeviceArray{Float32,1,1} twice (the second
  // time S2_: the whole type) and a Val of a tuple value.
  CHECK(read("_Z4copy15CuKernelContext13CuDeviceArrayI7Float32Li1ELi1EES2_"
             "3ValI6_256__E",
             Types) ==
        std::vector<std::string>{"CuKernelContext", "CuDeviceArray{Float32}",
                                 "CuDeviceArray{Float32}", "Val"});
}

TEST_CASE("what is not a Julia kernel name reads as nothing",
          "[JuliaMangling]") {
  for (const char *Bad :
       {"ptxcall_Kernel_3", "_Z", "_Z99abc", "_Z3fooS_", "_Z3foo7Float3",
        "_Z3foo3PtrI7Float64", "_Z3fooLi1", "_Z3fooS9999999_", "_Z3foo3BarIS_",
        "_Z3foo3Bar3Bar", "_Z1fP0"}) {
    INFO(Bad);
    CHECK(read(Bad, Names) == std::vector<std::string>{"<none>"});
    CHECK(read(Bad, Types) == std::vector<std::string>{"<none>"});
  }
  // LLVM's ".1" for a renamed duplicate is not part of the name.
  CHECK(read("_Z1f7Float32.1", Types) == std::vector<std::string>{"Float32"});
  // Deep nesting is bounded.
  std::string Deep = "_Z1f";
  for (int I = 0; I < 200; ++I)
    Deep += "1AI";
  CHECK(read(Deep.c_str(), Types) == std::vector<std::string>{"<none>"});
}
