//===- ModuleIO.cpp - Reading and writing modules safely ------------------===//
#include "ir-sanitize/Support/ModuleIO.h"
#include "ir-sanitize/Support/ExitCodes.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/ProcessHooks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"

#include <cerrno>
#include <csignal>
#include <thread>

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
  if (!compat::HasBothDebugForms)
    return;
  // LLVM 19/20 hold either form in memory; the printer writes what it holds
  // unless told otherwise, so set both the module and the writer flags.
  bool Records = Form != DebugInfoForm::Intrinsics;
  compat::convertDebugValues(M, Records);
  if (processHooks().SetDebugInfoWriterOptions)
    setLLVMFlag("write-experimental-debuginfo", Records);
}

/// Bitcode from LLVM 19+ is only read by LLVM 19+, so it always holds debug
/// records; like BitcodeWriterPass, drop the then unused intrinsic
/// declarations, which otherwise make the reader crash while upgrading them.
void prepareForBitcode(Module &M) {
  if (!compat::HasBothDebugForms)
    return;
  compat::convertDebugValues(M, /*Records=*/true);
  compat::removeDebugIntrinsicDeclarations(M);
  if (processHooks().SetDebugInfoWriterOptions)
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

} // namespace

bool bitcodeCanHold(const Module &M) { return !findMetadataVarArg(M); }

namespace {

/// Refuses bitcode that LLVM would write wrongly (see findMetadataVarArg).
Error checkBitcodeCanHold(const Module &M, StringRef Path) {
  const CallBase *CB = findMetadataVarArg(M);
  if (!CB)
    return Error::success();
  const Function *Callee = CB->getCalledFunction();
  std::string What = Callee ? ("@" + Callee->getName()).str() : "a pointer";
  return makeToolError(
      ExitCode::OutputError,
      Path +
          ": cannot write output: bitcode cannot hold the metadata "
          "arguments of the varargs call to " +
          What + " in @" + CB->getFunction()->getName() +
          " (LLVM writes them as other values); write text (.ll) instead");
}

/// The parsers' deferred debug-info upgrade, done here after verification
/// when \p Own (LLVM's UpgradeDebugInfo would verify again and print the
/// verifier's findings to stderr, or abort): outdated or broken debug info
/// is stripped, with LLVM's warning through the context's diagnostic
/// handler. Stripping cannot reach debug info other metadata holds on to (a
/// compile unit named outside llvm.dbg.cu): LLVM carries it along with a
/// warning, but no output of ours could pass the verifier, so it is an error.
Error upgradeDebugInfo(Module &M, bool Own, bool Broken, StringRef Name) {
  unsigned Version = getDebugMetadataVersionFromModule(M);
  bool Stripped = false;
  if (Own && Version != DEBUG_METADATA_VERSION) {
    Stripped = StripDebugInfo(M);
    if (Stripped)
      M.getContext().diagnose(DiagnosticInfoDebugMetadataVersion(M, Version));
  } else if (Own && Broken) {
    Stripped = StripDebugInfo(M);
    M.getContext().diagnose(DiagnosticInfoIgnoringInvalidDebugMetadata(M));
  }
  // Stripping can leave a compile unit that other metadata still names.
  if (!Broken && !Stripped)
    return Error::success();
  // The rest of the module passed the verifier: what remains is debug info.
  std::optional<std::string> Problem = verifierProblem(M);
  if (!Problem)
    return Error::success();
  return badInput(Name,
                  "invalid debug info that cannot be stripped: " + *Problem);
}

/// LLVM's text parser upgrades every instruction's !tbaa tag once the
/// module is read, and its upgrade, like the verifier's TBAA check, crashes
/// on a tag with no operands or a null first one (a !DI node, `!{null}`;
/// LLVM 16 to 22; found by the module fuzzer). So the text is parsed with
/// its `, !tbaa` attachments under a private kind of the same length (parse
/// errors keep their columns) and restoreTBAATags checks and moves them back.
constexpr StringLiteral ParkedTBAAKind = "tba$";

bool isMetadataNameChar(char C) {
  return isAlnum(C) || C == '-' || C == '$' || C == '.' || C == '_' ||
         C == '\\';
}

/// \p Text with every `, !tbaa` outside strings and comments spelled
/// `, !tba$`; none when there is none, or when the text already says `tba$`.
std::optional<std::string> parkTBAATags(StringRef Text) {
  if (!Text.contains("!tbaa") || Text.contains(ParkedTBAAKind))
    return std::nullopt;
  std::string Out = Text.str();
  bool Parked = false, AfterComma = false;
  for (size_t I = 0; I < Out.size(); ++I) {
    char C = Out[I];
    if (C == ';' || C == '"') { // to the end of the comment or string
      I = Out.find(C == ';' ? '\n' : '"', I + 1);
      if (I == std::string::npos)
        break;
    } else if (C == '!' && AfterComma &&
               StringRef(Out).substr(I + 1, 4) == "tbaa" &&
               (I + 5 == Out.size() || !isMetadataNameChar(Out[I + 5]))) {
      Out[I + 4] = '$';
      Parked = true;
    }
    if (C == ',')
      AfterComma = true;
    else if (!isSpace(C))
      AfterComma = false;
  }
  return Parked ? std::optional<std::string>(std::move(Out)) : std::nullopt;
}

/// Whether LLVM's TBAA upgrade crashes on \p Tag: it reads the first operand
/// as a node without looking (LLVM 16 to 22).
bool crashesTBAAUpgrade(const MDNode &Tag) {
  return Tag.getNumOperands() == 0 || !Tag.getOperand(0);
}

/// Whether a null operand is reachable from \p Root through node operands.
bool reachesNullOperand(const MDNode &Root) {
  SmallVector<const MDNode *, 8> Work = {&Root};
  SmallPtrSet<const MDNode *, 16> Seen = {&Root};
  while (!Work.empty())
    for (const MDOperand &Op : Work.pop_back_val()->operands()) {
      if (!Op)
        return true;
      if (const auto *Child = dyn_cast<MDNode>(Op.get()))
        if (Seen.insert(Child).second)
          Work.push_back(Child);
    }
  return false;
}

/// Whether LLVM's TBAA verifier crashes on \p Tag: as the upgrade, and on a
/// null operand anywhere in the type nodes it walks (a !DI node reached as a
/// parent type; found by the module fuzzer). \p Checked remembers tags.
bool crashesTBAAVerifier(const MDNode &Tag,
                         DenseMap<const MDNode *, bool> &Checked) {
  auto [It, New] = Checked.try_emplace(&Tag, false);
  if (New)
    It->second = crashesTBAAUpgrade(Tag) || reachesNullOperand(Tag);
  return It->second;
}

/// Moves parked tags back to !tbaa, instructions' upgraded as LLVM's parser
/// would; one the upgrade would crash on is left to verifierProblem.
void restoreTBAATags(Module &M) {
  unsigned Parked = M.getContext().getMDKindID(ParkedTBAAKind);
  auto Restore = [&](auto &Holder, bool Upgrade) {
    if (MDNode *Tag = Holder.getMetadata(Parked)) {
      Holder.setMetadata(Parked, nullptr);
      Holder.setMetadata(
          LLVMContext::MD_tbaa,
          Upgrade && !crashesTBAAUpgrade(*Tag) ? UpgradeTBAANode(*Tag) : Tag);
    }
  };
  for (GlobalObject &GO : M.global_objects())
    Restore(GO, false);
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      Restore(I, true);
}

/// A function holding an instruction whose !tbaa tag LLVM cannot check.
const Function *functionWithUncheckableTBAATag(const Module &M) {
  DenseMap<const MDNode *, bool> Checked;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F))
      if (const MDNode *Tag = I.getMetadata(LLVMContext::MD_tbaa))
        if (crashesTBAAVerifier(*Tag, Checked))
          return &F;
  return nullptr;
}

/// Text IR without the parser's own debug-info upgrade: that upgrade runs
/// the verifier and aborts the process on a module that fails it, so
/// readModule verifies first (one-line error, exit 3) and upgrades after.
std::unique_ptr<Module> parseText(std::unique_ptr<MemoryBuffer> Input,
                                  SMDiagnostic &Diag, LLVMContext &Ctx) {
  std::string Id = Input->getBufferIdentifier().str();
  std::optional<std::string> Parked = parkTBAATags(Input->getBuffer());
  if (Parked)
    Input.reset(); // one copy of the text while the module is built
  StringRef Text = Parked ? StringRef(*Parked) : Input->getBuffer();
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Text, Id), SMLoc());
  auto M = std::make_unique<Module>(Id, Ctx);
  if (LLParser(Text, SM, Diag, M.get(), nullptr, Ctx)
          .Run(/*UpgradeDebugInfo=*/false))
    return nullptr;
  if (Parked)
    restoreTBAATags(*M);
  return M;
}

/// parseIR, or, where the front end asked for it
/// (ProcessHooks::RecoverFromReaderCrashes), a one-line diagnostic when
/// LLVM's reader crashes on the file.
std::unique_ptr<Module> parseBitcodeRecovering(MemoryBufferRef Buf,
                                               SMDiagnostic &Diag,
                                               LLVMContext &Ctx,
                                               StringRef Name) {
  std::unique_ptr<Module> M;
  auto Parse = [&] { M = parseIR(Buf, Diag, Ctx); };
  if (!processHooks().RecoverFromReaderCrashes) {
    Parse();
    return M;
  }
  CrashRecoveryContext CRC;
  if (CRC.RunSafely(Parse))
    return M;
  Diag = SMDiagnostic(Name, SourceMgr::DK_Error,
                      "LLVM's bitcode reader crashed on it; the file is "
                      "malformed");
  return nullptr;
}

/// The bitcode reader also upgrades debug info, aborting on a module that
/// fails the verifier; a front end may turn that abort into the documented
/// exit code (ProcessHooks::ExitOnBrokenBitcodeAs).
std::unique_ptr<Module> parseBitcode(MemoryBufferRef Buf, SMDiagnostic &Diag,
                                     LLVMContext &Ctx, StringRef Name) {
  if (processHooks().VerifyBitcodeBeforeUpgrade)
    setLLVMFlag("disable-auto-upgrade-debug-info", true);
  const std::string &Tool = processHooks().ExitOnBrokenBitcodeAs;
  if (Tool.empty())
    return parseBitcodeRecovering(Buf, Diag, Ctx, Name);
  static std::string FatalPrefix;
  FatalPrefix = Tool + ": error: " + Name.str() + ": invalid IR: ";
  ScopedFatalErrorHandler Handler([](void *, const char *Reason, bool) {
    errs() << FatalPrefix << firstLine(Reason) << "\n";
    sys::Process::Exit(static_cast<int>(ExitCode::BadInput));
  });
  return parseBitcodeRecovering(Buf, Diag, Ctx, Name);
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
                       : parseText(std::move(*BufOrErr), Diag, Ctx);
  if (!Result.M) {
    std::string Msg = firstLine(Diag.getMessage());
    if (Diag.getLineNo() > 0)
      return badInput(Name, Twine(Diag.getLineNo()) + ":" +
                                Twine(Diag.getColumnNo() + 1) + ": " + Msg);
    return badInput(Name, (IsBitcode ? "invalid bitcode: " : "") + Msg);
  }
  bool BrokenDebugInfo = false;
  if (std::optional<std::string> Problem =
          verifierProblem(*Result.M, &BrokenDebugInfo))
    return badInput(Name, "invalid IR: " + *Problem);
  bool OwnUpgrade = !IsBitcode || processHooks().VerifyBitcodeBeforeUpgrade;
  if (Error E = upgradeDebugInfo(*Result.M, OwnUpgrade, BrokenDebugInfo, Name))
    return E;
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

std::optional<std::string> verifierProblem(const Module &M,
                                           bool *BrokenDebugInfo) {
  if (const Function *F = functionWithUncheckableTBAATag(M))
    return ("a !tbaa tag in @" + F->getName() +
            " has no first operand, or reaches a null one")
        .str();
  // A silent run first: only a module with a problem is printed from.
  if (!verifyModule(M, nullptr, BrokenDebugInfo))
    return std::nullopt;
  if (const Function *F = compat::functionWithUnlocatedDebugRecord(M))
    return ("a debug record in @" + F->getName() + " has no !dbg location")
        .str();
  std::string Msg;
  raw_string_ostream OS(Msg);
  verifyModule(M, &OS, BrokenDebugInfo);
  return firstLine(OS.str());
}

Error verifyModuleOrError(const Module &M, StringRef What) {
  std::optional<std::string> Problem = verifierProblem(M);
  if (!Problem)
    return Error::success();
  return makeToolError(ExitCode::VerifierFailed,
                       What +
                           " failed the LLVM verifier (a bug in "
                           "ir-sanitize, please report it): " +
                           *Problem);
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

std::string debugInfoFormWarning(const Module &M, DebugInfoForm DbgForm) {
  // LLVM 21+ only writes debug records (LLVM < 19 only intrinsics).
  if (!IRS_LLVM_WRITES_DEBUG_INTRINSICS &&
      DbgForm == DebugInfoForm::Intrinsics && M.getNamedMetadata("llvm.dbg.cu"))
    return (M.getModuleIdentifier() +
            ": the input holds llvm.dbg.* calls, but this build (LLVM " +
            Twine(LLVM_VERSION_MAJOR) +
            ") writes #dbg_ records, which LLVM 18 (Julia 1.12) cannot "
            "read; use the LLVM 19 build for output that goes back to Julia")
        .str();
  return "";
}

OutputFile moduleOutput(Module &M, StringRef Path, IRFormat Format,
                        DebugInfoForm DbgForm) {
  std::string P = Path.str();
  return {P, [&M, P, Format, DbgForm](raw_ostream &OS) -> Error {
            if (Error E = verifyModuleOrError(M, "the rewritten module"))
              return E;
            if (Format == IRFormat::Bitcode)
              if (Error E = checkBitcodeCanHold(M, P))
                return E;
            if (Format == IRFormat::Text)
              applyDebugInfoForm(M, DbgForm);
            else
              prepareForBitcode(M);
            if (Format == IRFormat::Bitcode)
              WriteBitcodeToFile(M, OS);
            else
              M.print(OS, nullptr);
            return Error::success();
          }};
}

Error writeModule(Module &M, StringRef Path, IRFormat Format,
                  DebugInfoForm DbgForm) {
  return writeOutputsTogether({moduleOutput(M, Path, Format, DbgForm)});
}

} // namespace irs
