//===- OutputSafety.cpp - No output overwrites an input or another output -===//
#include "ir-sanitize/Support/OutputSafety.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace irs {

namespace {

/// \p Path absolute, its existing directories' symbolic links resolved and
/// "." and ".." removed: what a file not yet created will be.
std::string canonicalPath(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  SmallString<256> Real;
  if (!sys::fs::real_path(Abs, Real))
    return std::string(Real);
  // Resolve the longest existing prefix, then append the rest.
  SmallString<256> Rest;
  SmallString<256> Dir(Abs);
  while (sys::path::has_parent_path(Dir)) {
    SmallString<256> Name = sys::path::filename(Dir);
    sys::path::remove_filename(Dir);
    SmallString<256> Tail(Name);
    if (!Rest.empty())
      sys::path::append(Tail, Rest);
    Rest = Tail;
    if (!sys::fs::real_path(Dir, Real)) {
      sys::path::append(Real, Rest);
      return std::string(Real);
    }
  }
  return std::string(Abs);
}

/// Whether \p Path is compared at all: not stdin/stdout, not a device or
/// FIFO (written in place, never replaced).
bool comparable(const JobFile &F) {
  return !F.Path.empty() && F.Path != "-" &&
         !AtomicOutputFile::writesInPlace(F.Path);
}

std::string shown(const JobFile &F) {
  if (!F.Given.empty())
    return F.Option + " " + escapeForMessage(F.Given) + " (its " +
           escapeForMessage(sys::path::filename(F.Path)) + ")";
  return F.Option + " " + escapeForMessage(F.Path);
}

/// Whether \p Path names this process's standard output: "-", a name of
/// descriptor 1, or the file or pipe it is open on (not a device such as
/// /dev/null, which any number of outputs may share).
bool namesStandardOutput(StringRef Path) {
  if (Path == "-")
    return true;
  SmallString<64> P(Path);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  std::string OwnFD = "/proc/" + std::to_string(::getpid()) + "/fd/1";
  for (StringRef Alias :
       {StringRef("/dev/stdout"), StringRef("/dev/fd/1"),
        StringRef("/proc/self/fd/1"), StringRef("/proc/thread-self/fd/1"),
        StringRef(OwnFD)})
    if (P == Alias)
      return true;
  struct stat Out, File;
  return ::fstat(STDOUT_FILENO, &Out) == 0 && !S_ISCHR(Out.st_mode) &&
         ::stat(P.c_str(), &File) == 0 && File.st_dev == Out.st_dev &&
         File.st_ino == Out.st_ino;
}

Error clash(const JobFile &Out, const JobFile &Other, StringRef What) {
  return makeToolError(ExitCode::Usage, shown(Out) + " and " + shown(Other) +
                                            " " + What +
                                            "; nothing was written");
}

/// Whether \p Path lies inside directory \p Dir (or is it).
bool inside(StringRef Path, StringRef Dir) {
  std::string P = canonicalPath(Path), D = canonicalPath(Dir);
  return P == D ||
         StringRef(P).starts_with((D + sys::path::get_separator()).str());
}

} // namespace

bool sameFile(StringRef A, StringRef B) {
  sys::fs::UniqueID IA, IB;
  if (!sys::fs::getUniqueID(A, IA) && !sys::fs::getUniqueID(B, IB))
    return IA == IB;
  return canonicalPath(A) == canonicalPath(B);
}

/// Standard output is one more output, which one option alone may name.
static Error checkOneStandardOutput(const JobFiles &Files) {
  const JobFile *First = nullptr;
  auto Check = [&](const JobFile &F) -> Error {
    if (F.Path.empty() || !namesStandardOutput(F.Path))
      return Error::success();
    if (First)
      return clash(*First, F, "both write to standard output");
    First = &F;
    return Error::success();
  };
  if (Error E = Check(Files.ModuleOutput))
    return E;
  for (const JobFile &F : Files.Outputs)
    if (Error E = Check(F))
      return E;
  return Error::success();
}

Error checkDistinctFiles(const JobFiles &Files) {
  if (Error E = checkOneStandardOutput(Files))
    return E;
  std::vector<const JobFile *> Inputs, Outputs;
  if (comparable(Files.ModuleInput))
    Inputs.push_back(&Files.ModuleInput);
  for (const JobFile &F : Files.Inputs)
    if (comparable(F))
      Inputs.push_back(&F);
  if (comparable(Files.ModuleOutput))
    Outputs.push_back(&Files.ModuleOutput);
  for (const JobFile &F : Files.Outputs)
    if (comparable(F))
      Outputs.push_back(&F);
  for (size_t I = 0; I != Outputs.size(); ++I) {
    for (size_t J = 0; J != I; ++J)
      if (sameFile(Outputs[I]->Path, Outputs[J]->Path))
        return clash(*Outputs[J], *Outputs[I], "name the same file");
    for (const JobFile *In : Inputs)
      if ((In != &Files.ModuleInput || Outputs[I] != &Files.ModuleOutput) &&
          sameFile(Outputs[I]->Path, In->Path))
        return clash(*Outputs[I], *In,
                     "name the same file (an output would overwrite an "
                     "input)");
  }
  for (const JobFile &Dir : Files.OutputDirs)
    if (!Dir.Path.empty())
      for (const JobFile *In : Inputs)
        if (inside(In->Path, Dir.Path))
          return clash(Dir, *In,
                       "overlap (the directory is replaced as a whole)");
  return Error::success();
}

} // namespace irs
