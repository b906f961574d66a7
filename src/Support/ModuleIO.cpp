//===- ModuleIO.cpp - Reading and writing modules safely ------------------===//
#include "ir-sanitize/Support/ModuleIO.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/LLVMCompat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

namespace irs {
namespace {

/// "FILE: problem", or "FILE:LINE:COL: problem" when \p Problem starts with a
/// location (compiler style, so editors can jump to it).
Error badInput(StringRef Name, const Twine &Problem) {
  std::string P = Problem.str();
  const char *Sep = (!P.empty() && isDigit(P[0])) ? ":" : ": ";
  return makeToolError(ExitCode::BadInput, Name + Sep + P);
}

/// The first line of a (possibly multi-line) message.
std::string firstLine(StringRef Message) {
  return Message.split('\n').first.rtrim().str();
}

/// Which debug-info form the input used. Text: whichever spelling occurs.
/// Bitcode: bitcode written by LLVM < 19 can only hold intrinsics.
DebugInfoForm detectDebugInfoForm(MemoryBufferRef Buf, bool IsBitcode) {
  StringRef Data = Buf.getBuffer();
  if (!IsBitcode) {
    if (Data.contains("#dbg_"))
      return DebugInfoForm::Records;
    if (Data.contains("@llvm.dbg."))
      return DebugInfoForm::Intrinsics;
    return DebugInfoForm::None;
  }
  Expected<std::string> Producer = getBitcodeProducerString(Buf);
  if (!Producer) {
    consumeError(Producer.takeError());
    return DebugInfoForm::Records;
  }
  StringRef P(*Producer);
  unsigned Major = 0;
  if (P.consume_front("LLVM") && !P.consumeInteger(10, Major) && Major < 19)
    return DebugInfoForm::Intrinsics;
  return DebugInfoForm::Records;
}

Expected<std::unique_ptr<MemoryBuffer>> readInputBuffer(StringRef Path,
                                                        StringRef Name) {
  if (Path != "-") {
    sys::fs::file_status Status;
    if (std::error_code EC = sys::fs::status(Path, Status))
      return badInput(Name, EC.message());
    if (sys::fs::is_directory(Status))
      return badInput(Name, "is a directory, not an IR file");
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false);
  if (!Buf)
    return badInput(Name, Buf.getError().message());
  if ((*Buf)->getBufferSize() == 0)
    return badInput(Name, "file is empty");
  return std::move(*Buf);
}

/// Sets a boolean LLVM cl::opt by name if this LLVM has it.
void setLLVMFlag(StringRef Name, bool Value) {
  auto &Opts = cl::getRegisteredOptions();
  auto It = Opts.find(Name);
  if (It != Opts.end())
    It->second->addOccurrence(0, Name, Value ? "true" : "false");
}

/// Puts \p M into the debug-info form the output must use.
void applyDebugInfoForm(Module &M, DebugInfoForm Form) {
  if (compat::HasBothDebugForms) {
    // LLVM 19/20 hold either form in memory; the printer writes what it holds
    // unless told otherwise, so set both the module and the writer flags.
    bool Records = Form != DebugInfoForm::Intrinsics;
    compat::convertDebugValues(M, Records);
    setLLVMFlag("write-experimental-debuginfo", Records);
    return;
  }
  // LLVM 21+ only knows debug records, which LLVM < 19 cannot read (LLVM < 19
  // only knows intrinsics, so there is nothing to warn about there).
  if (!IRS_LLVM_WRITES_DEBUG_INTRINSICS && Form == DebugInfoForm::Intrinsics &&
      M.getNamedMetadata("llvm.dbg.cu"))
    errs() << "ir-sanitize: warning: " << M.getModuleIdentifier()
           << ": the input holds llvm.dbg.* calls, but this build (LLVM "
           << LLVM_VERSION_MAJOR
           << ") writes #dbg_ records, which LLVM 18 (Julia 1.12) cannot "
              "read; use the LLVM 19 build for output that goes back to "
              "Julia\n";
}

/// Bitcode from LLVM 19+ is only read by LLVM 19+, so it always holds debug
/// records; like BitcodeWriterPass, drop the then unused intrinsic
/// declarations, which otherwise make the reader crash while upgrading them.
void prepareForBitcode(Module &M) {
  if (!compat::HasBothDebugForms)
    return;
  compat::convertDebugValues(M, /*Records=*/true);
  compat::removeDebugIntrinsicDeclarations(M);
  setLLVMFlag("write-experimental-debuginfo-iterators-to-bitcode", true);
}

/// The first call that passes `metadata` as a variadic argument (Enzyme's
/// `__enzyme_fwddiff(f, metadata !"enzyme_dup", ...)` markers). LLVM's
/// bitcode writer stores such an argument as a reference to some unrelated
/// value, so the module read back differs silently.
const CallBase *findMetadataVarArg(const Module &M) {
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !CB->getFunctionType()->isVarArg())
        continue;
      unsigned Fixed = CB->getFunctionType()->getNumParams();
      for (unsigned A = Fixed, E = CB->arg_size(); A != E; ++A)
        if (CB->getArgOperand(A)->getType()->isMetadataTy())
          return CB;
    }
  return nullptr;
}

/// Refuses bitcode that LLVM would write wrongly (see findMetadataVarArg).
Error checkBitcodeCanHold(const Module &M, StringRef Path) {
  const CallBase *CB = findMetadataVarArg(M);
  if (!CB)
    return Error::success();
  const Function *Callee = CB->getCalledFunction();
  std::string What = Callee ? ("@" + Callee->getName()).str() : "a pointer";
  return makeToolError(
      ExitCode::OutputError,
      Path + ": cannot write output: bitcode cannot hold the metadata "
             "arguments of the varargs call to " +
          What + " in @" + CB->getFunction()->getName() +
          " (LLVM writes them as other values); write text (.ll) instead");
}

/// Text IR without the parser's own debug-info upgrade: that upgrade runs
/// the verifier and aborts the process on a module that fails it, so
/// readModule verifies first (one-line error, exit 3) and upgrades after.
std::unique_ptr<Module> parseText(MemoryBufferRef Buf, SMDiagnostic &Diag,
                                  LLVMContext &Ctx) {
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Buf), SMLoc());
  auto M = std::make_unique<Module>(Buf.getBufferIdentifier(), Ctx);
  if (LLParser(Buf.getBuffer(), SM, Diag, M.get(), nullptr, Ctx)
          .Run(/*UpgradeDebugInfo=*/false))
    return nullptr;
  return M;
}

/// The bitcode reader also upgrades debug info, aborting on a module that
/// fails the verifier; turn that abort into the documented exit code.
std::unique_ptr<Module> parseBitcode(MemoryBufferRef Buf, SMDiagnostic &Diag,
                                     LLVMContext &Ctx, StringRef Name) {
  static std::string FatalName;
  FatalName = Name.str();
  ScopedFatalErrorHandler Handler([](void *, const char *Reason, bool) {
    errs() << "ir-sanitize: error: " << FatalName
           << ": invalid IR: " << firstLine(Reason) << "\n";
    sys::Process::Exit(static_cast<int>(ExitCode::BadInput));
  });
  return parseIR(Buf, Diag, Ctx);
}

} // namespace

Expected<LoadedModule> readModule(StringRef Path, LLVMContext &Ctx) {
  LoadedModule Result;
  Result.Path = Path.str();
  Result.DisplayName = Path == "-" ? "<stdin>" : Path.str();
  StringRef Name = Result.DisplayName;

  auto BufOrErr = readInputBuffer(Path, Name);
  if (!BufOrErr)
    return BufOrErr.takeError();
  MemoryBufferRef Buf = (*BufOrErr)->getMemBufferRef();
  const auto *Start =
      reinterpret_cast<const unsigned char *>(Buf.getBufferStart());
  bool IsBitcode = isBitcode(Start, Start + Buf.getBufferSize());
  Result.Format = IsBitcode ? IRFormat::Bitcode : IRFormat::Text;
  Result.DbgForm = detectDebugInfoForm(Buf, IsBitcode);

  SMDiagnostic Diag;
  Result.M = IsBitcode ? parseBitcode(Buf, Diag, Ctx, Name)
                       : parseText(Buf, Diag, Ctx);
  if (!Result.M) {
    std::string Msg = firstLine(Diag.getMessage());
    if (Diag.getLineNo() > 0)
      return badInput(Name, Twine(Diag.getLineNo()) + ":" +
                                Twine(Diag.getColumnNo() + 1) + ": " + Msg);
    return badInput(Name, (IsBitcode ? "invalid bitcode: " : "") + Msg);
  }
  std::string VerifierMsg;
  raw_string_ostream VOS(VerifierMsg);
  bool BrokenDebugInfo = false;
  if (verifyModule(*Result.M, &VOS, &BrokenDebugInfo))
    return badInput(Name, "invalid IR: " + firstLine(VOS.str()));
  // The parser's deferred upgrade: strips broken or outdated debug info. With
  // current, valid debug info it would only run the verifier a second time.
  if (!IsBitcode &&
      (BrokenDebugInfo ||
       getDebugMetadataVersionFromModule(*Result.M) != DEBUG_METADATA_VERSION))
    UpgradeDebugInfo(*Result.M);
  return Result;
}

std::optional<IRFormat> parseIRFormat(StringRef Name) {
  if (Name == "ll")
    return IRFormat::Text;
  if (Name == "bc")
    return IRFormat::Bitcode;
  return std::nullopt;
}

IRFormat outputFormatFor(StringRef Path, std::optional<IRFormat> Emit) {
  if (Emit)
    return *Emit;
  return Path.ends_with(".bc") ? IRFormat::Bitcode : IRFormat::Text;
}

Error verifyModuleOrError(const Module &M, StringRef What) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (!verifyModule(M, &OS))
    return Error::success();
  return makeToolError(ExitCode::VerifierFailed,
                       What +
                           " failed the LLVM verifier (a bug in "
                           "ir-sanitize, please report it): " +
                           firstLine(OS.str()));
}

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
  sys::path::append(Model, "." + sys::path::filename(Real) + ".%%%%%%.tmp");
  int FD;
  if ((EC = sys::fs::createUniqueFile(Model, FD, F->TempPath)))
    return outputError(Path, EC.message());
  sys::RemoveFileOnSignal(F->TempPath);
  F->File = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
  F->File->SetBufferSize(OutputBufferSize);
  F->OS = F->File.get();
  return F;
}

Error AtomicOutputFile::commit() {
  if (!File) {
    outs().flush();
    if (!outs().has_error())
      return Error::success();
    outs().clear_error();
    return makeToolError(ExitCode::OutputError, "cannot write to stdout");
  }
  File->close();
  std::error_code EC = File->error();
  File->clear_error();
  File.reset();
  if (!EC && !TempPath.empty())
    EC = sys::fs::rename(TempPath, Target);
  if (EC) {
    discard();
    return outputError(Shown, EC.message());
  }
  sys::DontRemoveFileOnSignal(TempPath);
  TempPath.clear();
  return Error::success();
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

Error writeModule(Module &M, StringRef Path, IRFormat Format,
                  DebugInfoForm DbgForm) {
  if (Error E = verifyModuleOrError(M, "the rewritten module"))
    return E;
  if (Format == IRFormat::Bitcode)
    if (Error E = checkBitcodeCanHold(M, Path))
      return E;
  if (Format == IRFormat::Text)
    applyDebugInfoForm(M, DbgForm);
  else
    prepareForBitcode(M);
  return writeFileAtomically(Path, [&](raw_ostream &OS) {
    if (Format == IRFormat::Bitcode)
      WriteBitcodeToFile(M, OS);
    else
      M.print(OS, nullptr);
  });
}

} // namespace irs
