//===- LaunchManifest.h - Where splatted kernel parameters live -*- C++ -*-===//
//
// For each kernel rewritten by the splat pass: its original parameters and,
// for every parameter of the new kernel, which original argument's bytes it
// comes from and at which byte offset, so that a launcher can pass
// new_params[k] = orig_params[OrigIndex] + Offset without copying anything.
//
// JSON form (version 1):
// { "version": 1, "triple": ..., "datalayout": ...,
//   "kernels": [ { "name": ...,
//     "original_params": [ {"index", "type", "size", "passing":
//     "value"|"byval"|"byref"|"scalar"} ], "params": [ {"index", "name",
//     "type", "orig_index", "path": [..],
//                  "offset", "size", "pointer": bool, "addrspace"} ] } ] }
// A parameter that was not splatted appears in "params" with an empty path.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_LAUNCHMANIFEST_H
#define IR_SANITIZE_SUPPORT_LAUNCHMANIFEST_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irs {

struct ManifestOriginalParam {
  unsigned Index = 0;
  std::string
      Type; ///< LLVM type as printed (the pointee type for byval/byref).
  uint64_t Size = 0;   ///< Alloc size of that type in the module's data layout.
  std::string Passing; ///< "value", "byval", "byref" or "scalar".
};

struct ManifestParam {
  unsigned Index = 0;         ///< Index in the new kernel.
  std::string Name;           ///< e.g. "bc.0.1.0"
  std::string Type;           ///< LLVM type as printed.
  unsigned OrigIndex = 0;     ///< Original parameter it lives in.
  std::vector<unsigned> Path; ///< Aggregate indices inside the original.
  uint64_t Offset = 0;        ///< Byte offset inside the original argument.
  uint64_t Size = 0;          ///< Store size of the leaf.
  bool Pointer = false;
  unsigned AddrSpace = 0;

  /// "2.0.1.0.0": the original index followed by the path.
  std::string pathString() const;
};

struct KernelManifest {
  std::string Name;
  std::vector<ManifestOriginalParam> OriginalParams;
  std::vector<ManifestParam> Params;

  /// The parameter at a path string ("2.0.1" or "3"), or nullptr.
  const ManifestParam *findByPath(llvm::StringRef Path) const;
};

struct LaunchManifest {
  static constexpr int CurrentVersion = 1;
  int Version = CurrentVersion;
  std::string Triple;
  std::string DataLayout;
  std::vector<KernelManifest> Kernels;

  const KernelManifest *findKernel(llvm::StringRef Name) const;
  llvm::json::Value toJSON() const;
  /// Streams the JSON (keys in the order documented above); \p Indent 0
  /// prints it on one line.
  void print(llvm::raw_ostream &OS, unsigned Indent = 2) const;
  static llvm::Expected<LaunchManifest> fromJSON(const llvm::json::Value &V);
  static llvm::Expected<LaunchManifest> readFile(llvm::StringRef Path);
  /// A manifest file's content: print() indented, then a newline.
  void printFile(llvm::raw_ostream &OS) const;
  /// Writes printFile() atomically; "-" is stdout.
  llvm::Error writeFile(llvm::StringRef Path) const;
};

} // namespace irs

#endif
