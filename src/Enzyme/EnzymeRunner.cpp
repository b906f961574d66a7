//===- EnzymeRunner.cpp - Running Enzyme on a module file -----------------===//
#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Analysis/EnzymeCalls.h"
#include "ir-sanitize/Config.h"
#include "ir-sanitize/Support/InputFile.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace irs {

std::string defaultOptPath() {
  SmallString<256> P(IRS_LLVM_TOOLS_DIR);
  sys::path::append(P, "opt");
  return std::string(P);
}

std::vector<std::string> enzymeOptArgs(const EnzymeInvocation &Inv) {
  // -load registers the plugin's cl::opts (-enzyme-preopt), -load-pass-plugin
  // its passes; opt needs both.
  std::vector<std::string> Args = {
      Inv.InputPath, "-load-pass-plugin=" + Inv.PluginPath,
      "-load=" + Inv.PluginPath, "-enzyme-preopt=false",
      Inv.ModuleRules ? "-passes=preserve-nvvm,enzyme" : "-passes=enzyme"};
  if (Inv.TextOutput)
    Args.push_back("-S");
  Args.push_back("-o");
  Args.push_back(Inv.OutputPath);
  llvm::append_range(Args, Inv.ExtraArgs);
  return Args;
}

std::string enzymeCommandLine(const EnzymeInvocation &Inv) {
  std::vector<std::string> Args = enzymeOptArgs(Inv);
  std::string Command = "opt";
  // Args[0] is the input.
  for (size_t I = 1; I < Args.size(); ++I) {
    if (Args[I] == "-o")
      ++I;
    else
      Command += " " + Args[I];
  }
  return Command;
}

namespace {

/// \p S cut to MaxDiagnosisField bytes, saying how much more the log has.
std::string capped(std::string S) {
  constexpr size_t MaxDiagnosisField = 400;
  if (S.size() <= MaxDiagnosisField)
    return S;
  size_t Cut = S.size() - MaxDiagnosisField;
  S.resize(MaxDiagnosisField);
  return S + "... [" + std::to_string(Cut) + " more bytes; see Enzyme's log]";
}

/// Collapses runs of blanks, so quoted instructions compare and print on one
/// line.
std::string squeeze(StringRef S) {
  std::string Out;
  bool Blank = false;
  for (char C : S.trim()) {
    if (C == ' ' || C == '\t') {
      Blank = true;
      continue;
    }
    if (Blank && !Out.empty())
      Out += ' ';
    Blank = false;
    Out += C;
  }
  return Out;
}

/// Enzyme works on clones named after the original with a prefix; report the
/// name the user wrote.
std::string originalName(StringRef Name) {
  for (StringRef Prefix : {"preprocess_", "fwddiffe", "diffe", "augmented_"})
    if (Name.consume_front(Prefix))
      break;
  return Name.str();
}

/// \p Text without metadata attachments (", !dbg !15"): they number
/// Enzyme's copy of the module and mean nothing to the reader.
std::string withoutAttachments(std::string Text) {
  static const Regex Attachment(", ![A-Za-z_.0-9]+ ![0-9]+");
  while (Attachment.match(Text))
    Text = Attachment.sub("", Text);
  return Text;
}

/// A frame of a symbolized stack dump ("#8 0x7f.. SYMBOL (MODULE+0x4b9c2a)")
/// or of one without llvm-symbolizer ("8  MODULE 0x7f.. SYMBOL + 14850").
/// Matches put the symbol in [1], the module in [2].
bool matchStackFrame(StringRef L, SmallVectorImpl<StringRef> &M) {
  static const Regex Symbolized(
      "^ *#[0-9]+ 0x[0-9a-f]+ (.*) \\(([^()]*)\\+0x[0-9a-f]+\\)$");
  static const Regex Raw("^[0-9]+ +[^ ]+ +0x[0-9a-f]+ (.*) \\+ [0-9]+$");
  if (Symbolized.match(L, &M))
    return true;
  if (!Raw.match(L, &M))
    return false;
  M.push_back(L.split(' ').second.ltrim().split(' ').first);
  return true;
}

bool isStackDumpLine(StringRef L) {
  static const Regex Frame("^ *#[0-9]+ 0x");
  static const Regex RawFrame("^[0-9]+ +[^ ]+ +0x[0-9a-f]+");
  static const Regex Context("^[0-9]+\\.\t");
  return L.starts_with("PLEASE submit") || L.starts_with("Stack dump") ||
         Frame.match(L) || RawFrame.match(L) || Context.match(L);
}

/// LLVM, opt itself, the C and C++ runtimes, and sanitizer runtimes (a
/// preloaded ASan's intercepted backtrace() is on every dump's stack).
bool isHostModule(StringRef Module) {
  static constexpr StringLiteral Prefixes[] = {
      "libLLVM", "libc.",   "libstdc++", "libgcc_s",
      "ld-",     "libasan", "libubsan",  "libclang_rt."};
  return Module == "opt" ||
         any_of(Prefixes, [&](StringRef P) { return Module.starts_with(P); });
}

/// "GradientUtils::getInvertedBundles" from a stack frame of a module other
/// than the host's (isHostModule), i.e. the plugin.
std::optional<std::string> pluginFrame(StringRef L) {
  SmallVector<StringRef, 4> M;
  if (!matchStackFrame(L, M))
    return std::nullopt;
  if (isHostModule(sys::path::filename(M[2])))
    return std::nullopt;
  std::string Sym = M[1].str();
  // Cut the argument list, minding "(anonymous namespace)::".
  std::string Anon = "(anonymous namespace)::";
  size_t Pos;
  while ((Pos = Sym.find(Anon)) != std::string::npos)
    Sym.erase(Pos, Anon.size());
  Sym = Sym.substr(0, Sym.find('('));
  if (Sym.empty())
    return std::nullopt;
  return Sym;
}

std::string phaseOf(StringRef Log) {
  if (Log.contains("CreateForwardDiff"))
    return "forward mode (CreateForwardDiff)";
  if (Log.contains("CreateAugmentedPrimal"))
    return "reverse mode, augmented primal (CreateAugmentedPrimal)";
  if (Log.contains("CreatePrimalAndGradient"))
    return "reverse mode (CreatePrimalAndGradient)";
  return "";
}

} // namespace

EnzymeLogDiagnosis diagnoseEnzymeLog(StringRef Log) {
  EnzymeLogDiagnosis D;
  D.Phase = phaseOf(Log);
  SmallVector<StringRef, 64> Lines;
  Log.split(Lines, '\n');
  std::string Fallback, Previous;
  static const Regex InFunction("in function ([^ ]+) [^:]*: (Enzyme: .*)$");
  static const Regex Unreachable("UNREACHABLE executed at (.*):([0-9]+)!");
  static const Regex Assertion(
      "^[^ ]*: (.*):([0-9]+): .*(Assertion `.*' failed\\.)");
  // "Enzyme: ; Function Attrs ...": the message starts with a dump of the
  // function; what Enzyme could not do follows it.
  auto IsDump = [&] {
    return StringRef(D.Message).starts_with("Enzyme: ;") ||
           StringRef(D.Message).starts_with("Enzyme: define");
  };
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = Lines[I].rtrim();
    SmallVector<StringRef, 4> M;
    if (D.Frame.empty())
      if (auto F = pluginFrame(L))
        D.Frame = *F;
    if (L.empty() || isStackDumpLine(L))
      continue;
    if (D.Message.empty() && InFunction.match(L, &M)) {
      D.Function = originalName(M[1]);
      D.Message = M[2].str();
    } else if (L.starts_with("cannot handle ") && IsDump()) {
      // "cannot handle (reverse) unknown intrinsic", the callee's name,
      // then the instruction.
      D.Message = "Enzyme: " + squeeze(L);
      if (I + 1 < Lines.size() && !Lines[I + 1].trim().empty() &&
          !Lines[I + 1].starts_with(" "))
        D.Message += " " + squeeze(Lines[++I]);
      if (I + 1 < Lines.size() && Lines[I + 1].starts_with(" "))
        D.Instruction = withoutAttachments(squeeze(Lines[++I]));
    } else if (L.contains("at context:") && D.Instruction.empty()) {
      D.Instruction =
          withoutAttachments(squeeze(L.split("at context:").second));
    } else if (D.Message.empty() && L.starts_with("unsupported tag ")) {
      D.Message = withoutAttachments(squeeze(L));
      D.Instruction = withoutAttachments(squeeze(L.split(" for ").second));
    } else if (D.Message.empty() && L.starts_with("LLVM ERROR: ")) {
      D.Message = L.drop_front(strlen("LLVM ERROR: ")).str();
    } else if (Assertion.match(L, &M)) {
      D.Where = (sys::path::filename(M[1]) + ":" + M[2]).str();
      if (D.Message.empty())
        D.Message = M[3].str();
    } else if (Unreachable.match(L, &M)) {
      D.Where = (sys::path::filename(M[1]) + ":" + M[2]).str();
      if (D.Message.empty())
        D.Message = Previous.empty() ? "UNREACHABLE" : Previous;
    } else if (Fallback.empty()) {
      Fallback = squeeze(L);
    }
    Previous = squeeze(L);
  }
  if (D.Message.empty())
    D.Message = Fallback;
  // They go into one-line messages; the log has all of it.
  for (std::string *Field :
       {&D.Message, &D.Function, &D.Instruction, &D.Where, &D.Frame, &D.Phase})
    *Field = capped(std::move(*Field));
  return D;
}

namespace {

/// An instruction as printed, without what differs between Enzyme's clone
/// and the input: attribute group numbers and metadata attachments.
std::string normalizeInstruction(StringRef Inst) {
  static const Regex AttrGroup(" #[0-9]+");
  std::string S = withoutAttachments(squeeze(Inst));
  while (AttrGroup.match(S))
    S = AttrGroup.sub("", S);
  return S;
}

} // namespace

std::string findFunctionWithInstruction(const Module &M, StringRef Inst) {
  std::string Want = normalizeInstruction(Inst);
  if (Want.empty())
    return "";
  // "%r = call i32 @thunk" also identifies the call when operands differ.
  std::string WantHead = Want.substr(0, Want.find('('));
  std::string ByHead;
  for (const Function &F : M)
    for (const Instruction &I : instructions(F)) {
      std::string Text;
      raw_string_ostream OS(Text);
      I.print(OS);
      std::string Got = normalizeInstruction(OS.str());
      if (Got == Want)
        return F.getName().str();
      if (ByHead.empty() && Got.substr(0, Got.find('(')) == WantHead)
        ByHead = F.getName().str();
    }
  return ByHead;
}

std::vector<std::string> differentiatedFunctions(const Module &M) {
  std::vector<std::string> Names;
  for (const Function &F : M) {
    if (!F.getName().starts_with("__enzyme_"))
      continue;
    for (const User *U : F.users()) {
      const auto *CB = dyn_cast<CallBase>(U);
      if (!CB || CB->getCalledOperand() != &F || CB->arg_size() == 0)
        continue;
      const Value *Callee = CB->getArgOperand(0)->stripPointerCasts();
      std::string Name = userFacingName(M, Callee->getName());
      if (Callee->hasName() && !is_contained(Names, Name))
        Names.push_back(Name);
    }
  }
  return Names;
}

std::string EnzymeResult::summary() const {
  if (ok())
    return "ok";
  std::string S;
  switch (Outcome.How) {
  case ChildOutcome::Kind::TimedOut:
    S = Outcome.describe(TimeoutSeconds);
    break;
  case ChildOutcome::Kind::Signalled:
    S = "aborted (" + Outcome.describe(TimeoutSeconds) + ")";
    break;
  case ChildOutcome::Kind::Exited:
    S = "failed (" + Outcome.describe(TimeoutSeconds) + ")";
    break;
  }
  const EnzymeLogDiagnosis &D = Diagnosis;
  if (!D.Message.empty() && Outcome.How != ChildOutcome::Kind::TimedOut)
    S += ": " + D.Message;
  if (!D.Function.empty())
    S += " [in " + D.Function + "]";
  else if (!D.Differentiating.empty())
    S += " [differentiating " + D.Differentiating + "]";
  return S;
}

EnzymeResult PendingEnzymeRun::finish() {
  EnzymeResult R;
  R.Outcome = Child.wait();
  R.TimeoutSeconds = Inv.TimeoutSeconds;
  R.LogPath = Inv.LogPath;
  R.OutputPath = Inv.OutputPath;
  uint64_t Size = 0;
  if (R.Outcome.succeeded() && Inv.OutputPath != "/dev/null" &&
      (sys::fs::file_size(Inv.OutputPath, Size) || Size == 0)) {
    R.WroteNoOutput = true;
    R.Diagnosis.Message = "opt wrote no output";
  }
  if (R.Outcome.succeeded())
    return R;
  // Enzyme's message comes last (it aborts after printing it): a log past
  // the limit is read from its last EnzymeLogInput.MaxBytes on.
  uint64_t LogSize = 0;
  std::string Log, Problem;
  if (!sys::fs::file_size(Inv.LogPath, LogSize) &&
      readInputFileFrom(Inv.LogPath, EnzymeLogInput,
                        LogSize > EnzymeLogInput.MaxBytes
                            ? LogSize - EnzymeLogInput.MaxBytes
                            : 0,
                        Log, Problem))
    R.Diagnosis = diagnoseEnzymeLog(Log);
  return R;
}

Expected<PendingEnzymeRun> startEnzyme(const EnzymeInvocation &Inv) {
  std::string Opt = Inv.OptPath.empty() ? defaultOptPath() : Inv.OptPath;
  std::vector<std::string> Env;
  if (!Inv.Symbolize)
    Env.push_back("LLVM_DISABLE_SYMBOLIZATION=1");
  Expected<ChildProcess> Child = ChildProcess::start(
      Opt, enzymeOptArgs(Inv), Inv.LogPath, Inv.TimeoutSeconds, Env);
  if (!Child)
    return handleErrors(Child.takeError(), [](const StringError &E) {
      return makeToolError(ExitCode::NoEnzyme, E.getMessage());
    });
  return PendingEnzymeRun(std::move(*Child), Inv);
}

Expected<EnzymeResult> runEnzyme(const EnzymeInvocation &Inv) {
  Expected<PendingEnzymeRun> Run = startEnzyme(Inv);
  if (!Run)
    return Run.takeError();
  return Run->finish();
}

void attributeToFunction(EnzymeResult &R, const Module &Input) {
  if (R.ok())
    return;
  EnzymeLogDiagnosis &D = R.Diagnosis;
  if (D.Function.empty() && !D.Instruction.empty())
    D.Function = findFunctionWithInstruction(Input, D.Instruction);
  D.Function = userFacingName(Input, D.Function);
  if (D.Differentiating.empty())
    D.Differentiating = join(differentiatedFunctions(Input), ", ");
}

} // namespace irs
