//===- AtomicOutput.cpp - Outputs that appear whole or not at all ---------===//
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <csignal>
#include <thread>

using namespace llvm;

namespace irs {

namespace {

Error outputError(StringRef Path, const Twine &Why) {
  return makeToolError(ExitCode::OutputError,
                       Path + ": cannot write output: " + Why);
}

/// A file's stream would buffer one file-system block (4 KiB): thousands of
/// write calls for a module or manifest of tens of megabytes.
constexpr size_t OutputBufferSize = 256 * 1024;

} // namespace

bool AtomicOutputFile::writesInPlace(StringRef Path) {
  if (Path == "-")
    return true;
  sys::fs::file_status Status;
  return !sys::fs::status(Path, Status) && !sys::fs::is_directory(Status) &&
         !sys::fs::is_regular_file(Status);
}

namespace {

/// "irs-PID-": what temporaries of this process carry after ".NAME.".
std::string tempTag(int Pid) { return "irs-" + std::to_string(Pid) + "-"; }

/// Removes `.NAME.irs-PID-XXXXXX.tmp` files in \p Dir left by writers of
/// \p Name that are no longer running (killed while writing). Only regular
/// files of that exact form are touched; a live PID's file is left alone.
void removeStaleTemporaries(StringRef Dir, StringRef Name) {
  std::string Prefix = ("." + Name + ".irs-").str();
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC, /*FollowSymlinks=*/false), End;
       !EC && It != End; It.increment(EC)) {
    StringRef File = sys::path::filename(It->path());
    if (!File.consume_front(Prefix) || !File.consume_back(".tmp"))
      continue;
    auto [PidText, Random] = File.split('-');
    int Pid;
    if (PidText.getAsInteger(10, Pid) || Pid <= 0 || Random.size() != 6 ||
        Pid == static_cast<int>(sys::Process::getProcessId()) ||
        It->type() != sys::fs::file_type::regular_file)
      continue;
    if (::kill(Pid, 0) == 0 || errno != ESRCH)
      continue; // Running (or not ours to ask about): maybe still writing.
    sys::fs::remove(It->path());
  }
}

} // namespace

Expected<std::unique_ptr<AtomicOutputFile>>
AtomicOutputFile::open(StringRef Path) {
  std::unique_ptr<AtomicOutputFile> F(new AtomicOutputFile);
  F->Shown = Path.str();
  if (Path == "-") {
    F->OS = &outs();
    return F;
  }
  sys::fs::file_status Status;
  bool Exists = !sys::fs::status(Path, Status);
  if (Exists && sys::fs::is_directory(Status))
    return outputError(Path, "is a directory");
  std::error_code EC;
  if (Exists && !sys::fs::is_regular_file(Status)) {
    // Stdout, devices and pipes (/dev/null, /dev/stdout, a FIFO): a rename
    // would replace them instead of writing to them.
    auto File = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_None);
    if (EC)
      return outputError(Path, EC.message());
    F->File = std::move(File);
    F->OS = F->File.get();
    return F;
  }
  // A real path, so that a symbolic link given as -o keeps pointing at the
  // file it named.
  SmallString<256> Real;
  if (!Exists || sys::fs::real_path(Path, Real))
    Real = Path;
  F->Target = Real.str().str();
  SmallString<256> Model(Real);
  sys::path::remove_filename(Model);
  if (Model.empty())
    Model = ".";
  std::string Name = sys::path::filename(Real).str();
  removeStaleTemporaries(Model, Name);
  sys::path::append(Model, "." + Name + "." +
                               tempTag(sys::Process::getProcessId()) +
                               "%%%%%%.tmp");
  int FD;
  if ((EC = sys::fs::createUniqueFile(Model, FD, F->TempPath)))
    return outputError(Path, EC.message());
  if (processHooks().RemoveTemporariesOnSignal)
    sys::RemoveFileOnSignal(F->TempPath);
  F->File = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
  F->File->SetBufferSize(OutputBufferSize);
  F->OS = F->File.get();
  return F;
}

Error AtomicOutputFile::close() {
  if (!File) {
    outs().flush();
    std::error_code EC = outs().error();
    if (!EC)
      return Error::success();
    outs().clear_error();
    return outputError("<stdout>", EC.message());
  }
  File->close();
  std::error_code EC = File->error();
  File->clear_error();
  File.reset();
  if (!EC)
    return Error::success();
  discard();
  return outputError(Shown, EC.message());
}

Error AtomicOutputFile::rename() {
  if (TempPath.empty())
    return Error::success();
  if (std::error_code EC = sys::fs::rename(TempPath, Target)) {
    discard();
    return outputError(Shown, EC.message());
  }
  if (processHooks().RemoveTemporariesOnSignal)
    sys::DontRemoveFileOnSignal(TempPath);
  TempPath.clear();
  return Error::success();
}

Error AtomicOutputFile::commit() {
  if (Error E = close())
    return E;
  return rename();
}

void AtomicOutputFile::discard() {
  if (File) {
    File->close(); // Flushes what is left into the file removed below.
    File->clear_error();
    File.reset();
  }
  if (TempPath.empty())
    return;
  sys::fs::remove(TempPath);
  if (processHooks().RemoveTemporariesOnSignal)
    sys::DontRemoveFileOnSignal(TempPath);
  TempPath.clear();
}

AtomicOutputFile::~AtomicOutputFile() { discard(); }

Error writeFileAtomically(StringRef Path,
                          function_ref<void(raw_ostream &)> Fill) {
  Expected<std::unique_ptr<AtomicOutputFile>> File =
      AtomicOutputFile::open(Path);
  if (!File)
    return File.takeError();
  Fill((*File)->os());
  return (*File)->commit();
}

namespace {

/// Fills \p Files[I] for each I in \p Indices, all but the first on a
/// thread of its own, and closes them; returns the first error (in order).
Error fillAndClose(ArrayRef<OutputFile> Files,
                   MutableArrayRef<std::unique_ptr<AtomicOutputFile>> Open,
                   ArrayRef<size_t> Indices) {
  std::vector<Error> Errors;
  for (size_t I = 0; I != Indices.size(); ++I)
    Errors.push_back(Error::success());
  auto Fill = [&](size_t K) {
    size_t I = Indices[K];
    Errors[K] = Files[I].Fill(Open[I]->os());
    if (Errors[K])
      Open[I]->discard();
    else
      Errors[K] = Open[I]->close();
  };
  std::vector<std::thread> Threads;
  for (size_t K = 1; K < Indices.size(); ++K)
    Threads.emplace_back(Fill, K);
  if (!Indices.empty())
    Fill(0);
  for (std::thread &T : Threads)
    T.join();
  Error First = Error::success();
  for (Error &E : Errors)
    First = First ? joinErrors(std::move(First), std::move(E)) : std::move(E);
  return First;
}

/// The first error of \p E (one line for the user); the rest are dropped.
Error firstError(Error E) {
  Error First = Error::success();
  handleAllErrors(std::move(E), [&](std::unique_ptr<ErrorInfoBase> EI) {
    if (!First)
      First = Error(std::move(EI));
  });
  return First;
}

} // namespace

Error writeOutputsTogether(ArrayRef<OutputFile> Files) {
  std::vector<std::unique_ptr<AtomicOutputFile>> Open;
  for (const OutputFile &F : Files) {
    Expected<std::unique_ptr<AtomicOutputFile>> File =
        AtomicOutputFile::open(F.Path);
    if (!File)
      return File.takeError(); // Destroying Open removes what was created.
    Open.push_back(std::move(*File));
  }
  SmallVector<size_t, 4> Temporary, InPlace;
  for (size_t I = 0; I != Open.size(); ++I)
    (Open[I]->isInPlace() ? InPlace : Temporary).push_back(I);
  if (Error E = fillAndClose(Files, Open, Temporary))
    return firstError(std::move(E));
  // Visible as soon as written, so only once every temporary is complete.
  for (size_t I : InPlace)
    if (Error E = fillAndClose(Files, Open, {I}))
      return E;
  for (size_t I : Temporary)
    if (Error E = Open[I]->rename())
      return E;
  return Error::success();
}
} // namespace irs
