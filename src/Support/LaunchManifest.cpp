//===- LaunchManifest.cpp - Where splatted kernel parameters live ---------===//
#include "ir-sanitize/Support/LaunchManifest.h"
#include "ir-sanitize/Support/InputFile.h"

#include "ir-sanitize/Support/AtomicOutput.h"
#include "ir-sanitize/Support/BoundedJSON.h"
#include "ir-sanitize/Support/ToolError.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <climits>
#include <iterator>

using namespace llvm;

namespace irs {
namespace {

// One writer for both the file and toJSON(): the file of a module with
// thousands of kernels is streamed, never held as a json::Value tree.

/// A JSON string; names and types rarely need escaping, so check first.
void writeString(raw_ostream &OS, StringRef S) {
  if (all_of(S, [](char C) {
        return C >= 0x20 && C != '"' && C != '\\' && !(C & 0x80);
      })) {
    OS << '"' << S << '"';
    return;
  }
  json::OStream(OS).value(S);
}

/// J.attribute(Key, S) without building a json::Value (a copy of S, a UTF-8
/// check and a character-by-character quote): type spellings are long.
void stringAttribute(json::OStream &J, StringRef Key, StringRef S) {
  J.attributeBegin(Key);
  J.rawValue([&](raw_ostream &OS) { writeString(OS, S); });
  J.attributeEnd();
}

void write(json::OStream &J, const ManifestOriginalParam &P) {
  J.object([&] {
    J.attribute("index", P.Index);
    stringAttribute(J, "type", P.Type);
    J.attribute("size", P.Size);
    stringAttribute(J, "passing", P.Passing);
  });
}

/// A number in decimal, without raw_ostream's general integer formatting
/// (styles, signs, a reversed buffer): a parameter line has seven of them.
struct Decimal {
  uint64_t V;
};

raw_ostream &operator<<(raw_ostream &OS, Decimal D) {
  char Digits[20];
  return OS.write(Digits,
                  std::to_chars(Digits, std::end(Digits), D.V).ptr - Digits);
}

/// One line per parameter, written directly: a module's manifest has one
/// per leaf, hundreds of thousands for a big module.
void write(json::OStream &J, const ManifestParam &P) {
  J.rawValue([&](raw_ostream &OS) {
    OS << "{\"index\":" << Decimal{P.Index} << ",\"name\":";
    writeString(OS, P.Name);
    OS << ",\"type\":";
    writeString(OS, P.Type);
    OS << ",\"orig_index\":" << Decimal{P.OrigIndex} << ",\"path\":[";
    for (size_t I = 0; I != P.Path.size(); ++I) {
      if (I)
        OS << ',';
      OS << Decimal{P.Path[I]};
    }
    OS << "],\"offset\":" << Decimal{P.Offset}
       << ",\"size\":" << Decimal{P.Size}
       << ",\"pointer\":" << (P.Pointer ? "true" : "false")
       << ",\"addrspace\":" << Decimal{P.AddrSpace} << "}";
  });
}

void write(json::OStream &J, const KernelManifest &K) {
  J.object([&] {
    stringAttribute(J, "name", K.Name);
    J.attributeArray("original_params", [&] {
      for (const ManifestOriginalParam &P : K.OriginalParams)
        write(J, P);
    });
    J.attributeArray("params", [&] {
      for (const ManifestParam &P : K.Params)
        write(J, P);
    });
  });
}

/// json::fromJSON has no overload for unsigned; read through uint64_t.
bool mapUnsigned(json::ObjectMapper &O, StringLiteral Key, unsigned &Out,
                 json::Path P) {
  uint64_t V = 0;
  if (!O.map(Key, V))
    return false;
  if (V > UINT_MAX) {
    P.field(Key).report("value out of range");
    return false;
  }
  Out = static_cast<unsigned>(V);
  return true;
}

} // namespace

// json's vector/map readers find these by argument-dependent lookup, which
// does not look into anonymous namespaces.
static bool fromJSON(const json::Value &V, ManifestOriginalParam &Out,
                     json::Path P) {
  json::ObjectMapper O(V, P);
  return O && mapUnsigned(O, "index", Out.Index, P) &&
         O.map("type", Out.Type) && O.map("size", Out.Size) &&
         O.map("passing", Out.Passing);
}

static bool fromJSON(const json::Value &V, ManifestParam &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  std::vector<uint64_t> Path;
  if (!(O && mapUnsigned(O, "index", Out.Index, P) && O.map("name", Out.Name) &&
        O.map("type", Out.Type) &&
        mapUnsigned(O, "orig_index", Out.OrigIndex, P) && O.map("path", Path) &&
        O.map("offset", Out.Offset) && O.map("size", Out.Size) &&
        O.map("pointer", Out.Pointer) &&
        mapUnsigned(O, "addrspace", Out.AddrSpace, P)))
    return false;
  for (uint64_t I : Path) {
    if (I > UINT_MAX) {
      P.field("path").report("index out of range");
      return false;
    }
    Out.Path.push_back(static_cast<unsigned>(I));
  }
  return true;
}

/// Field-level parsing plus the cross-references a launcher relies on.
static bool fromJSON(const json::Value &V, KernelManifest &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!(O && O.map("name", Out.Name) &&
        O.map("original_params", Out.OriginalParams) &&
        O.map("params", Out.Params)))
    return false;
  json::Path Params = P.field("params"); // Paths refer to their parent
  for (size_t I = 0; I != Out.Params.size(); ++I) {
    const ManifestParam &Param = Out.Params[I];
    json::Path Field = Params.index(I);
    if (Param.Index != I) {
      Field.field("index").report("parameters must be listed in order");
      return false;
    }
    if (Param.OrigIndex >= Out.OriginalParams.size()) {
      Field.field("orig_index").report("no such original parameter");
      return false;
    }
    uint64_t OrigSize = Out.OriginalParams[Param.OrigIndex].Size;
    if (!Param.Path.empty() &&
        (Param.Offset > OrigSize || Param.Size > OrigSize - Param.Offset)) {
      Field.field("offset").report("leaf lies outside its original parameter");
      return false;
    }
  }
  return true;
}

std::string ManifestParam::pathString() const {
  std::string S = std::to_string(OrigIndex);
  for (unsigned I : Path)
    S += "." + std::to_string(I);
  return S;
}

const ManifestParam *KernelManifest::findByPath(StringRef Path) const {
  for (const ManifestParam &P : Params)
    if (P.pathString() == Path)
      return &P;
  return nullptr;
}

const KernelManifest *LaunchManifest::findKernel(StringRef Name) const {
  for (const KernelManifest &K : Kernels)
    if (K.Name == Name)
      return &K;
  return nullptr;
}

void LaunchManifest::print(raw_ostream &OS, unsigned Indent) const {
  json::OStream J(OS, Indent);
  J.object([&] {
    J.attribute("version", Version);
    J.attribute("triple", Triple);
    J.attribute("datalayout", DataLayout);
    J.attributeArray("kernels", [&] {
      for (const KernelManifest &K : Kernels)
        write(J, K);
    });
  });
}

json::Value LaunchManifest::toJSON() const {
  std::string Text;
  raw_string_ostream OS(Text);
  print(OS, 0);
  return cantFail(json::parse(Text));
}

Expected<LaunchManifest> LaunchManifest::fromJSON(const json::Value &V) {
  LaunchManifest M;
  json::Path::Root Root("manifest");
  json::ObjectMapper O(V, Root);
  int64_t Version = 0;
  if (!O || !O.map("version", Version))
    return makeToolError(ExitCode::BadInput,
                         "not a launch manifest: " + toString(Root.getError()));
  if (Version < 1 || Version > CurrentVersion)
    return makeToolError(ExitCode::BadInput,
                         formatv("launch manifest version {0} is not supported "
                                 "(this tool reads version {1})",
                                 Version, CurrentVersion));
  M.Version = static_cast<int>(Version);
  if (!O.map("triple", M.Triple) || !O.map("datalayout", M.DataLayout) ||
      !O.map("kernels", M.Kernels))
    return makeToolError(ExitCode::BadInput, toString(Root.getError()));
  return M;
}

Expected<LaunchManifest> LaunchManifest::readFile(StringRef Path) {
  std::string Text, Problem;
  if (!readInputFile(Path.str(), LaunchManifestInput, Text, Problem))
    return makeToolError(ExitCode::BadInput, Path + ": " + Problem);
  Expected<json::Value> V = parseBoundedJSON(Text, Path);
  if (!V)
    return V.takeError();
  Expected<LaunchManifest> M = fromJSON(*V);
  if (!M)
    return makeToolError(ExitCode::BadInput,
                         Path + ": " + toString(M.takeError()));
  return M;
}

void LaunchManifest::printFile(raw_ostream &OS) const {
  print(OS, 2);
  OS << "\n";
}

Error LaunchManifest::writeFile(StringRef Path) const {
  return writeFileAtomically(Path, [&](raw_ostream &OS) { printFile(OS); });
}

} // namespace irs
