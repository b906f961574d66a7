//===- PathIn.h - Files in the driver's work directories --------*- C++ -*-===//
//
// Every pipeline names the files it hands to child processes (Enzyme,
// llvm-reduce, the GPU runner) inside one directory; this is that join,
// internal (not installed).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_SUPPORT_PATHIN_H
#define IR_SANITIZE_SUPPORT_PATHIN_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <string>

namespace irs {

/// \p File in directory \p Dir.
inline std::string pathIn(llvm::StringRef Dir, llvm::StringRef File) {
  llvm::SmallString<256> P(Dir);
  llvm::sys::path::append(P, File);
  return std::string(P);
}

} // namespace irs

#endif
