//===- BundleProbe.cpp - Asking an Enzyme which bundles it accepts --------===//
#include "ir-sanitize/Enzyme/BundleProbe.h"
#include "ir-sanitize/Support/InputFile.h"

#include "ir-sanitize/Enzyme/EnzymeRunner.h"
#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/BoundedJSON.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <cerrno>
#include <cstring>
#include <set>

#include <unistd.h>

using namespace llvm;

namespace irs {

/// The cache file's format. Version 2 ties each answer to its question (the
/// SHA-256 of the probe module asked): an answer to another question (an
/// older probe, a shape the entry was not written for) is not believed.
static constexpr int ProbeCacheVersion = 2;

/// At most this many probes run at once.
static constexpr size_t ProbesAtOnce = 4;

/// At most this many probes per run: a module with thousands of bundle
/// shapes does not start thousands of opts. The rest are answered on later
/// runs (what was asked is cached).
static constexpr size_t MaxProbesPerRun = 64;

StringRef verdictName(ProbeVerdict V) {
  switch (V) {
  case ProbeVerdict::Accepted:
    return "accepted";
  case ProbeVerdict::Rejected:
    return "rejected";
  case ProbeVerdict::Unknown:
    break;
  }
  return "unknown";
}

static std::string sha256Hex(StringRef Bytes) {
  return toHex(SHA256::hash(arrayRefFromStringRef(Bytes)), /*LowerCase=*/true);
}

Expected<EnzymePluginIdentity> identifyEnzymePlugin(StringRef Path) {
  // The checked open every reader uses: a FIFO or a device is refused, not
  // read until it ends (or never).
  std::string Contents, Problem;
  if (!readInputFile(Path.str(), EnzymePluginInput, Contents, Problem))
    return makeToolError(ExitCode::NoEnzyme,
                         Path + ": cannot read: " + Problem);
  return EnzymePluginIdentity{Path.str(), sha256Hex(Contents)};
}

// A call that Enzyme must differentiate through (its arguments are active),
// so that it rebuilds the call and asks getInvertedBundles about the bundle,
// in forward mode and in reverse mode (augmented primal and adjoint).
std::string probeModuleText(const BundleShape &S) {
  assert(S.Unprobeable.empty() && "no module can carry this bundle");
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "; ir-sanitize: does this Enzyme differentiate through " << S.key()
     << "?\n";
  for (const std::string &Def : S.TypeDefinitions)
    OS << Def << "\n";
  OS << "define void @irs.probe.callee(ptr %p, double %v) noinline {\n"
        "  store double %v, ptr %p\n"
        "  ret void\n"
        "}\n"
        "define double @irs.probe.f(double %x) {\n"
        "  %a = alloca double\n"
        "  call void @irs.probe.callee(ptr %a, double %x) [ \"";
  printEscapedString(S.Tag, OS);
  OS << "\"(" << join(S.Operands, ", ") << ") ]\n"
     << "  %y = load double, ptr %a\n"
        "  %z = fmul double %y, %x\n"
        "  ret double %z\n"
        "}\n"
        "define double @irs.probe.fwd(double %x) {\n"
        "  %r = call double (...) @__enzyme_fwddiff(ptr @irs.probe.f, "
        "double %x, double 1.0)\n"
        "  ret double %r\n"
        "}\n"
        "define double @irs.probe.rev(double %x) {\n"
        "  %r = call double (...) @__enzyme_autodiff(ptr @irs.probe.f, "
        "double %x)\n"
        "  ret double %r\n"
        "}\n"
        "declare double @__enzyme_fwddiff(...)\n"
        "declare double @__enzyme_autodiff(...)\n";
  return Text;
}

std::string probeQuestion(const BundleShape &S) {
  return sha256Hex(probeModuleText(S));
}

std::string probeCachePath(StringRef CacheDir, StringRef SHA256) {
  SmallString<256> Path(CacheDir);
  sys::path::append(Path, "enzyme-probes", SHA256 + ".json");
  return std::string(Path);
}

namespace {

Error badCache(StringRef File, const Twine &Why) {
  return makeToolError(ExitCode::BadInput, File + ": " + Why);
}

Expected<ProbeAnswer> parseAnswer(const json::Value &V, StringRef Key,
                                  StringRef File) {
  const json::Object *O = V.getAsObject();
  std::optional<StringRef> Verdict = O ? O->getString("verdict") : std::nullopt;
  std::optional<StringRef> Tag = O ? O->getString("tag") : std::nullopt;
  std::optional<StringRef> Question =
      O ? O->getString("question") : std::nullopt;
  if (!Verdict || !Tag || !Question)
    return badCache(File, "answer for " + Key +
                              " needs \"verdict\", \"tag\" and "
                              "\"question\" strings");
  ProbeAnswer A;
  A.Tag = Tag->str();
  A.Question = Question->str();
  A.FromCache = true;
  if (*Verdict == verdictName(ProbeVerdict::Accepted))
    A.Verdict = ProbeVerdict::Accepted;
  else if (*Verdict == verdictName(ProbeVerdict::Rejected))
    A.Verdict = ProbeVerdict::Rejected;
  else
    return badCache(File, "answer for " + Key + " is not accepted/rejected");
  if (const json::Value *D = O->get("detail")) {
    std::optional<StringRef> S = D->getAsString();
    if (!S)
      return badCache(File, "\"detail\" of " + Key + " is not a string");
    A.Detail = S->str();
  }
  return A;
}

} // namespace

Expected<ProbeCache> parseProbeCache(StringRef Text, StringRef File) {
  Expected<json::Value> V = parseBoundedJSON(Text, File);
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  if (!O)
    return badCache(File, "not a JSON object");
  if (O->getInteger("version") != ProbeCacheVersion)
    return badCache(File, "not a version " + Twine(ProbeCacheVersion) +
                              " Enzyme probe cache");
  std::optional<StringRef> SHA = O->getString("sha256");
  const json::Object *Answers = O->getObject("answers");
  if (!SHA || !Answers)
    return badCache(File, "needs \"sha256\" and \"answers\"");
  ProbeCache C;
  C.SHA256 = SHA->str();
  for (const auto &[Key, Answer] : *Answers) {
    Expected<ProbeAnswer> A = parseAnswer(Answer, Key, File);
    if (!A)
      return A.takeError();
    C.Answers[Key.str()] = std::move(*A);
  }
  return C;
}

std::string printProbeCache(const ProbeCache &C) {
  json::Object Answers;
  for (const auto &[Key, A] : C.Answers)
    Answers[Key] = json::Object{{"verdict", verdictName(A.Verdict)},
                                {"tag", A.Tag},
                                {"question", A.Question},
                                {"detail", A.Detail}};
  std::string Text;
  raw_string_ostream OS(Text);
  OS << formatv("{0:2}",
                json::Value(json::Object{{"version", ProbeCacheVersion},
                                         {"sha256", C.SHA256},
                                         {"answers", std::move(Answers)}}))
     << "\n";
  return Text;
}

ProbeAnswer ProbeReport::answerFor(const BundleShape &S) const {
  auto It = Answers.find(S.key());
  if (It != Answers.end())
    return It->second;
  return {ProbeVerdict::Unknown, S.Tag, "not asked", false, ""};
}

std::vector<std::string> ProbeReport::tagsWith(ProbeVerdict V) const {
  std::set<std::string> Tags;
  for (const auto &[Key, A] : Answers)
    if (A.Verdict == V)
      Tags.insert(A.Tag);
  return {Tags.begin(), Tags.end()};
}

namespace {

/// The cache as stored (empty when there is none or it is unreadable; why,
/// in \p Problem).
ProbeCache loadCache(StringRef Path, StringRef SHA256, std::string &Problem) {
  ProbeCache Empty{SHA256.str(), {}};
  if (!sys::fs::exists(Path)) // none yet
    return Empty;
  // The checked open every reader uses: a FIFO there hung `check`, a link to
  // /dev/zero was read until memory ran out.
  std::string Text, Why;
  if (!readInputFile(Path.str(), ProbeCacheInput, Text, Why)) {
    Problem = Path.str() + ": " + Why + " (ignored; it is rewritten)";
    return Empty;
  }
  Expected<ProbeCache> C = parseProbeCache(Text, Path);
  if (!C) {
    Problem = toString(C.takeError()) + " (ignored; it is rewritten)";
    return Empty;
  }
  if (C->SHA256 != SHA256) {
    Problem = Path.str() + ": holds answers of another plugin (ignored)";
    return Empty;
  }
  return std::move(*C);
}

/// Merges \p New into what the file holds now (another run may have added
/// answers since it was read), without the answers to \p Dropped, and
/// replaces it whole.
std::string storeCache(StringRef Path, const ProbeCache &New,
                       const std::set<std::string> &Dropped) {
  std::string Ignored;
  ProbeCache Merged = loadCache(Path, New.SHA256, Ignored);
  for (const std::string &Key : Dropped)
    Merged.Answers.erase(Key);
  for (const auto &[Key, A] : New.Answers)
    Merged.Answers[Key] = A;
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return Path.str() + ": " + EC.message();
  // Whatever else stands at the cache's name (a FIFO, a link to a device)
  // goes: the atomic write would write into it instead of renaming over it.
  sys::fs::file_status Status;
  if (!sys::fs::status(Path, Status, /*Follow=*/false) &&
      Status.type() != sys::fs::file_type::regular_file)
    // (LLVM's remove refuses special files.)
    if (::unlink(Path.str().c_str()) != 0)
      return Path.str() + ": " + std::strerror(errno);
  std::string Text = printProbeCache(Merged);
  if (Error E = writeFileAtomically(Path, [&](raw_ostream &OS) { OS << Text; }))
    return toString(std::move(E));
  return "";
}

/// The cached answer for \p S, if it may be believed: it answers the
/// question a probe of \p S asks now, about \p S's tag, and no run has
/// contradicted it (Opts.DistrustedTags). Counts the others in \p R.
const ProbeAnswer *believedAnswer(const ProbeCache &Cache, const BundleShape &S,
                                  const ProbeOptions &Opts, ProbeReport &R) {
  auto It = Cache.Answers.find(S.key());
  if (It == Cache.Answers.end())
    return nullptr;
  if (Opts.DistrustedTags.count(S.Tag)) {
    ++R.Distrusted;
    return nullptr;
  }
  const ProbeAnswer &A = It->second;
  if (A.Tag != S.Tag || !S.Unprobeable.empty() ||
      A.Question != probeQuestion(S)) {
    ++R.OtherQuestion;
    return nullptr;
  }
  return &A;
}

ProbeAnswer verdictOf(const EnzymeResult &R, const BundleShape &S) {
  if (R.ok())
    return {ProbeVerdict::Accepted, S.Tag, "", false, ""};
  const std::string &Message = R.Diagnosis.Message;
  if (StringRef(Message).contains("unsupported tag " + S.Tag))
    return {ProbeVerdict::Rejected, S.Tag, Message, false, ""};
  return {ProbeVerdict::Unknown, S.Tag, "the probe failed: " + R.summary(),
          false, ""};
}

EnzymeInvocation probeInvocation(const ProbeOptions &Opts, size_t Index) {
  EnzymeInvocation Inv;
  std::string Stem = "probe-" + std::to_string(Index);
  auto In = [&](StringRef Name) {
    SmallString<256> P(Opts.WorkDir);
    sys::path::append(P, Stem + Name);
    return std::string(P);
  };
  Inv.InputPath = In(".ll");
  Inv.OutputPath = In(".out.ll");
  Inv.LogPath = In(".log");
  Inv.PluginPath = Opts.PluginPath;
  Inv.OptPath = Opts.OptPath;
  Inv.TimeoutSeconds = Opts.TimeoutSeconds;
  Inv.TextOutput = true;
  Inv.Symbolize = false; // an abort is the expected answer: make it cheap
  return Inv;
}

/// Probes \p Shapes[I] for I in \p Todo, ProbesAtOnce at a time.
Error runProbes(ArrayRef<BundleShape> Shapes, ArrayRef<size_t> Todo,
                const ProbeOptions &Opts, ProbeReport &R) {
  for (size_t Start = 0; Start < Todo.size(); Start += ProbesAtOnce) {
    std::vector<std::pair<size_t, PendingEnzymeRun>> Running;
    for (size_t I :
         Todo.slice(Start, std::min(ProbesAtOnce, Todo.size() - Start))) {
      EnzymeInvocation Inv = probeInvocation(Opts, I);
      if (Error E = writeFileAtomically(Inv.InputPath, [&](raw_ostream &OS) {
            OS << probeModuleText(Shapes[I]);
          }))
        return E;
      Expected<PendingEnzymeRun> Run = startEnzyme(Inv);
      if (!Run)
        return Run.takeError();
      ++R.Probed;
      Running.emplace_back(I, std::move(*Run));
    }
    for (auto &[I, Run] : Running) {
      ProbeAnswer A = verdictOf(Run.finish(), Shapes[I]);
      A.Question = probeQuestion(Shapes[I]);
      R.Answers[Shapes[I].key()] = std::move(A);
    }
  }
  return Error::success();
}

} // namespace

std::string rejectedTagIn(const EnzymeResult &Run) {
  static constexpr StringLiteral Marker = "unsupported tag ";
  StringRef Message = Run.Diagnosis.Message;
  size_t At = Message.find(Marker);
  if (Run.ok() || At == StringRef::npos)
    return "";
  return Message.drop_front(At + Marker.size()).split(' ').first.str();
}

std::vector<std::string> cachedAcceptsContradictedBy(const ProbeReport &R,
                                                     const EnzymeResult &Run) {
  std::string Tag = rejectedTagIn(Run);
  for (const auto &[Key, A] : R.Answers)
    if (!Tag.empty() && A.Tag == Tag && A.FromCache &&
        A.Verdict == ProbeVerdict::Accepted)
      return {Tag};
  return {};
}

Expected<ProbeReport> probeBundles(ArrayRef<BundleShape> Shapes,
                                   const ProbeOptions &Opts) {
  Expected<EnzymePluginIdentity> Id = identifyEnzymePlugin(Opts.PluginPath);
  if (!Id)
    return Id.takeError();
  ProbeReport R;
  R.Plugin = std::move(*Id);
  ProbeCache Cache{R.Plugin.SHA256, {}};
  if (!Opts.CacheDir.empty()) {
    R.CacheFile = probeCachePath(Opts.CacheDir, R.Plugin.SHA256);
    Cache = loadCache(R.CacheFile, R.Plugin.SHA256, R.CacheProblem);
  }
  std::vector<size_t> Todo;
  for (size_t I = 0; I < Shapes.size(); ++I) {
    const BundleShape &S = Shapes[I];
    std::string Key = S.key();
    if (R.Answers.count(Key))
      continue;
    if (const ProbeAnswer *A = believedAnswer(Cache, S, Opts, R)) {
      R.Answers[Key] = *A;
      ++R.Cached;
    } else if (!S.Unprobeable.empty()) {
      R.Answers[Key] = {ProbeVerdict::Unknown, S.Tag, S.Unprobeable, false, ""};
    } else if (Todo.size() == MaxProbesPerRun) {
      R.Answers[Key] = {ProbeVerdict::Unknown, S.Tag,
                        "not asked: more than " +
                            std::to_string(MaxProbesPerRun) +
                            " bundle shapes to ask in one run (the answers "
                            "are cached: run again for the next ones)",
                        false, ""};
    } else {
      R.Answers[Key] = {}; // asked below, once per key
      Todo.push_back(I);
    }
  }
  if (Error E = runProbes(Shapes, Todo, Opts, R))
    return E;
  ProbeCache Learned{R.Plugin.SHA256, {}};
  std::set<std::string> Dropped;
  for (const BundleShape &S : Shapes)
    if (Opts.DistrustedTags.count(S.Tag))
      Dropped.insert(S.key());
  for (size_t I : Todo)
    if (const ProbeAnswer &A = R.Answers[Shapes[I].key()];
        A.Verdict != ProbeVerdict::Unknown)
      Learned.Answers[Shapes[I].key()] = A;
  if (!R.CacheFile.empty() && (!Learned.Answers.empty() || !Dropped.empty()))
    if (std::string Problem = storeCache(R.CacheFile, Learned, Dropped);
        !Problem.empty())
      R.CacheProblem = Problem;
  return R;
}

} // namespace irs
