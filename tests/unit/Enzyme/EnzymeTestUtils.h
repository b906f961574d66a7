//===- EnzymeTestUtils.h - Helpers of the Enzyme unit tests ----*- C++ -*-===//
#ifndef IR_SANITIZE_TESTS_ENZYMETESTUTILS_H
#define IR_SANITIZE_TESTS_ENZYMETESTUTILS_H

#include "ir-sanitize/Enzyme/EnzymeRunner.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "CatchCompat.h"
#include "TestPaths.h"
#include "TestSupport.h"

#include <string>
#include <vector>

namespace irs::test {

/// A stand-in plugin built by tests/fake-plugins.
inline std::string fakePlugin(llvm::StringRef Name) {
  llvm::SmallString<256> P(FakePluginsDir);
  llvm::sys::path::append(P, Name);
  return std::string(P);
}

/// An Enzyme snapshot the team keeps for this LLVM (CMake's
/// EnzymeSnapshots): "2025-02" (before Enzyme PR #2906) or "2026-07".
struct EnzymeSnapshot {
  std::string Name, Plugin;
};

/// Every snapshot there is for this build's LLVM, oldest first.
inline std::vector<EnzymeSnapshot> enzymeSnapshots() {
  llvm::SmallVector<llvm::StringRef, 2> Items;
  llvm::StringRef(EnzymeSnapshots).split(Items, '|', -1, false);
  std::vector<EnzymeSnapshot> Snapshots;
  for (llvm::StringRef Item : Items) {
    auto [Name, Plugin] = Item.split('=');
    Snapshots.push_back({Name.str(), Plugin.str()});
  }
  return Snapshots;
}

/// Enzyme on \p Dir's in.ll (written here if absent) with \p Plugin; output
/// and log named after \p Stem.
inline EnzymeInvocation enzymeRun(const WorkDir &Dir, llvm::StringRef Stem,
                                  llvm::StringRef Plugin, unsigned Timeout) {
  EnzymeInvocation Inv;
  Inv.InputPath = Dir.path("in.ll");
  if (!llvm::sys::fs::exists(Inv.InputPath))
    Dir.write("in.ll", "define double @f(double %x) {\n  ret double %x\n}\n");
  Inv.OutputPath = Dir.path((Stem + ".out.ll").str());
  Inv.LogPath = Dir.path((Stem + ".log").str());
  Inv.PluginPath = Plugin.str();
  Inv.TimeoutSeconds = Timeout;
  Inv.TextOutput = true;
  return Inv;
}

} // namespace irs::test

#endif
