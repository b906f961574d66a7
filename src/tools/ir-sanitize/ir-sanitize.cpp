//===- ir-sanitize.cpp - The ir-sanitize command line ---------------------===//
//
// A thin front end: parse the command line, dispatch to one command, turn every
// failure into one line on stderr and a documented exit code.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ToolHooks.h"

#include "ir-sanitize/Config.h"
#include "ir-sanitize/Support/ExitCode.h"
#include "ir-sanitize/Support/MessageText.h"
#include "ir-sanitize/Support/ProcessHooks.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <fcntl.h>

using namespace llvm;
using namespace irs;
using namespace irs::cli;

static const char *const Examples = R"(
Examples:
  ir-sanitize host.ll -o host.clean.ll              normalise bundles, splat kernels
  ir-sanitize dump.bc -o out.bc --report=report.json
  ir-sanitize in.ll --bundle gc-transition=stash -o out.ll
  ir-sanitize check dump.bc                         list what makes Enzyme abort
  ir-sanitize restore out.ll -o back.ll             put stashed bundles back
  ir-sanitize reduce dump.ll -o min.ll             smallest module Enzyme fails on
  ir-sanitize gpu-check kernel.ll --dims 1048576 --emit-dir plan/
                                                    derivatives checked on a GPU
  ir-sanitize gpu-check kernel.ll --dims 1024x1024 --print-launch
                                                    the launch it infers

)";

namespace irs::cli {

LLVMContext &processLifetimeContext() {
  static LLVMContext *Ctx = new LLVMContext;
  return *Ctx;
}

void keepUntilExit(std::unique_ptr<Module> M) {
  static auto *Kept = new std::vector<Module *>;
  Kept->push_back(M.release());
}

int reportError(Error E, StringRef Tool, ExitCode Default) {
  int Code = -1;
  handleAllErrors(std::move(E), [&](const ErrorInfoBase &EI) {
    if (Code < 0)
      Code = exitCode(exitCodeOf(EI, Default));
    errs() << Tool << ": error: " << keepOnOneLine(EI.message()) << "\n";
  });
  return Code < 0 ? exitCode(Default) : Code;
}

void addPrintPipelineFlag(CLI::App &App, bool &Flag, StringRef Form) {
  std::string Help =
      "read the input, print the pass pipeline this command runs";
  Help += Form.empty() ? " as `opt -load-pass-plugin=IRSanitize.so "
                         "-passes='...'` replays it"
                       : Form.str();
  App.add_flag("--print-pipeline-passes", Flag, Help + ", and exit");
}

int printPipelineText(Expected<std::string> Text) {
  if (!Text)
    return reportError(Text.takeError(), ToolName);
  outs() << *Text << "\n";
  return exitCode(ExitCode::Ok);
}

int printStages(Expected<std::vector<PipelineStage>> Stages) {
  if (!Stages)
    return reportError(Stages.takeError(), ToolName);
  for (const PipelineStage &S : *Stages)
    outs() << S.str() << "\n";
  return exitCode(ExitCode::Ok);
}

void CLIDiagnosticHandler::handle(DiagnosticKind Kind,
                                  const std::string &Message) {
  if (Quiet && Kind != DiagnosticKind::Warning)
    return;
  errs() << ToolName << ": ";
  if (Kind != DiagnosticKind::Progress)
    errs() << diagnosticKindName(Kind) << ": ";
  errs() << keepOnOneLine(Message) << "\n";
}

} // namespace irs::cli

/// A closed stdin, stdout or stderr gets a descriptor on which the missing
/// direction fails (EBADF), so that writing there is still an error and no
/// file opened later (a manifest) can take its number and receive the
/// module meant for stdout.
static void occupyClosedStandardFiles() {
  for (int FD = 0; FD != 3; ++FD)
    if (::fcntl(FD, F_GETFD) == -1 && errno == EBADF)
      (void)::open("/dev/null", FD == 0 ? O_WRONLY : O_RDONLY);
}

/// How options take values, one rule for every command's options, so that
/// none can take the positional INPUT that follows it: each occurrence of an
/// option takes exactly its type's number of values, and a list option
/// (--bundle, --kernel, --activity, --enzyme-arg) is repeated for more.
/// Applied to the whole app once every command has added its options.
static void oneValuePerOccurrence(CLI::App &App) {
  for (CLI::Option *Opt : App.get_options())
    if (!Opt->get_positional())
      Opt->allow_extra_args(false);
  for (CLI::App *Sub : App.get_subcommands([](CLI::App *) { return true; }))
    oneValuePerOccurrence(*Sub);
}

/// The command \p argv runs: the subcommand it names first, else \p App.
static const CLI::App &commandOf(const CLI::App &App, int argc, char **argv) {
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (!A.empty() && A[0] == '-')
      continue;
    for (const CLI::App *Sub :
         App.get_subcommands([](const CLI::App *) { return true; }))
      if (Sub->get_name() == A)
        return *Sub;
    return App;
  }
  return App;
}

/// Whether \p Value holds nothing: empty, or only the option's delimiters
/// ("--wrt ,", after which CLI11 would take the next argument).
static bool holdsNothing(const CLI::Option &Opt, const std::string &Value) {
  char Delimiter = Opt.get_delimiter();
  return Value.find_first_not_of(Delimiter ? std::string(1, Delimiter) : "") ==
         std::string::npos;
}

/// One rule for every option that takes a value, on every command: the value
/// is not empty (nor only delimiters) and, given as the next argument, is not
/// another option (CLI11 would take the next argument instead: `--wrt ,
/// IN.ll` read IN.ll as --wrt's, then said INPUT was missing). "-" (stdin,
/// stdout) is a value. `--opt=-x` gives a value that starts with '-' on
/// purpose (--enzyme-arg=-enzyme-print). Returns the refusal, naming what
/// the user gave, or "".
static std::string refuseMissingValues(const CLI::App &App, int argc,
                                       char **argv) {
  const CLI::App &Command = commandOf(App, argc, argv);
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A == "--")
      break;
    if (A.size() < 2 || A[0] != '-')
      continue;
    size_t Eq = A.find('=');
    std::string Name = A.substr(0, Eq);
    const CLI::Option *Opt = Command.get_option_no_throw(Name);
    if (!Opt)
      Opt = App.get_option_no_throw(Name);
    if (!Opt || Opt->get_positional() || Opt->get_expected_min() == 0)
      continue;
    if (Eq != std::string::npos) {
      if (holdsNothing(*Opt, A.substr(Eq + 1)))
        return Name + ": an empty value ('" + A + "')";
      continue;
    }
    if (I + 1 >= argc)
      continue; // CLI11 says the value is missing
    std::string Next = argv[++I];
    if (holdsNothing(*Opt, Next))
      return Name + ": an empty value ('" + Next + "')";
    if (Next.size() > 1 && Next[0] == '-')
      return Name + " needs a value; '" + Next +
             "' reads as an option (a value that starts with '-' goes as " +
             Name + "=VALUE)";
  }
  return "";
}

int main(int argc, char **argv) {
  occupyClosedStandardFiles();
  llvm::InitLLVM X(argc, argv);
  // This process is ours: let the library keep the input's debug-info form,
  // report a broken bitcode module in one line, clean up after signals.
  setProcessHooks(tools::processOwnerHooks(ToolName));
  CLI::App App{"ir-sanitize: make Julia-emitted LLVM IR safe for Enzyme",
               ToolName};
  App.footer(Examples + exitCodesHelp());
  App.set_version_flag("--version", std::string(ToolName) + " " + IRS_VERSION +
                                        " (LLVM " + IRS_LLVM_VERSION_STRING +
                                        ")");
  App.require_subcommand(0, 1);

  std::unique_ptr<Command> Default = createSanitizeCommand();
  Default->addOptions(App);
  std::vector<Subcommand> Subs = createSubcommands();
  std::vector<std::pair<CLI::App *, Command *>> Registered;
  for (Subcommand &S : Subs) {
    CLI::App *Sub = App.add_subcommand(S.Name, S.Description);
    S.Cmd->addOptions(*Sub);
    Registered.emplace_back(Sub, S.Cmd.get());
  }
  oneValuePerOccurrence(App);

  std::string Refused = refuseMissingValues(App, argc, argv);
  if (!Refused.empty()) {
    llvm::errs() << ToolName << ": error: " << keepOnOneLine(Refused)
                 << " (see --help)\n";
    return exitCode(ExitCode::Usage);
  }
  try {
    App.parse(argc, argv);
  } catch (const CLI::CallForHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForAllHelp &E) {
    return App.exit(E);
  } catch (const CLI::CallForVersion &E) {
    return App.exit(E);
  } catch (const CLI::ParseError &E) {
    // CLI11 quotes the offending argument raw.
    llvm::errs() << ToolName << ": error: " << keepOnOneLine(E.what())
                 << " (see --help)\n";
    return exitCode(ExitCode::Usage);
  }

  for (auto &[Sub, Cmd] : Registered)
    if (Sub->parsed())
      return Cmd->run();
  return Default->run();
}
