//===- PlanRunner.cpp - The checks ir-sanitize-gpurun performs ------------===//
#include "PlanRunner.h"
#include "Bandwidth.h"
#include "Checks.h"

#include <algorithm>
#include <cmath>

namespace gpurun {

namespace {
/// A check's launch wrote outside its buffers: the check fails with this.
struct GuardBreachError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// \p Check's result, or the check \p Name failed where one of its
/// launches wrote outside its buffers.
template <typename CheckFn>
CheckResult guarded(const char *Name, CheckFn Check) {
  try {
    return Check();
  } catch (const GuardBreachError &E) {
    CheckResult C;
    C.Name = Name;
    C.Ran = true;
    C.Detail = E.what();
    return C;
  }
}
} // namespace

PlanRunner::PlanRunner(const LoadedPlan &Plan, CudaDevice &Dev, bool Guards)
    : P(Plan.P), Dev(Dev), Geometry(planGeometry(P)), Guards(Guards) {
  loadKernels(Plan.PTX);
  uint64_t Zone = Guards ? GuardBytes : 0;
  for (const LaunchBuffer &B : P.Launch.Buffers) {
    size_t Bytes = B.sizeInBytes() + 2 * Zone;
    Primal.push_back(Dev.allocate(Bytes) + Zone);
    Shadow.push_back(Dev.allocate(Bytes) + Zone);
  }
  fillGuards(GuardByte);
  // Enzyme caches a loop's values in device-side malloc memory (reverse
  // mode over a tiled loop): a thread each, more than the default 8 MiB.
  if (std::any_of(Plan.PTX.begin(), Plan.PTX.end(), [](const auto &File) {
        return File.second.find(") malloc") != std::string::npos;
      }))
    HeapBytes = Dev.reserveMallocHeap();
}

void PlanRunner::loadKernels(const std::map<std::string, std::string> &PTX) {
  unsigned BlockThreads =
      Geometry.Block[0] * Geometry.Block[1] * Geometry.Block[2];
  for (const PlannedKernel &L : P.Kernels) {
    KernelRole Role = L.Role;
    const std::string &Ptx = PTX.at(L.PTXFile);
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
  for (unsigned I = 0; I < P.Launch.Buffers.size(); ++I) {
    auto O = Overrides.find(I);
    Dev.upload(Primal[I], O != Overrides.end()
                              ? O->second
                              : initialContents(P.Launch.Buffers[I]));
    auto S = Shadows.find(I);
    Dev.upload(Shadow[I], S != Shadows.end()
                              ? S->second
                              : HostBuffer(P.Launch.Buffers[I].Type,
                                           P.Launch.Buffers[I].Count));
  }
}

float PlanRunner::launch(KernelRole Role, unsigned Count) {
  const RoleLaunch &RL = Launches.at(Role);
  LaunchGeometry G = Geometry;
  std::optional<uint32_t> Cover;
  if (RL.UseStrided) {
    Cover = Geometry.Grid[0];
    G.Grid[0] = RL.StridedBlocks;
  }
  std::vector<std::vector<uint8_t>> Storage =
      argumentBytes(P, *P.kernel(Role), Primal, Shadow, Cover);
  std::vector<void *> Args;
  for (auto &S : Storage)
    Args.push_back(S.data());
  try {
    return Dev.launch(RL.UseStrided ? RL.Strided : RL.Plain, G, Args, Count);
  } catch (const CudaError &E) {
    // Which of the plan's kernels faulted is the first thing to know.
    const PlannedKernel &K = *P.kernel(Role);
    throw CudaError(std::string(spelling(Role)) + " kernel " +
                    (RL.UseStrided ? K.GridStrideEntry : K.Entry) + " (" +
                    K.PTXFile + "): " + E.what());
  }
}

std::vector<DeviceBuffer> PlanRunner::deviceBuffers() const {
  std::vector<DeviceBuffer> Out;
  for (size_t I = 0; I < P.Launch.Buffers.size(); ++I) {
    const LaunchBuffer &B = P.Launch.Buffers[I];
    Out.push_back({B.Name, Primal[I], B.sizeInBytes()});
    Out.push_back({B.Name + " (shadow)", Shadow[I], B.sizeInBytes()});
  }
  return Out;
}

uint64_t PlanRunner::guardZone(size_t I, bool IsShadow, bool Before) const {
  uint64_t Base = IsShadow ? Shadow[I] : Primal[I];
  return Before ? Base - GuardBytes : Base + P.Launch.Buffers[I].sizeInBytes();
}

void PlanRunner::fillGuards(uint8_t Fill) {
  if (!Guards)
    return;
  HostBuffer Zone(ElementType::U8, GuardBytes);
  std::fill(Zone.Bytes.begin(), Zone.Bytes.end(), Fill);
  for (size_t I = 0; I < P.Launch.Buffers.size(); ++I)
    for (bool IsShadow : {false, true})
      for (bool Before : {true, false})
        Dev.upload(guardZone(I, IsShadow, Before), Zone);
}

std::string PlanRunner::guardBreach(KernelRole Role, uint8_t Fill) {
  if (!Guards)
    return "";
  HostBuffer Zone(ElementType::U8, GuardBytes);
  for (size_t I = 0; I < P.Launch.Buffers.size(); ++I)
    for (bool IsShadow : {false, true})
      for (bool Before : {true, false}) {
        Dev.download(Zone, guardZone(I, IsShadow, Before));
        if (auto B = findBreach(Zone.Bytes, Fill, Before)) {
          fillGuards(Fill); // the next launch is judged on its own
          return describeBreach(*B, Role, P.Launch.Buffers[I].Name, IsShadow);
        }
      }
  return "";
}

void PlanRunner::launchChecked(KernelRole Role, uint8_t Fill) {
  launch(Role);
  std::string Breach = guardBreach(Role, Fill);
  if (!Breach.empty())
    throw GuardBreachError(Breach);
}

BufferSet PlanRunner::readOutputs(bool FromShadow) {
  BufferSet Out;
  for (unsigned I = 0; I < P.Launch.Buffers.size(); ++I) {
    const LaunchBuffer &B = P.Launch.Buffers[I];
    if (!B.Output)
      continue;
    HostBuffer H(B.Type, B.Count);
    Dev.download(H, FromShadow ? Shadow[I] : Primal[I]);
    Out.emplace(I, std::move(H));
  }
  return Out;
}

BufferSet PlanRunner::readGradient() {
  BufferSet G;
  for (unsigned I = 0; I < P.Launch.Buffers.size(); ++I) {
    if (!P.Launch.Buffers[I].Wrt)
      continue;
    HostBuffer H(P.Launch.Buffers[I].Type, P.Launch.Buffers[I].Count);
    Dev.download(H, Shadow[I]);
    G.emplace(I, std::move(H));
  }
  return G;
}

BufferSet PlanRunner::runOriginal(const BufferSet &Start, uint8_t Fill) {
  if (Fill != GuardByte)
    fillGuards(Fill);
  reset(Start, {});
  launchChecked(KernelRole::Original, Fill);
  if (Fill != GuardByte)
    fillGuards(GuardByte);
  return readOutputs(false);
}

std::vector<OutputCoverage> PlanRunner::coverage(const BufferSet &Original) {
  BufferSet Initial = initialOutputs(P), Start;
  for (const auto &[I, Buf] : Initial)
    Start.emplace(I,
                  coverageStart(Buf, readsBuffer(P, KernelRole::Original, I)));
  BufferSet Second = runOriginal(Start, GuardByte);
  std::vector<OutputCoverage> Coverage;
  for (const auto &[I, Buf] : Original)
    Coverage.push_back(
        {P.Launch.Buffers[I].Name,
         countWritten(Initial.at(I), Buf, Start.at(I), Second.at(I)),
         Buf.count()});
  return Coverage;
}

CheckResult PlanRunner::checkPrimal() {
  PrimalEvidence E;
  E.Original = runOriginal({}, GuardByte);
  E.OtherGuards = Guards ? runOriginal({}, OtherGuardByte) : E.Original;
  E.Coverage = coverage(E.Original);
  reset({}, {});
  launchChecked(KernelRole::Splat);
  E.Splat = readOutputs(false);
  return comparePrimal(E);
}

CheckResult PlanRunner::checkForward(BufferSet &Jv, BufferSet &V) {
  V = directions(P, /*ForWrt=*/true, 1);
  reset({}, V);
  launchChecked(KernelRole::Forward);
  Jv = readOutputs(true);
  std::vector<double> Steps = forwardSteps(P.Settings.FdStep);
  std::vector<CheckResult> Tries;
  for (double Step : Steps) {
    reset(perturbed(P, V, Step), {});
    launchChecked(KernelRole::Splat);
    BufferSet FPlus = readOutputs(false);
    reset(perturbed(P, V, -Step), {});
    launchChecked(KernelRole::Splat);
    Tries.push_back(compareForward(Jv, FPlus, readOutputs(false), Step,
                                   P.Settings.ForwardTolerance));
    // A larger step cannot mend a NaN or a zero tangent.
    if (Tries.back().Passed || Tries.back().Vacuous ||
        !std::isfinite(Tries.back().Value))
      break;
  }
  CheckResult C = combineForwardSteps(Steps, Tries);
  return P.Launch.ZeroDerivativeExpected ? acceptExpectedZero(C) : C;
}

CheckResult PlanRunner::checkReverse(const BufferSet &Jv, const BufferSet &V) {
  BufferSet W = directions(P, /*ForWrt=*/false, 2);
  reset({}, W);
  launchChecked(KernelRole::Reverse);
  CheckResult C =
      compareDotProducts(Jv, W, V, readGradient(), P.Settings.ReverseTolerance);
  return P.Launch.ZeroDerivativeExpected ? acceptExpectedZero(C) : C;
}

Timing PlanRunner::time(KernelRole Role, unsigned Repeats, bool ColdL2) {
  // Warm: a sample is the mean of back-to-back launches. Cold: one launch
  // after the flush, timed alone (events around it exclude the flush).
  reset({}, {});
  // Warm-up (JIT, clocks), which also says how long a launch takes.
  SamplePlan Plan = planSamples(launch(Role), Repeats, ColdL2, BudgetMs);
  const unsigned PerSample = Plan.LaunchesPerSample;
  if (PerSample > 1)
    launch(Role, PerSample);
  std::vector<float> Ms;
  for (unsigned I = 0; I < Plan.Samples; ++I) {
    if (ColdL2)
      Dev.flushL2();
    Ms.push_back(launch(Role, PerSample));
  }
  // Timing launches are watched too (not per launch: the zones are read
  // outside the timed events).
  std::string Breach = guardBreach(Role);
  if (!Breach.empty())
    TimingBreaches.push_back(Breach + " (while timed)");
  SampleSummary S = summarize(std::move(Ms));
  Timing T;
  T.Role = Role;
  T.ColdL2 = ColdL2;
  T.MedianMs = S.MedianMs;
  T.MinMs = S.MinMs;
  T.Samples = Plan.Samples;
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
    for (unsigned Blocks : stridedBlockCounts(RL.ResidentBlocks)) {
      RL.StridedBlocks = Blocks;
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

RunResults PlanRunner::run(unsigned Repeats, L2Timing L2, double Budget) {
  BudgetMs = Budget;
  RunResults R;
  R.Device = Dev.name();
  R.PeakBytesPerSecond = Dev.peakMemoryBandwidth();
  R.AttainableBytesPerSecond = Dev.copyBandwidth(Repeats);
  std::copy(Geometry.Grid, Geometry.Grid + 3, R.Grid);
  std::copy(Geometry.Block, Geometry.Block + 3, R.Block);
  R.Grids = chooseGrids();
  addChecks(R);
  for (bool Cold : {false, true}) {
    if (L2 != L2Timing::Both && Cold != (L2 == L2Timing::Cold))
      continue;
    for (const auto &W : irs::Vocabulary<KernelRole>::Words)
      if (P.kernel(W.Value))
        R.Timings.push_back(time(W.Value, Repeats, Cold));
  }
  if (!TimingBreaches.empty()) {
    CheckResult C;
    C.Name = "guards";
    C.Ran = true;
    C.Detail =
        TimingBreaches.front() +
        (TimingBreaches.size() > 1
             ? " (and " + std::to_string(TimingBreaches.size() - 1) + " more)"
             : "");
    R.Checks.push_back(C);
  }
  return R;
}

void PlanRunner::addChecks(RunResults &R) {
  R.Checks.push_back(guarded("primal", [&] { return checkPrimal(); }));
  if (!P.Launch.DerivativeChecks)
    return addSkippedDerivativeChecks(R);
  BufferSet Jv, V;
  R.Checks.push_back(guarded("forward", [&] { return checkForward(Jv, V); }));
  if (Jv.empty() || V.empty()) {
    CheckResult C; // a breach stopped the forward check before J v
    C.Name = "reverse";
    C.Detail = "not run: the forward check, which computes its J v, failed "
               "first";
    R.Checks.push_back(C);
    return;
  }
  R.Checks.push_back(guarded("reverse", [&] { return checkReverse(Jv, V); }));
  checkOtherGrid(R, Jv, V);
}

RunResults PlanRunner::runChecks() {
  RunResults R;
  R.Device = Dev.name();
  std::copy(Geometry.Grid, Geometry.Grid + 3, R.Grid);
  std::copy(Geometry.Block, Geometry.Block + 3, R.Block);
  // Both versions of each kernel, the grid-stride one with every resident
  // block: checkOtherGrid runs the one not chosen.
  for (auto &[Role, RL] : Launches)
    if (RL.Strided) {
      GridChoice C;
      C.Role = Role;
      C.StridedBlocks = RL.StridedBlocks;
      R.Grids.push_back(C);
    }
  addChecks(R);
  return R;
}

void PlanRunner::checkOtherGrid(RunResults &R, const BufferSet &Jv,
                                const BufferSet &V) {
  for (const GridChoice &C : R.Grids) {
    if (C.Role != KernelRole::Reverse)
      continue;
    RoleLaunch &RL = Launches.at(C.Role);
    RL.UseStrided = !C.Strided;
    CheckResult Check = guarded("reverse", [&] { return checkReverse(Jv, V); });
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
