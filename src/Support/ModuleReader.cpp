//===- ModuleReader.cpp - Reading modules safely --------------------------===//
//
// LLVM's readers run the verifier inside their debug-info upgrade and abort
// the process on a module that fails it, and their !tbaa upgrade crashes on
// malformed tags. So text is parsed with the upgrade deferred and the tags
// parked, the module is verified first (one-line error, exit 3), and only
// then upgraded; bitcode takes the front end's ProcessHooks.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Support/ModuleReader.h"
#include "ir-sanitize/Support/InputFile.h"
#include "ir-sanitize/Support/LLVMCompat.h"
#include "ir-sanitize/Support/Messages.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/AsmParser/LLParser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
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

/// The file's bytes; only a regular file (or stdin) within the module limit.
Expected<std::unique_ptr<MemoryBuffer>> readInputBuffer(StringRef Path,
                                                        StringRef Name) {
  std::string Contents, Problem;
  bool Read = Path == "-"
                  ? readStandardInput(ModuleInput, Contents, Problem)
                  : readInputFile(Path.str(), ModuleInput, Contents, Problem);
  if (!Read)
    return badInput(Name, Problem);
  if (Contents.empty())
    return badInput(Name, "file is empty");
  return MemoryBuffer::getMemBufferCopy(Contents, Name); // "<stdin>" for -
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

/// LLVM's parser renames every intrinsic declaration to its mangled name
/// once the module is read (remangleIntrinsicFunction), and the mangler has
/// no spelling for token or label: a declaration overloaded on one
/// (`declare token @llvm.experimental.gc.relocate.p4(token, i32, i32)`; also
/// gc.result, ssa.copy) kills the process, by llvm_unreachable or a stack
/// overflow (LLVM 19 and 22; found by the restore fuzzer). So text that
/// names an intrinsic beside a token is parsed first with every @llvm. name
/// renamed out of LLVM's reach, and such a declaration is refused.
constexpr StringLiteral IntrinsicPrefix = "llvm.";
constexpr StringLiteral ProbeName = "irs.unparsed.";

/// Where the intrinsic's name begins when the `@` at \p At in \p Text names
/// one (`@llvm.` or `@"llvm.`), else npos.
size_t intrinsicNameAt(StringRef Text, size_t At) {
  StringRef Rest = Text.substr(At + 1);
  bool Quoted = Rest.consume_front("\"");
  return Rest.starts_with(IntrinsicPrefix) ? At + 1 + Quoted : StringRef::npos;
}

/// Whether \p Text names an intrinsic.
bool namesIntrinsic(StringRef Text) {
  for (size_t At = Text.find('@'); At != StringRef::npos;
       At = Text.find('@', At + 1))
    if (intrinsicNameAt(Text, At) != StringRef::npos)
      return true;
  return false;
}

bool isUnmangleable(Type *T) { return T->isTokenTy() || T->isLabelTy(); }

/// The name of the first intrinsic \p Probe declares overloaded on a type
/// LLVM cannot mangle, as the input spelt it.
std::optional<std::string> unmangleableIntrinsic(const Module &Probe) {
  for (const Function &F : Probe) {
    StringRef Name = F.getName();
    if (!Name.consume_front(ProbeName))
      continue;
    Intrinsic::ID ID = compat::lookupIntrinsicID(Name);
    if (ID == Intrinsic::not_intrinsic || !Intrinsic::isOverloaded(ID))
      continue;
    SmallVector<Intrinsic::IITDescriptor, 8> Table;
    Intrinsic::getIntrinsicInfoTableEntries(ID, Table);
    ArrayRef<Intrinsic::IITDescriptor> Rest = Table;
    SmallVector<Type *, 4> Overloads;
    if (Intrinsic::matchIntrinsicSignature(F.getFunctionType(), Rest,
                                           Overloads) ==
            Intrinsic::MatchIntrinsicTypes_Match &&
        any_of(Overloads, isUnmangleable))
      return Name.str();
  }
  return std::nullopt;
}

/// Each `declare` of \p Text up to the end of its parameter list, with
/// whether a comment holds it. One pass over the text: the next `)` and
/// whether the line has a `;` so far are carried from one to the next.
template <typename Fn> void forEachDeclaration(StringRef Text, Fn Visit) {
  size_t Scanned = 0, Close = 0;
  bool Commented = false;
  for (size_t At = Text.find("declare"); At != StringRef::npos;
       At = Text.find("declare", At + 1)) {
    for (; Scanned < At; ++Scanned)
      Commented = Text[Scanned] == ';' || (Commented && Text[Scanned] != '\n');
    if (Close != StringRef::npos && Close <= At)
      Close = Text.find(')', At);
    Visit(Text.slice(At, Close), Commented);
  }
}

/// \p Text with every `@llvm.` and `@"llvm.` name spelt under ProbeName, in
/// one pass.
std::string renameIntrinsics(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  size_t From = 0;
  for (size_t At = Text.find('@'); At != StringRef::npos;
       At = Text.find('@', At + 1)) {
    size_t NameAt = intrinsicNameAt(Text, At);
    if (NameAt == StringRef::npos)
      continue;
    Out.append(Text.data() + From, NameAt - From);
    Out.append(ProbeName.data(), ProbeName.size());
    From = NameAt;
  }
  Out.append(Text.data() + From, Text.size() - From);
  return Out;
}

/// Whether some `declare` of an intrinsic mentions token or label before
/// its parameter list closes: the cheap test before the probe's parse.
bool mayDeclareUnmangleable(StringRef Text) {
  bool May = false;
  forEachDeclaration(Text, [&](StringRef Decl, bool) {
    May |= (Decl.contains("token") || Decl.contains("label")) &&
           namesIntrinsic(Decl);
  });
  return May;
}

/// Where \p Text declares \p Name: a declaration outside comments first.
SMLoc declarationOf(StringRef Text, StringRef Name) {
  const char *Found = nullptr, *Commented = nullptr;
  forEachDeclaration(Text, [&](StringRef Decl, bool InComment) {
    size_t At = Decl.find(Name);
    const char *&Slot = InComment ? Commented : Found;
    if (At != StringRef::npos && !Slot)
      Slot = Decl.data() + At;
  });
  return SMLoc::getFromPointer(Found ? Found : Commented);
}

/// Refuses, in \p Diag, a \p Text whose intrinsic declarations LLVM's
/// parser would crash on (above). Text that does not parse is left to the
/// real parse, which says why.
bool declaresUnreadableIntrinsic(StringRef Text, SourceMgr &SM,
                                 SMDiagnostic &Diag) {
  if (!mayDeclareUnmangleable(Text))
    return false;
  std::string Renamed = renameIntrinsics(Text);
  LLVMContext ProbeCtx;
  SourceMgr ProbeSM;
  ProbeSM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Renamed), SMLoc());
  SMDiagnostic Ignored;
  Module Probe("probe", ProbeCtx);
  if (LLParser(Renamed, ProbeSM, Ignored, &Probe, nullptr, ProbeCtx)
          .Run(/*UpgradeDebugInfo=*/false))
    return false;
  std::optional<std::string> Name = unmangleableIntrinsic(Probe);
  if (!Name)
    return false;
  Diag = SM.GetMessage(declarationOf(Text, *Name), SourceMgr::DK_Error,
                       "intrinsic @" + *Name +
                           " is overloaded on a token or label type, which "
                           "LLVM's reader cannot name");
  return true;
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
/// exit code (ProcessHooks::GuardBitcodeParse).
std::unique_ptr<Module> parseBitcode(MemoryBufferRef Buf, SMDiagnostic &Diag,
                                     LLVMContext &Ctx, StringRef Name) {
  const ProcessHooks &Hooks = processHooks();
  if (Hooks.VerifyBitcodeBeforeUpgrade)
    setLLVMOptionIfAllowed("disable-auto-upgrade-debug-info", true);
  if (!Hooks.GuardBitcodeParse)
    return parseBitcodeRecovering(Buf, Diag, Ctx, Name);
  std::unique_ptr<Module> M;
  Hooks.GuardBitcodeParse(
      Name, [&] { M = parseBitcodeRecovering(Buf, Diag, Ctx, Name); });
  return M;
}

} // namespace

std::unique_ptr<Module> parseTextIR(std::unique_ptr<MemoryBuffer> Input,
                                    SMDiagnostic &Diag, LLVMContext &Ctx) {
  std::string Id = Input->getBufferIdentifier().str();
  std::optional<std::string> Parked = parkTBAATags(Input->getBuffer());
  if (Parked)
    Input.reset(); // one copy of the text while the module is built
  StringRef Text = Parked ? StringRef(*Parked) : Input->getBuffer();
  SourceMgr SM;
  SM.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(Text, Id), SMLoc());
  if (declaresUnreadableIntrinsic(Text, SM, Diag))
    return nullptr;
  auto M = std::make_unique<Module>(Id, Ctx);
  if (LLParser(Text, SM, Diag, M.get(), nullptr, Ctx)
          .Run(/*UpgradeDebugInfo=*/false))
    return nullptr;
  if (Parked)
    restoreTBAATags(*M);
  return M;
}

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
                       : parseTextIR(std::move(*BufOrErr), Diag, Ctx);
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
  bool OwnUpgrade = !IsBitcode || (processHooks().VerifyBitcodeBeforeUpgrade &&
                                   processHooks().SetLLVMOption);
  if (Error E = upgradeDebugInfo(*Result.M, OwnUpgrade, BrokenDebugInfo, Name))
    return E;
  return Result;
}
} // namespace irs
