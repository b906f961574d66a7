//===- RunPlanSample.h - A plan with every word of the schema ---*- C++ -*-===//
//
// Shared by the codec's tests (RunPlanWriterTest.cpp, RunPlanReaderTest.cpp)
// and the runner's plan directory's (tools/ir-sanitize-gpurun/
// PlanLoaderTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_RUNPLANSAMPLE_H
#define IR_SANITIZE_TESTS_RUNPLANSAMPLE_H

#include "ir-sanitize/Launch/RunPlan.h"

#include <algorithm>
#include <string>
#include <vector>

namespace irs::test {

template <typename Enum> std::vector<Enum> allOf() {
  std::vector<Enum> All;
  for (const auto &W : irs::Vocabulary<Enum>::Words)
    All.push_back(W.Value);
  return All;
}

/// A plan that uses every element type, init kind, role and address kind,
/// with a relocation's access recorded and one's not.
inline irs::RunPlan samplePlan() {
  irs::RunPlan P;
  P.Kernel = "_Z16broadcast_kernel_add_1d";
  P.Launch.Threads = 1 << 20;
  std::vector<irs::ElementType> Types = allOf<irs::ElementType>();
  std::vector<irs::BufferInit> Inits = allOf<irs::BufferInit>();
  for (size_t I = 0; I < std::max(Types.size(), Inits.size()); ++I)
    P.Launch.Buffers.push_back(
        {"b" + std::to_string(I), Types[I % Types.size()], 1000 + I,
         Inits[I % Inits.size()], UINT64_MAX - I, I == 0, I == 1});
  P.Settings = {1e-3, 2e-3, 1e-5};
  irs::ParamImage State{std::vector<uint8_t>(16, 0), {}};
  irs::ParamImage Arr{{0, 0, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0xff},
                      {{0, "b0", false, irs::MemoryAccess::Read},
                       {8, "b1", true, std::nullopt}}};
  for (irs::KernelRole Role : allOf<irs::KernelRole>())
    P.Kernels.push_back({Role,
                         std::string(irs::spelling(Role)) + ".ptx",
                         "k_" + std::string(irs::spelling(Role)),
                         {State, Arr},
                         "",
                         false});
  // The reverse kernel has a grid-stride version and drops primal outputs.
  P.Kernels.back().GridStrideEntry = "k_reverse_grid_stride";
  P.Kernels.back().GradientOnly = true;
  return P;
}

/// \p P's kernel in \p Role, added (with only its role) if it has none.
inline irs::PlannedKernel &kernelOf(irs::RunPlan &P, irs::KernelRole Role) {
  for (irs::PlannedKernel &K : P.Kernels)
    if (K.Role == Role)
      return K;
  P.Kernels.emplace_back();
  P.Kernels.back().Role = Role;
  return P.Kernels.back();
}

inline std::string printed(const irs::RunPlan &P) {
  return irs::printRunPlan(P);
}

} // namespace irs::test

#endif
