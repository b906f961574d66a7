//===- PluginLocator.cpp - Finding a usable Enzyme plugin -----------------===//
#include "ir-sanitize/Enzyme/PluginLocator.h"
#include "ConfiguredPlugin.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;
using namespace llvm::object;

namespace irs {
namespace {

Error noEnzyme(const Twine &Message) {
  return makeToolError(ExitCode::NoEnzyme, Message);
}

/// The DT_NEEDED entries of an ELF file (empty if it has no dynamic section).
template <class ELFT>
std::vector<std::string> neededLibraries(const ELFObjectFile<ELFT> &Obj) {
  std::vector<std::string> Needed;
  const ELFFile<ELFT> &EF = Obj.getELFFile();
  auto Sections = EF.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return Needed;
  }
  for (const auto &Sec : *Sections) {
    if (Sec.sh_type != ELF::SHT_DYNAMIC)
      continue;
    auto Entries =
        EF.template getSectionContentsAsArray<typename ELFT::Dyn>(Sec);
    auto StrSec = EF.getSection(Sec.sh_link);
    if (!Entries || !StrSec) {
      consumeError(Entries.takeError());
      consumeError(StrSec.takeError());
      continue;
    }
    auto Strings = EF.getStringTable(**StrSec);
    if (!Strings) {
      consumeError(Strings.takeError());
      continue;
    }
    for (const auto &D : *Entries)
      if (D.d_tag == ELF::DT_NEEDED && D.getVal() < Strings->size())
        Needed.push_back(Strings->data() + D.getVal());
  }
  return Needed;
}

std::vector<std::string> neededLibraries(const ELFObjectFileBase &Obj) {
  if (const auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return neededLibraries(*O);
  if (const auto *O = dyn_cast<ELF64BEObjectFile>(&Obj))
    return neededLibraries(*O);
  if (const auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return neededLibraries(*O);
  return neededLibraries(*cast<ELF32BEObjectFile>(&Obj));
}

/// The number following \p Prefix in \p S ("libLLVM.so." in
/// "libLLVM.so.19.1" gives 19).
std::optional<unsigned> numberAfter(StringRef S, StringRef Prefix) {
  size_t Pos = S.find(Prefix);
  if (Pos == StringRef::npos)
    return std::nullopt;
  StringRef Rest = S.drop_front(Pos + Prefix.size());
  unsigned N;
  if (Rest.consumeInteger(10, N))
    return std::nullopt;
  return N;
}

/// The LLVM a plugin was built for: its libLLVM dependency, else its name.
std::optional<unsigned> pluginMajor(StringRef Path,
                                    ArrayRef<std::string> Needed) {
  for (StringRef Lib : Needed) {
    if (auto N = numberAfter(Lib, "libLLVM.so."))
      return N;
    if (auto N = numberAfter(Lib, "libLLVM-"))
      return N;
  }
  return numberAfter(sys::path::filename(Path), "LLVMEnzyme-");
}

bool exportsSymbol(const ELFObjectFileBase &Obj, StringRef Name) {
  for (const SymbolRef &Sym : Obj.getDynamicSymbolIterators()) {
    Expected<StringRef> SymName = Sym.getName();
    if (!SymName) {
      consumeError(SymName.takeError());
      continue;
    }
    Expected<uint32_t> Flags = Sym.getFlags();
    if (!Flags) {
      consumeError(Flags.takeError());
      continue;
    }
    if (*SymName == Name && !(*Flags & SymbolRef::SF_Undefined))
      return true;
  }
  return false;
}

} // namespace

unsigned hostLLVMMajor() { return LLVM_VERSION_MAJOR; }

std::string enzymePluginFileName(unsigned Major) {
  return "LLVMEnzyme-" + std::to_string(Major) + ".so";
}

std::vector<std::string> defaultLibraryDirs(unsigned Major) {
  std::string M = std::to_string(Major);
  return {"/usr/local/lib",
          "/usr/local/lib/llvm-" + M + "/lib",
          "/usr/lib/llvm-" + M + "/lib",
          "/usr/lib/x86_64-linux-gnu",
          "/usr/lib64",
          "/usr/lib"};
}

Expected<PluginInfo> inspectPlugin(StringRef Path) {
  if (!sys::fs::exists(Path))
    return noEnzyme(Path + ": no such file");
  if (sys::fs::is_directory(Path))
    return noEnzyme(Path + ": is a directory, not an Enzyme plugin");
  Expected<OwningBinary<Binary>> Bin = createBinary(Path);
  if (!Bin) {
    consumeError(Bin.takeError());
    return noEnzyme(Path + ": not an Enzyme plugin (not a shared library)");
  }
  const auto *Obj = dyn_cast<ELFObjectFileBase>(Bin->getBinary());
  if (!Obj || Obj->getEType() != ELF::ET_DYN)
    return noEnzyme(Path +
                    ": not an Enzyme plugin (not an ELF shared library)");
  PluginInfo Info;
  Info.Path = Path.str();
  std::vector<std::string> Needed = neededLibraries(*Obj);
  Info.LLVMMajor = pluginMajor(Path, Needed);
  for (StringRef Lib : Needed)
    if (Lib.starts_with("libLLVM"))
      Info.LLVMLibrary = Lib.str();
  Info.HasEntryPoint = exportsSymbol(*Obj, "llvmGetPassPluginInfo");
  return Info;
}

Expected<PluginInfo> checkPlugin(StringRef Path, unsigned Major) {
  Expected<PluginInfo> Info = inspectPlugin(Path);
  if (!Info)
    return Info.takeError();
  if (Info->LLVMMajor && *Info->LLVMMajor != Major)
    return noEnzyme(Path + ": Enzyme plugin built for LLVM " +
                    Twine(*Info->LLVMMajor) + ", but ir-sanitize uses LLVM " +
                    Twine(Major) + " (it needs " + enzymePluginFileName(Major) +
                    ")");
  // Julia's libLLVM carries its own suffix ("libLLVM-16jl.so",
  // "libLLVM.so.18.1jl"): no opt but Julia's can satisfy it.
  if (StringRef(Info->LLVMLibrary).contains("jl"))
    return noEnzyme(Path + ": linked against Julia's own LLVM (" +
                    Info->LLVMLibrary +
                    "), so it loads only into Julia, not into opt; build the "
                    "same Enzyme commit for LLVM " +
                    Twine(Major) + " (scripts/build-enzyme.sh)");
  if (!Info->HasEntryPoint)
    return noEnzyme(Path + ": not an LLVM pass plugin (it does not export "
                           "llvmGetPassPluginInfo)");
  return Info;
}

Expected<LocatedPlugin> locateEnzymePlugin(const PluginSearch &Search) {
  unsigned Major = Search.LLVMMajor ? Search.LLVMMajor : hostLLVMMajor();
  auto Accept = [&](StringRef Path,
                    StringRef Origin) -> Expected<LocatedPlugin> {
    if (Expected<PluginInfo> Info = checkPlugin(Path, Major); !Info)
      return Info.takeError();
    return LocatedPlugin{Path.str(), Origin.str()};
  };
  // Named by the user: use it or say why not.
  if (!Search.Explicit.empty())
    return Accept(Search.Explicit, "--enzyme-plugin");
  if (Search.UseEnvironment)
    if (std::optional<std::string> Env = sys::Process::GetEnv("ENZYME_PLUGIN");
        Env && !Env->empty())
      return Accept(*Env, "ENZYME_PLUGIN");

  // Searched for: skip what is unusable, but say so if nothing else is found.
  std::string FileName = enzymePluginFileName(Major);
  std::vector<std::pair<std::string, std::string>> Candidates;
  std::string Exe = Search.ExecutablePath;
  if (Exe.empty())
    Exe = sys::fs::getMainExecutable(nullptr,
                                     reinterpret_cast<void *>(&hostLLVMMajor));
  if (!Exe.empty()) {
    SmallString<256> Next(sys::path::parent_path(Exe));
    sys::path::append(Next, FileName);
    Candidates.emplace_back(std::string(Next), "next to ir-sanitize");
  }
  if (Search.UseConfiguredDefault && StringRef(IRS_DEFAULT_ENZYME_PLUGIN) != "")
    Candidates.emplace_back(IRS_DEFAULT_ENZYME_PLUGIN, "configured default");
  std::vector<std::string> Dirs = Search.LibraryDirs.empty()
                                      ? defaultLibraryDirs(Major)
                                      : Search.LibraryDirs;
  for (const std::string &Dir : Dirs) {
    SmallString<256> P(Dir);
    sys::path::append(P, FileName);
    Candidates.emplace_back(std::string(P), "search");
  }

  std::vector<std::string> Rejected;
  for (const auto &[Path, Origin] : Candidates) {
    if (!sys::fs::exists(Path))
      continue;
    Expected<LocatedPlugin> Found = Accept(Path, Origin);
    if (Found)
      return Found;
    Rejected.push_back(toString(Found.takeError()));
  }
  std::string Msg = "no usable Enzyme plugin: pass --enzyme-plugin=PATH or "
                    "set ENZYME_PLUGIN (looked for " +
                    FileName + " next to ir-sanitize";
  if (Search.UseConfiguredDefault && StringRef(IRS_DEFAULT_ENZYME_PLUGIN) != "")
    Msg += ", at " + std::string(IRS_DEFAULT_ENZYME_PLUGIN);
  Msg += " and in " + join(Dirs, ", ") + ")";
  if (!Rejected.empty())
    Msg += "; rejected " + join(Rejected, "; ");
  return noEnzyme(Msg);
}

} // namespace irs
