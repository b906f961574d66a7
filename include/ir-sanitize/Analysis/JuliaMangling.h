//===- JuliaMangling.h - The Julia types in a kernel's name -----*- C++ -*-===//
//
// GPUCompiler names a kernel after its Julia signature in the shape of an
// Itanium C++ name: `_Z12julia_matmul3PtrI7Float64ES_IS0_ES_IS0_E5Int32` is
// matmul(::Ptr{Float64}, ::Ptr{Float64}, ::Ptr{Float64}, ::Int32). The name
// says what the LLVM types no longer do (an opaque `ptr` or an i64 address,
// Float64 data loaded as i64), so the launch inference reads element types
// from it.
//
// GPUCompiler's mangling changed over the years: at first only type names
// were substitution candidates (`S_` is the first name, `S0_` the second)
// and Ptr{T} was spelled like any type, then Ptr{T} became `P` + T, and
// later every mangled type became a candidate too. The name does not say
// which, so the reader takes the dialect and callers try both.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_ANALYSIS_JULIAMANGLING_H
#define IR_SANITIZE_ANALYSIS_JULIAMANGLING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace irs {

/// One Julia type (or type parameter) as the name spells it.
struct JuliaType {
  std::string Name;              ///< "CuDeviceArray", "Float64", "1" (Li1E)
  std::vector<JuliaType> Params; ///< {T, N, A}
  bool Literal = false;          ///< A value: Li1E, or a tuple `_256__`.
  bool Pointer = false;          ///< Ptr{T} spelled `P` + T: T in Params.
  bool operator==(const JuliaType &O) const {
    return Name == O.Name && Params == O.Params && Literal == O.Literal &&
           Pointer == O.Pointer;
  }
};

/// The ways GPUCompiler has mangled names (see the file comment).
enum class JuliaMangling {
  NamesOnly, ///< Substitutions are type names.
  AllTypes,  ///< Substitutions are type names and whole types.
};

/// The argument types \p Mangled lists, read as \p Dialect mangles them;
/// nothing when it is not such a name or does not read that way (a
/// substitution out of range, text left over).
std::optional<std::vector<JuliaType>>
demangleJuliaArguments(llvm::StringRef Mangled, JuliaMangling Dialect);

/// The element type of a device array or pointer argument
/// (CuDeviceArray{T,...}, Ptr{T}, LLVMPtr{T,...}, and the other back ends'
/// device arrays); nothing for any other type.
std::optional<std::string> juliaElementType(const JuliaType &T);

/// Whether \p T is a device array (its LLVM type a descriptor struct).
bool isJuliaDeviceArray(const JuliaType &T);

} // namespace irs

#endif
