//===- RunPlan.cpp - Writing the plan ir-sanitize-gpurun executes ---------===//
//
// The schema is docs/run-plan.md; the words and the version come from
// Support/PlanVocabulary.h, which the runner's reader shares.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/GPU/RunPlan.h"

#include "ir-sanitize/Support/ModuleIO.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace irs {

namespace {

void writeDim3(json::OStream &J, StringRef Key,
               const std::array<unsigned, 3> &D) {
  J.attributeArray(Key, [&] {
    for (unsigned N : D)
      J.value(N);
  });
}

void writeLaunch(json::OStream &J, const LaunchSpec &S) {
  J.attributeObject("launch", [&] {
    if (S.Threads) {
      J.attribute("threads", S.Threads);
      return;
    }
    writeDim3(J, "grid", S.Grid);
    writeDim3(J, "block", S.Block);
  });
}

void writeBuffer(json::OStream &J, const BufferSpec &B) {
  J.object([&] {
    J.attribute("name", B.Name);
    J.attribute("type", spelling(B.Type));
    J.attribute("count", B.Count);
    J.attribute("init", spelling(B.Init));
    J.attribute("seed", B.Seed);
    J.attribute("output", B.Output);
    J.attribute("wrt", B.Wrt);
  });
}

void writeParam(json::OStream &J, const ParamImage &P) {
  J.object([&] {
    J.attribute("size", static_cast<uint64_t>(P.Bytes.size()));
    if (!llvm::all_of(P.Bytes, [](uint8_t B) { return B == 0; }))
      J.attribute("bytes", toHex(P.Bytes, /*LowerCase=*/true));
    if (P.Relocs.empty())
      return;
    J.attributeArray("relocs", [&] {
      for (const AddressReloc &R : P.Relocs)
        J.object([&] {
          J.attribute("offset", R.Offset);
          J.attribute("buffer", R.Buffer);
          J.attribute("address", spelling(R.Shadow ? AddressKind::Shadow
                                                   : AddressKind::Primal));
          if (R.Access)
            J.attribute("access", spelling(*R.Access));
        });
    });
  });
}

void writeKernel(json::OStream &J, const PlannedKernel &K) {
  J.object([&] {
    J.attribute("role", spelling(K.Role));
    J.attribute("ptx", K.PTXFile);
    J.attribute("entry", K.Entry);
    J.attributeArray("params", [&] {
      for (const ParamImage &P : K.Params)
        writeParam(J, P);
    });
    if (K.GridStrideEntry)
      J.attribute("grid_stride_entry", *K.GridStrideEntry);
    if (K.GradientOnly)
      J.attribute("gradient_only", true);
  });
}

} // namespace

void RunPlan::print(raw_ostream &OS) const {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("format", plan::FormatName);
    J.attribute("version", plan::Version);
    J.attribute("kernel", Kernel);
    writeLaunch(J, Spec);
    J.attribute("checks", Spec.DerivativeChecks ? "all" : "primal");
    if (!DerivativesSkipped.empty())
      J.attribute("skipped", DerivativesSkipped);
    J.attribute("fd_step", Settings.FdStep);
    J.attributeObject("tolerance", [&] {
      J.attribute("forward", Settings.ForwardTolerance);
      J.attribute("reverse", Settings.ReverseTolerance);
    });
    J.attributeArray("buffers", [&] {
      for (const BufferSpec &B : Spec.Buffers)
        writeBuffer(J, B);
    });
    J.attributeArray("kernels", [&] {
      for (const PlannedKernel &K : Kernels)
        writeKernel(J, K);
    });
  });
  OS << "\n";
}

std::string runPlanPath(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, plan::FileName);
  return std::string(Path);
}

Error writeRunPlan(const RunPlan &Plan, StringRef Dir) {
  return writeFileAtomically(runPlanPath(Dir),
                             [&](raw_ostream &OS) { Plan.print(OS); });
}

} // namespace irs
