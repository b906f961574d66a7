//===- RunPlan.cpp - Writing the plan ir-sanitize-gpurun executes ---------===//
#include "ir-sanitize/GPU/RunPlan.h"

#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace irs {

namespace {

void printGeometry(raw_ostream &OS, const LaunchSpec &S) {
  if (S.Threads) {
    OS << "threads " << S.Threads << "\n";
    return;
  }
  OS << "grid " << S.Grid[0] << " " << S.Grid[1] << " " << S.Grid[2]
     << " block " << S.Block[0] << " " << S.Block[1] << " " << S.Block[2]
     << "\n";
}

void printBuffer(raw_ostream &OS, const BufferSpec &B) {
  std::string Flags = B.Output && B.Wrt ? "output,wrt"
                      : B.Output        ? "output"
                      : B.Wrt           ? "wrt"
                                        : "-";
  OS << "buffer " << B.Name << " " << elementTypeName(B.Type) << " " << B.Count
     << " " << bufferInitName(B.Init) << " " << B.Seed << " " << Flags << "\n";
}

void printKernel(raw_ostream &OS, const PlannedKernel &K) {
  OS << "module " << K.Role << " " << K.PTXFile << " " << K.Entry << "\n";
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ParamImage &P = K.Params[I];
    bool AllZero = llvm::all_of(P.Bytes, [](uint8_t B) { return B == 0; });
    OS << "param " << K.Role << " " << P.Bytes.size() << " "
       << (AllZero ? "-" : toHex(P.Bytes, /*LowerCase=*/true)) << "\n";
    for (const AddressReloc &R : P.Relocs)
      OS << "reloc " << K.Role << " " << I << " " << R.Offset << " " << R.Buffer
         << " " << (R.Shadow ? "shadow" : "primal") << "\n";
  }
}

} // namespace

void RunPlan::print(raw_ostream &OS) const {
  OS << "irs-gpu-plan 1\n# written by ir-sanitize gpu-check; run it with "
        "`ir-sanitize-gpurun DIR`\n";
  OS << "kernel " << Kernel << "\n";
  printGeometry(OS, Spec);
  OS << "checks " << (Spec.DerivativeChecks ? "all" : "primal") << "\n";
  OS << "fd-step " << format("%g", Settings.FdStep) << "\n";
  OS << "tolerance forward " << format("%g", Settings.ForwardTolerance)
     << " reverse " << format("%g", Settings.ReverseTolerance) << "\n";
  for (const BufferSpec &B : Spec.Buffers)
    printBuffer(OS, B);
  for (const PlannedKernel &K : Kernels)
    printKernel(OS, K);
}

Error writeRunPlan(const RunPlan &Plan, StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "plan.txt");
  return writeFileAtomically(Path, [&](raw_ostream &OS) { Plan.print(OS); });
}

} // namespace irs
