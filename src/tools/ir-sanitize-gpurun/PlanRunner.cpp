//===- PlanRunner.cpp - The checks ir-sanitize-gpurun performs ------------===//
#include "PlanRunner.h"
#include "Bandwidth.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace gpurun {

bool RunResults::allPassed() const {
  for (const CheckResult &C : Checks)
    if (C.Ran && !C.Passed)
      return false;
  return !Checks.empty();
}

namespace {
LaunchGeometry geometryOf(const Plan &P) {
  LaunchGeometry G{{P.Grid[0], P.Grid[1], P.Grid[2]},
                   {P.Block[0], P.Block[1], P.Block[2]}};
  if (P.Threads) {
    // The plan reader bounds Threads, so the grid fits CUDA's limit.
    uint64_t Block = std::min(irs::plan::ThreadsPerBlock, P.Threads);
    G = {{static_cast<unsigned>((P.Threads + Block - 1) / Block), 1, 1},
         {static_cast<unsigned>(Block), 1, 1}};
  }
  return G;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    throw CudaError("cannot read '" + Path + "'");
  std::ostringstream S;
  S << In.rdbuf();
  return S.str();
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
  for (const auto &[Role, L] : P.Launches)
    Kernels[Role] =
        Dev.loadKernel(readFile(Dir + "/" + L.File), L.Entry,
                       std::string(irs::spelling(Role)) + " kernel");
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
  std::vector<void *> Args;
  for (auto &S : Storage)
    Args.push_back(S.data());
  return Dev.launch(Kernels.at(Role), Geometry, Args, Count);
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
  std::sort(Ms.begin(), Ms.end());
  Timing T;
  T.Role = Role;
  T.ColdL2 = ColdL2;
  T.MedianMs = Ms[Ms.size() / 2];
  T.MinMs = Ms.front();
  T.Samples = Repeats;
  T.LaunchesPerSample = PerSample;
  T.Bytes = bytesMoved(P, Role);
  return T;
}

RunResults PlanRunner::run(unsigned Repeats, L2Timing L2) {
  RunResults R;
  R.Device = Dev.name();
  R.PeakBytesPerSecond = Dev.peakMemoryBandwidth();
  R.AttainableBytesPerSecond = Dev.copyBandwidth(Repeats);
  std::copy(Geometry.Grid, Geometry.Grid + 3, R.Grid);
  std::copy(Geometry.Block, Geometry.Block + 3, R.Block);
  R.Checks.push_back(checkPrimal());
  if (P.DerivativeChecks) {
    BufferSet Jv, V;
    R.Checks.push_back(checkForward(Jv, V));
    R.Checks.push_back(checkReverse(Jv, V));
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
