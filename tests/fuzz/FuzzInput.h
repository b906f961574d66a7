//===- FuzzInput.h - Hand a fuzz input to a reader that takes a file -----===//
//
// The tool's readers take paths (readModule, LaunchSpec::readFile, ...), and
// that is what the fuzz targets exercise: the input is written to one
// scratch file per process, which each run overwrites.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_FUZZ_FUZZINPUT_H
#define IR_SANITIZE_TESTS_FUZZ_FUZZINPUT_H

#include "ir-sanitize/Support/ModuleReader.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace irs::fuzz {

/// The input as text.
inline llvm::StringRef asText(const uint8_t *Data, size_t Size) {
  return {reinterpret_cast<const char *>(Data), Size};
}

/// A broken promise of the code under test: abort, so libFuzzer saves the
/// input as a crash.
[[noreturn]] inline void fail(const llvm::Twine &Why) {
  llvm::errs() << "fuzz: " << Why << "\n";
  std::abort();
}

inline std::string &scratchPath() {
  static std::string Path;
  return Path;
}

/// Writes \p Data to this process's scratch file (named with \p Suffix, e.g.
/// ".json"; removed at exit) and returns its path.
inline const std::string &writeScratchFile(const uint8_t *Data, size_t Size,
                                           llvm::StringRef Suffix) {
  std::string &Path = scratchPath();
  if (Path.empty()) {
    llvm::SmallString<128> P;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "irs-fuzz", Suffix.drop_front(), P))
      fail("cannot create a scratch file: " + EC.message());
    Path = std::string(P);
    std::atexit([] { llvm::sys::fs::remove(scratchPath()); });
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    fail("cannot write " + Path + ": " + EC.message());
  OS.write(reinterpret_cast<const char *>(Data), Size);
  return Path;
}

/// The module \p Text holds, or null: parsed as the tool parses text
/// (irs::parseTextIR: no debug-info upgrade, which verifies and aborts on a
/// broken module; no declaration LLVM's parser crashes on), unverified, as
/// a host may hold it. The text is copied: the lexer reads up to a NUL.
inline std::unique_ptr<llvm::Module> parseText(llvm::StringRef Text,
                                               llvm::LLVMContext &Ctx) {
  llvm::SMDiagnostic Diag;
  return irs::parseTextIR(llvm::MemoryBuffer::getMemBufferCopy(Text, "fuzz"),
                          Diag, Ctx);
}

} // namespace irs::fuzz

#endif
