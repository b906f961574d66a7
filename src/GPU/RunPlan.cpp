//===- RunPlan.cpp - Writing the plan ir-sanitize-gpurun executes ---------===//
//
// The schema is docs/run-plan.md; the words and the version come from
// Launch/RunPlanSchema.h, which the runner's reader shares.
//
//===----------------------------------------------------------------------===//
#include "ir-sanitize/GPU/RunPlan.h"

#include "ir-sanitize/Support/AtomicOutput.h"

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
  J.attributeObject(plan::key::Launch, [&] {
    if (S.Threads) {
      J.attribute(plan::key::Threads, S.Threads);
      return;
    }
    writeDim3(J, plan::key::Grid, S.Grid);
    writeDim3(J, plan::key::Block, S.Block);
  });
}

void writeBuffer(json::OStream &J, const BufferSpec &B) {
  J.object([&] {
    J.attribute(plan::key::Name, B.Name);
    J.attribute(plan::key::Type, spelling(B.Type));
    J.attribute(plan::key::Count, B.Count);
    J.attribute(plan::key::Init, spelling(B.Init));
    J.attribute(plan::key::Seed, B.Seed);
    J.attribute(plan::key::Output, B.Output);
    J.attribute(plan::key::Wrt, B.Wrt);
  });
}

void writeParam(json::OStream &J, const ParamImage &P) {
  J.object([&] {
    J.attribute(plan::key::Size, static_cast<uint64_t>(P.Bytes.size()));
    if (!llvm::all_of(P.Bytes, [](uint8_t B) { return B == 0; }))
      J.attribute(plan::key::Bytes, toHex(P.Bytes, /*LowerCase=*/true));
    if (P.Relocs.empty())
      return;
    J.attributeArray(plan::key::Relocs, [&] {
      for (const AddressReloc &R : P.Relocs)
        J.object([&] {
          J.attribute(plan::key::Offset, R.Offset);
          J.attribute(plan::key::Buffer, R.Buffer);
          J.attribute(
              plan::key::Address,
              spelling(R.Shadow ? AddressKind::Shadow : AddressKind::Primal));
          if (R.Access)
            J.attribute(plan::key::Access, spelling(*R.Access));
        });
    });
  });
}

void writeKernel(json::OStream &J, const PlannedKernel &K) {
  J.object([&] {
    J.attribute(plan::key::Role, spelling(K.Role));
    J.attribute(plan::key::PTX, K.PTXFile);
    J.attribute(plan::key::Entry, K.Entry);
    J.attributeArray(plan::key::Params, [&] {
      for (const ParamImage &P : K.Params)
        writeParam(J, P);
    });
    if (K.GridStrideEntry)
      J.attribute(plan::key::GridStrideEntry, *K.GridStrideEntry);
    if (K.GradientOnly)
      J.attribute(plan::key::GradientOnly, true);
  });
}

} // namespace

void RunPlan::print(raw_ostream &OS) const {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute(plan::key::Format, plan::FormatName);
    J.attribute(plan::key::Version, plan::Version);
    J.attribute(plan::key::Kernel, Kernel);
    writeLaunch(J, Spec);
    J.attribute(plan::key::Checks,
                Spec.DerivativeChecks ? plan::ChecksAll : plan::ChecksPrimal);
    if (!DerivativesSkipped.empty())
      J.attribute(plan::key::Skipped, DerivativesSkipped);
    J.attribute(plan::key::FdStep, Settings.FdStep);
    J.attributeObject(plan::key::Tolerance, [&] {
      J.attribute(plan::key::Forward, Settings.ForwardTolerance);
      J.attribute(plan::key::Reverse, Settings.ReverseTolerance);
    });
    J.attributeArray(plan::key::Buffers, [&] {
      for (const BufferSpec &B : Spec.Buffers)
        writeBuffer(J, B);
    });
    J.attributeArray(plan::key::Kernels, [&] {
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
