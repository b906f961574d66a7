//===- RunPlanWriter.cpp - Writing the JSON run plan ----------------------===//
//
// The plan is printed as llvm::json::OStream prints with an indent of two
// (the form plans have always had, byte for byte): one member or element
// per line, doubles with 17 significant digits ("%.17g"), strings escaped
// as LLVM escapes them, invalid UTF-8 replaced by U+FFFD. LLVM-free, so that
// the reader's library is the writer's.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/Launch/RunPlan.h"

#include <cstdio>
#include <limits>

namespace irs {

namespace {

/// The length of the valid UTF-8 sequence at \p S[I], or 0.
size_t validUTF8At(const std::string &S, size_t I) {
  auto Byte = [&](size_t K) { return static_cast<unsigned char>(S[K]); };
  unsigned char C = Byte(I);
  if (C < 0x80)
    return 1;
  size_t N = C >= 0xC2 && C <= 0xDF   ? 2
             : C >= 0xE0 && C <= 0xEF ? 3
             : C >= 0xF0 && C <= 0xF4 ? 4
                                      : 0;
  if (N == 0 || I + N > S.size())
    return 0;
  for (size_t K = 1; K < N; ++K)
    if ((Byte(I + K) & 0xC0) != 0x80)
      return 0;
  unsigned char D = Byte(I + 1);
  // No overlong forms, surrogates or code points past U+10FFFF.
  if ((C == 0xE0 && D < 0xA0) || (C == 0xED && D > 0x9F) ||
      (C == 0xF0 && D < 0x90) || (C == 0xF4 && D > 0x8F))
    return 0;
  return N;
}

/// Prints JSON as llvm::json::OStream(OS, 2) does.
class JSONWriter {
public:
  explicit JSONWriter(std::string &Out) : Out(Out) {}

  template <typename Body> void object(Body &&Fill) {
    open('{');
    Fill();
    close('}');
  }
  template <typename Body> void array(Body &&Fill) {
    open('[');
    Fill();
    close(']');
  }
  /// "Key": and then the value the next call writes.
  void key(const char *Key) {
    element();
    quote(Key);
    Out += ": ";
    PendingKey = true;
  }
  void value(const std::string &S) {
    element();
    quote(S);
  }
  void value(const char *S) { value(std::string(S)); }
  void value(bool B) {
    element();
    Out += B ? "true" : "false";
  }
  void value(uint64_t N) {
    element();
    Out += std::to_string(N);
  }
  void value(int64_t N) {
    element();
    Out += std::to_string(N);
  }
  void value(unsigned N) { value(static_cast<uint64_t>(N)); }
  void value(double D) {
    element();
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.*g",
                  std::numeric_limits<double>::max_digits10, D);
    Out += Buf;
  }
  template <typename T> void member(const char *Key, const T &V) {
    key(Key);
    value(V);
  }

private:
  std::string &Out;
  /// Per open object or array: whether it has a member yet.
  std::vector<bool> HasMember;
  bool PendingKey = false;

  void newline() {
    Out += '\n';
    Out.append(2 * HasMember.size(), ' ');
  }
  /// Before a value or a key: the separator and the line it starts.
  void element() {
    if (PendingKey) { // the value of the key just written
      PendingKey = false;
      return;
    }
    if (HasMember.empty())
      return;
    if (HasMember.back())
      Out += ',';
    HasMember.back() = true;
    newline();
  }
  void open(char C) {
    element();
    Out += C;
    HasMember.push_back(false);
  }
  void close(char C) {
    bool Any = HasMember.back();
    HasMember.pop_back();
    if (Any)
      newline();
    Out += C;
  }
  void quote(const std::string &S) {
    static const char Hex[] = "0123456789abcdef";
    Out += '"';
    for (size_t I = 0; I < S.size();) {
      size_t N = validUTF8At(S, I);
      if (N == 0) {
        Out += "\xEF\xBF\xBD"; // U+FFFD
        ++I;
        continue;
      }
      unsigned char C = static_cast<unsigned char>(S[I]);
      if (C == '"' || C == '\\')
        Out += '\\';
      if (C >= 0x20) {
        Out.append(S, I, N);
        I += N;
        continue;
      }
      Out += '\\';
      if (C == '\t' || C == '\n' || C == '\r')
        Out += C == '\t' ? 't' : C == '\n' ? 'n' : 'r';
      else
        Out += std::string("u00") + Hex[C >> 4] + Hex[C & 15];
      ++I;
    }
    Out += '"';
  }
};

std::string hexBytes(const std::vector<uint8_t> &Bytes) {
  static const char Hex[] = "0123456789abcdef";
  std::string S;
  for (uint8_t B : Bytes) {
    S += Hex[B >> 4];
    S += Hex[B & 15];
  }
  return S;
}

void writeLaunch(JSONWriter &J, const KernelLaunch &L) {
  J.key(plan::key::Launch);
  J.object([&] {
    if (L.Threads) {
      J.member(plan::key::Threads, L.Threads);
      return;
    }
    for (const auto &Dim : {std::pair{plan::key::Grid, &L.Grid},
                            std::pair{plan::key::Block, &L.Block}}) {
      J.key(Dim.first);
      J.array([&] {
        for (unsigned N : *Dim.second)
          J.value(N);
      });
    }
  });
}

void writeBuffer(JSONWriter &J, const LaunchBuffer &B) {
  J.object([&] {
    J.member(plan::key::Name, B.Name);
    J.member(plan::key::Type, spelling(B.Type));
    J.member(plan::key::Count, B.Count);
    J.member(plan::key::Init, spelling(B.Init));
    J.member(plan::key::Seed, B.Seed);
    J.member(plan::key::Output, B.Output);
    J.member(plan::key::Wrt, B.Wrt);
  });
}

void writeReloc(JSONWriter &J, const AddressReloc &R) {
  J.object([&] {
    J.member(plan::key::Offset, R.Offset);
    J.member(plan::key::Buffer, R.Buffer);
    J.member(plan::key::Address,
             spelling(R.Shadow ? AddressKind::Shadow : AddressKind::Primal));
    if (R.Access)
      J.member(plan::key::Access, spelling(*R.Access));
  });
}

void writeParam(JSONWriter &J, const ParamImage &P) {
  J.object([&] {
    J.member(plan::key::Size, static_cast<uint64_t>(P.Bytes.size()));
    for (uint8_t B : P.Bytes)
      if (B) { // all-zero bytes are left out
        J.member(plan::key::Bytes, hexBytes(P.Bytes));
        break;
      }
    if (P.Relocs.empty())
      return;
    J.key(plan::key::Relocs);
    J.array([&] {
      for (const AddressReloc &R : P.Relocs)
        writeReloc(J, R);
    });
  });
}

void writeKernel(JSONWriter &J, const PlannedKernel &K) {
  J.object([&] {
    J.member(plan::key::Role, spelling(K.Role));
    J.member(plan::key::PTX, K.PTXFile);
    J.member(plan::key::Entry, K.Entry);
    J.key(plan::key::Params);
    J.array([&] {
      for (const ParamImage &P : K.Params)
        writeParam(J, P);
    });
    if (!K.GridStrideEntry.empty())
      J.member(plan::key::GridStrideEntry, K.GridStrideEntry);
    if (K.GradientOnly)
      J.member(plan::key::GradientOnly, true);
  });
}

} // namespace

std::string printRunPlan(const RunPlan &P) {
  std::string Text;
  JSONWriter J(Text);
  J.object([&] {
    J.member(plan::key::Format, plan::FormatName);
    J.member(plan::key::Version, plan::Version);
    J.member(plan::key::Kernel, P.Kernel);
    writeLaunch(J, P.Launch);
    J.member(plan::key::Checks,
             P.Launch.DerivativeChecks ? plan::ChecksAll : plan::ChecksPrimal);
    if (P.Launch.ZeroDerivativeExpected)
      J.member(plan::key::ZeroDerivative, true);
    if (!P.DerivativesSkipped.empty())
      J.member(plan::key::Skipped, P.DerivativesSkipped);
    J.member(plan::key::FdStep, P.Settings.FdStep);
    J.key(plan::key::Tolerance);
    J.object([&] {
      J.member(plan::key::Forward, P.Settings.ForwardTolerance);
      J.member(plan::key::Reverse, P.Settings.ReverseTolerance);
    });
    J.key(plan::key::Buffers);
    J.array([&] {
      for (const LaunchBuffer &B : P.Launch.Buffers)
        writeBuffer(J, B);
    });
    J.key(plan::key::Kernels);
    J.array([&] {
      for (const PlannedKernel &K : P.Kernels)
        writeKernel(J, K);
    });
  });
  return Text + "\n";
}

} // namespace irs
