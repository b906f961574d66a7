//===- PlanRunner.h - The checks ir-sanitize-gpurun performs ----*- C++ -*-===//
//
// Runs a plan's kernels on one device and hands what they wrote to the
// checks' arithmetic (Checks.h); only the CUDA calls are here:
//  primal   the splatted kernel writes the same output bytes as the original,
//           which writes its outputs (Checks.h: coverage) and reads nothing
//           outside its buffers;
//  forward  the forward-mode kernel's output tangents J v match central
//           finite differences (f(x+hv) - f(x-hv)) / 2h of the primal;
//  reverse  the reverse-mode kernel passes the dot-product test
//           <J v, w> = <v, J^T w>;
//  grid     a kernel with a grid-stride version (the plan's
//           grid_stride_entry): the runner times the kernel with the plan's
//           grid and the version with all, half and a quarter of the blocks
//           the device holds at once, keeps the fastest, and checks the
//           kernel and the version both;
//  timing   median kernel times of every role over repeated launches, with
//           the L2 cache warm (back-to-back launches, the buffers stay in L2
//           when they fit) and cold (L2 flushed before each launch).
// Every buffer lies between guard zones (GuardZones.h), checked after every
// launch of a check: a write outside the buffers fails that check.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_PLANRUNNER_H
#define IR_SANITIZE_GPURUN_PLANRUNNER_H

#include "Bandwidth.h"
#include "Checks.h"
#include "CudaDevice.h"
#include "GuardZones.h"
#include "Memcheck.h"
#include "PlanLoader.h"
#include "RunResults.h"

#include <map>
#include <string>
#include <vector>

namespace gpurun {

class PlanRunner {
public:
  /// \p Plan as loadPlan checked it; its PTX text is loaded from there.
  /// Without \p Guards each buffer is an allocation of its own size, with
  /// no zones around it (for compute-sanitizer, Memcheck.h).
  PlanRunner(const LoadedPlan &Plan, CudaDevice &Dev, bool Guards = true);
  /// Checks, then times each kernel in \p L2 with up to \p Repeats samples
  /// in about \p BudgetMs (planSamples) per kernel and L2 state.
  RunResults run(unsigned Repeats, L2Timing L2 = L2Timing::Both,
                 double BudgetMs = DefaultTimingBudgetMs);
  /// The checks alone, each kernel and its grid-stride version (with every
  /// resident block), nothing timed.
  RunResults runChecks();
  /// Where the buffers and their shadows lie.
  std::vector<DeviceBuffer> deviceBuffers() const;
  /// The device-side malloc heap reserved for the plan's kernels; 0: they
  /// call no malloc and it was left as it was.
  uint64_t heapBytes() const { return HeapBytes; }

private:
  const RunPlan &P;
  CudaDevice &Dev;
  LaunchGeometry Geometry; ///< The plan's.
  /// A role's kernel and, if it has one, its grid-stride version, launched
  /// with at most the blocks the device holds at once.
  struct RoleLaunch {
    CUfunction Plain = nullptr, Strided = nullptr;
    unsigned ResidentBlocks = 0, StridedBlocks = 0;
    bool UseStrided = false;
  };
  std::map<KernelRole, RoleLaunch> Launches;
  /// Device addresses, by buffer; GuardBytes before and after each.
  std::vector<uint64_t> Primal, Shadow;
  uint64_t HeapBytes = 0;
  bool Guards = true;

  void loadKernels(const std::map<std::string, std::string> &PTX);
  /// Primal buffers to their initial contents except \p Overrides; shadows
  /// to zero except \p Shadows.
  void reset(const BufferSet &Overrides, const BufferSet &Shadows);
  /// Mean milliseconds per launch over \p Count launches.
  float launch(KernelRole Role, unsigned Count = 1);
  /// The device address of buffer \p I's (or its shadow's) zone before
  /// or after it.
  uint64_t guardZone(size_t I, bool IsShadow, bool Before) const;
  /// Every guard zone filled with \p Fill.
  void fillGuards(uint8_t Fill);
  /// The first guard zone that does not hold \p Fill after a launch of
  /// \p Role, described (then every zone is filled again), or "".
  std::string guardBreach(KernelRole Role, uint8_t Fill = GuardByte);
  /// One launch of a check: a write into a guard zone throws
  /// GuardBreachError.
  void launchChecked(KernelRole Role, uint8_t Fill = GuardByte);
  /// What launches outside the checks (timing) wrote outside the buffers:
  /// a failed check of its own at the end.
  std::vector<std::string> TimingBreaches;
  /// The original's outputs from \p Start (initial contents where it has
  /// none), with the guard zones holding \p Fill.
  BufferSet runOriginal(const BufferSet &Start, uint8_t Fill);
  std::vector<OutputCoverage> coverage(const BufferSet &Original);
  BufferSet readOutputs(bool FromShadow);
  /// The reverse kernel's shadows of the wrt buffers: J^T w.
  BufferSet readGradient();

  CheckResult checkPrimal();
  CheckResult checkForward(BufferSet &Jv, BufferSet &V);
  CheckResult checkReverse(const BufferSet &Jv, const BufferSet &V);
  /// The reverse check again with the grid-stride launch not chosen.
  void checkOtherGrid(RunResults &R, const BufferSet &Jv, const BufferSet &V);
  double BudgetMs = DefaultTimingBudgetMs;
  Timing time(KernelRole Role, unsigned Repeats, bool ColdL2);
  /// Picks the fastest of each kernel and its grid-stride version's block
  /// counts.
  std::vector<GridChoice> chooseGrids();
  /// The checks of run() and runChecks().
  void addChecks(RunResults &R);
  /// The forward and reverse rows of a plan whose derivative checks were
  /// left out, with the plan's reason.
  void addSkippedDerivativeChecks(RunResults &R) const;
};

} // namespace gpurun

#endif
