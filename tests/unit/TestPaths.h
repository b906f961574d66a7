//===- TestPaths.h - Where the unit tests find their inputs -----*- C++ -*-===//
//
// The checkout's, the corpus', the stand-in plugins' and the Enzyme
// snapshots' paths are compiled into TestPaths.cpp alone: every other test
// file then compiles to the same object wherever the repository is, so that a
// clone elsewhere (CI's) hits the compiler cache the development build
// filled (cmake/CompilerCache.cmake).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_UNIT_TESTPATHS_H
#define IR_SANITIZE_TESTS_UNIT_TESTPATHS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace irs::test {

/// The repository's root.
extern const char *const SourceDir;
/// ../shared/corpus beside it (it may be missing: tests skip).
extern const char *const CorpusDir;
/// The stand-in Enzyme plugins (tests/fake-plugins) of this build.
extern const char *const FakePluginsDir;
/// The Enzyme snapshots for this LLVM: "NAME=PATH|NAME=PATH...".
extern const char *const EnzymeSnapshots;

/// SourceDir + "/" + \p Relative.
inline std::string sourcePath(llvm::StringRef Relative) {
  return std::string(SourceDir) + "/" + Relative.str();
}
/// CorpusDir + "/" + \p Relative.
inline std::string corpusPath(llvm::StringRef Relative) {
  return std::string(CorpusDir) + "/" + Relative.str();
}

} // namespace irs::test

#endif
