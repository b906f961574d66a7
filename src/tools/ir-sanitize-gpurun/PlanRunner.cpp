//===- PlanRunner.cpp - The checks ir-sanitize-gpurun performs ------------===//
#include "PlanRunner.h"
#include "Bandwidth.h"

#include "ir-sanitize/Support/InputFile.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace gpurun {

namespace {
LaunchGeometry geometryOf(const Plan &P) {
  LaunchGeometry G{{P.Grid[0], P.Grid[1], P.Grid[2]},
                   {P.Block[0], P.Block[1], P.Block[2]}};
  if (P.Threads) {
    // The plan reader bounds Threads, so the grid fits CUDA's limit.
    G = {{static_cast<unsigned>(irs::plan::threadsLaunchGrid(P.Threads)), 1, 1},
         {static_cast<unsigned>(irs::plan::threadsLaunchBlock(P.Threads)), 1,
          1}};
  }
  return G;
}

std::string readFile(const std::string &Path) {
  std::string Text, Problem;
  if (!irs::readInputFile(Path, irs::PTXInput, Text, Problem))
    throw CudaError("cannot read '" + Path + "': " + Problem);
  return Text;
}

std::string formatDouble(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  return Buf;
}
} // namespace

PlanRunner::PlanRunner(const Plan &P, const std::string &Dir, CudaDevice &Dev)
    : P(P), Dev(Dev), Geometry(geometryOf(P)) {
  loadKernels(Dir);
  for (const Buffer &B : P.Buffers) {
    size_t Bytes = B.Count * irs::elementSize(B.Type);
    Primal.push_back(Dev.allocate(Bytes));
    Shadow.push_back(Dev.allocate(Bytes));
  }
}

void PlanRunner::loadKernels(const std::string &Dir) {
  unsigned BlockThreads =
      Geometry.Block[0] * Geometry.Block[1] * Geometry.Block[2];
  for (const auto &[Role, L] : P.Launches) {
    std::string Ptx = readFile(Dir + "/" + L.File);
    std::string What = std::string(irs::spelling(Role)) + " kernel";
    RoleLaunch &RL = Launches[Role];
    RL.Plain = Dev.loadKernel(Ptx, L.Entry, What);
    if (L.GridStrideEntry.empty())
      continue;
    RL.Strided =
        Dev.loadKernel(Ptx, L.GridStrideEntry, What + " (grid-stride)");
    // More blocks than fit at once would only run one after another.
    RL.ResidentBlocks = RL.StridedBlocks = std::min(
        Geometry.Grid[0], Dev.residentBlocks(RL.Strided, BlockThreads));
  }
}

void PlanRunner::reset(const BufferSet &Overrides, const BufferSet &Shadows) {
  for (unsigned I = 0; I < P.Buffers.size(); ++I) {
    auto O = Overrides.find(I);
    Dev.upload(Primal[I], O != Overrides.end() ? O->second
                                               : initialContents(P.Buffers[I]));
    auto S = Shadows.find(I);
    Dev.upload(Shadow[I], S != Shadows.end() ? S->second
                                             : HostBuffer(P.Buffers[I].Type,
                                                          P.Buffers[I].Count));
  }
}

float PlanRunner::launch(KernelRole Role, unsigned Count) {
  const KernelLaunch &L = *P.launch(Role);
  std::vector<std::vector<uint8_t>> Storage;
  for (const Param &Par : L.Params) {
    Storage.push_back(Par.Bytes);
    for (const Reloc &R : Par.Relocs) {
      uint64_t Addr = R.Shadow ? Shadow[R.BufferIndex] : Primal[R.BufferIndex];
      // The plan reader checked that Offset + 8 fits the parameter.
      std::memcpy(Storage.back().data() + R.Offset, &Addr, 8);
    }
  }
  const RoleLaunch &RL = Launches.at(Role);
  LaunchGeometry G = Geometry;
  if (RL.UseStrided) {
    // The grid-stride version's last parameter: the blocks to cover.
    uint32_t Blocks = Geometry.Grid[0];
    Storage.emplace_back(4);
    std::memcpy(Storage.back().data(), &Blocks, 4);
    G.Grid[0] = RL.StridedBlocks;
  }
  std::vector<void *> Args;
  for (auto &S : Storage)
    Args.push_back(S.data());
  return Dev.launch(RL.UseStrided ? RL.Strided : RL.Plain, G, Args, Count);
}

PlanRunner::BufferSet PlanRunner::readOutputs(bool FromShadow) {
  BufferSet Out;
  for (unsigned I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (!B.Output)
      continue;
    HostBuffer H(B.Type, B.Count);
    Dev.download(H, FromShadow ? Shadow[I] : Primal[I]);
    Out.emplace(I, std::move(H));
  }
  return Out;
}

PlanRunner::BufferSet PlanRunner::directions(bool ForWrt, uint64_t Salt) const {
  BufferSet Dirs;
  for (unsigned I = 0; I < P.Buffers.size(); ++I) {
    const Buffer &B = P.Buffers[I];
    if (ForWrt ? B.Wrt : B.Output)
      Dirs.emplace(I, randomDirection(B.Type, B.Count, B.Seed * 31 + Salt));
  }
  return Dirs;
}

CheckResult PlanRunner::checkPrimal() {
  CheckResult C;
  C.Name = "primal";
  C.Ran = true;
  reset({}, {});
  launch(KernelRole::Original);
  BufferSet Original = readOutputs(false);
  reset({}, {});
  launch(KernelRole::Splat);
  BufferSet Splat = readOutputs(false);
  uint64_t Differ = 0, Written = 0, Total = 0;
  for (auto &[I, Buf] : Original) {
    Differ += countDifferences(Buf, Splat.at(I));
    Written += countDifferences(Buf, initialContents(P.Buffers[I]));
    Total += Buf.count();
  }
  C.Value = static_cast<double>(Differ);
  // Equality is only evidence when the kernel wrote something.
  C.Passed = Differ == 0 && Written > 0;
  C.Detail = std::to_string(Differ) + " of " + std::to_string(Total) +
             " output elements differ (bitwise); the original changed " +
             std::to_string(Written);
  return C;
}

CheckResult PlanRunner::checkForward(BufferSet &Jv, BufferSet &V) {
  CheckResult C;
  C.Name = "forward";
  C.Ran = true;
  C.Tolerance = P.ForwardTolerance;
  V = directions(true, 1);
  reset({}, V);
  launch(KernelRole::Forward);
  Jv = readOutputs(true);

  BufferSet Plus, Minus;
  for (auto &[I, Dir] : V) {
    HostBuffer X = initialContents(P.Buffers[I]);
    Plus.emplace(I, axpy(X, P.FdStep, Dir));
    Minus.emplace(I, axpy(X, -P.FdStep, Dir));
  }
  reset(Plus, {});
  launch(KernelRole::Splat);
  BufferSet FPlus = readOutputs(false);
  reset(Minus, {});
  launch(KernelRole::Splat);
  BufferSet FMinus = readOutputs(false);

  double Err = 0, Norm = 0, JvNorm = 0;
  for (auto &[I, T] : Jv)
    for (uint64_t K = 0; K < T.count(); ++K) {
      double Fd = (FPlus.at(I).get(K) - FMinus.at(I).get(K)) / (2 * P.FdStep);
      Err += (T.get(K) - Fd) * (T.get(K) - Fd);
      Norm += Fd * Fd;
      JvNorm += T.get(K) * T.get(K);
    }
  C.Value = std::sqrt(Err) / std::max(std::sqrt(Norm), 1e-300);
  C.Passed = C.Value <= C.Tolerance && JvNorm > 0;
  C.Detail = "relative L2 error of J v vs central differences (h = " +
             formatDouble(P.FdStep) +
             "), |J v| = " + formatDouble(std::sqrt(JvNorm));
  if (JvNorm == 0)
    C.Detail += "; J v is zero, no evidence";
  return C;
}

CheckResult PlanRunner::checkReverse(const BufferSet &Jv, const BufferSet &V) {
  CheckResult C;
  C.Name = "reverse";
  C.Ran = true;
  C.Tolerance = P.ReverseTolerance;
  BufferSet W = directions(false, 2);
  reset({}, W);
  launch(KernelRole::Reverse);
  double Lhs = 0, Rhs = 0;
  for (auto &[I, WBuf] : W)
    Lhs += dot(Jv.at(I), WBuf);
  for (auto &[I, VBuf] : V) {
    HostBuffer G(P.Buffers[I].Type, P.Buffers[I].Count);
    Dev.download(G, Shadow[I]);
    Rhs += dot(VBuf, G);
  }
  C.Value =
      std::fabs(Lhs - Rhs) / std::max({std::fabs(Lhs), std::fabs(Rhs), 1e-300});
  C.Passed = C.Value <= C.Tolerance && Rhs != 0;
  C.Detail = "<J v, w> = " + formatDouble(Lhs) +
             ", <v, J^T w> = " + formatDouble(Rhs) + ", relative difference";
  return C;
}

Timing PlanRunner::time(KernelRole Role, unsigned Repeats, bool ColdL2) {
  // Warm: a sample is the mean of back-to-back launches. Cold: one launch
  // after the flush, timed alone (events around it exclude the flush).
  const unsigned PerSample = ColdL2 ? 1 : 20;
  reset({}, {});
  launch(Role, PerSample); // warm-up: JIT, clocks
  std::vector<float> Ms;
  for (unsigned I = 0; I < Repeats; ++I) {
    if (ColdL2)
      Dev.flushL2();
    Ms.push_back(launch(Role, PerSample));
  }
  SampleSummary S = summarize(std::move(Ms));
  Timing T;
  T.Role = Role;
  T.ColdL2 = ColdL2;
  T.MedianMs = S.MedianMs;
  T.MinMs = S.MinMs;
  T.Samples = Repeats;
  T.LaunchesPerSample = PerSample;
  T.Bytes = bytesMoved(P, Role);
  const RoleLaunch &RL = Launches.at(Role);
  T.GridX = RL.UseStrided ? RL.StridedBlocks : Geometry.Grid[0];
  T.GridStride = RL.UseStrided;
  return T;
}

std::vector<GridChoice> PlanRunner::chooseGrids() {
  std::vector<GridChoice> Choices;
  for (auto &[Role, RL] : Launches) {
    if (!RL.Strided)
      continue;
    GridChoice C;
    C.Role = Role;
    C.PlainBlocks = Geometry.Grid[0];
    C.PlainRegisters = Dev.registersOf(RL.Plain);
    C.StridedRegisters = Dev.registersOf(RL.Strided);
    // Summing in registers pays where one thread's blocks add into the
    // same elements; elsewhere the loop costs more than it saves. Each
    // block's sums go out once, at its end, so fewer blocks send fewer
    // atomics into the same elements, at the price of fewer loads in flight.
    RL.UseStrided = true;
    for (unsigned Divisor : {1u, 2u, 4u}) {
      RL.StridedBlocks = std::max(1u, RL.ResidentBlocks / Divisor);
      if (!C.StridedTried.empty() &&
          C.StridedTried.back().first == RL.StridedBlocks)
        break;
      double Ms = time(Role, 5, /*ColdL2=*/false).MedianMs;
      C.StridedTried.emplace_back(RL.StridedBlocks, Ms);
      if (C.StridedTried.size() == 1 || Ms < C.StridedMs) {
        C.StridedMs = Ms;
        C.StridedBlocks = RL.StridedBlocks;
      }
    }
    RL.StridedBlocks = C.StridedBlocks;
    RL.UseStrided = false;
    C.PlainMs = time(Role, 5, /*ColdL2=*/false).MedianMs;
    C.Strided = RL.UseStrided = C.StridedMs < C.PlainMs;
    Choices.push_back(C);
  }
  return Choices;
}

RunResults PlanRunner::run(unsigned Repeats, L2Timing L2) {
  RunResults R;
  R.Device = Dev.name();
  R.PeakBytesPerSecond = Dev.peakMemoryBandwidth();
  R.AttainableBytesPerSecond = Dev.copyBandwidth(Repeats);
  std::copy(Geometry.Grid, Geometry.Grid + 3, R.Grid);
  std::copy(Geometry.Block, Geometry.Block + 3, R.Block);
  R.Grids = chooseGrids();
  R.Checks.push_back(checkPrimal());
  if (P.DerivativeChecks) {
    BufferSet Jv, V;
    R.Checks.push_back(checkForward(Jv, V));
    R.Checks.push_back(checkReverse(Jv, V));
    checkOtherGrid(R, Jv, V);
  } else {
    addSkippedDerivativeChecks(R);
  }
  for (bool Cold : {false, true}) {
    if (L2 != L2Timing::Both && Cold != (L2 == L2Timing::Cold))
      continue;
    for (const auto &W : irs::Vocabulary<KernelRole>::Words)
      if (P.launch(W.Value))
        R.Timings.push_back(time(W.Value, Repeats, Cold));
  }
  return R;
}

void PlanRunner::checkOtherGrid(RunResults &R, const BufferSet &Jv,
                                const BufferSet &V) {
  for (const GridChoice &C : R.Grids) {
    if (C.Role != KernelRole::Reverse)
      continue;
    RoleLaunch &RL = Launches.at(C.Role);
    RL.UseStrided = !C.Strided;
    CheckResult Check = checkReverse(Jv, V);
    RL.UseStrided = C.Strided;
    Check.Name = C.Strided ? "reverse/plain" : "reverse/grid";
    Check.Detail += C.Strided ? " (the plain kernel, not timed)"
                              : " (the grid-stride version with " +
                                    std::to_string(C.StridedBlocks) +
                                    " blocks, not timed)";
    R.Checks.push_back(Check);
  }
}

void PlanRunner::addSkippedDerivativeChecks(RunResults &R) const {
  if (P.DerivativesSkipped.empty())
    return; // the spec asked for the primal check only
  for (const char *Name : {"forward", "reverse"}) {
    CheckResult C;
    C.Name = Name;
    C.Detail = P.DerivativesSkipped;
    R.Checks.push_back(C);
  }
}

} // namespace gpurun
