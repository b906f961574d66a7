//===- LaunchModel.cpp - A launch's buffers and check settings ------------===//
#include "ir-sanitize/Launch/LaunchModel.h"

namespace irs {

std::pair<std::array<unsigned, 3>, std::array<unsigned, 3>>
KernelLaunch::gridAndBlock() const {
  if (!Threads)
    return {Grid, Block};
  // Readers bound Threads (plan::MaxThreads), so the grid fits an unsigned.
  return {{static_cast<unsigned>(plan::threadsLaunchGrid(Threads)), 1, 1},
          {static_cast<unsigned>(plan::threadsLaunchBlock(Threads)), 1, 1}};
}

CheckSettings defaultCheckSettings(bool AllDouble) {
  if (AllDouble)
    return {/*FdStep=*/1e-6, /*ForwardTolerance=*/1e-7,
            /*ReverseTolerance=*/1e-12};
  return {/*FdStep=*/1e-3, /*ForwardTolerance=*/1e-3,
          /*ReverseTolerance=*/1e-5};
}

} // namespace irs
