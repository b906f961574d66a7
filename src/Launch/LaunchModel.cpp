//===- LaunchModel.cpp - A launch's buffers and check settings ------------===//
#include "ir-sanitize/Launch/LaunchModel.h"

namespace irs {

CheckSettings defaultCheckSettings(bool AllDouble) {
  if (AllDouble)
    return {/*FdStep=*/1e-6, /*ForwardTolerance=*/1e-7,
            /*ReverseTolerance=*/1e-12};
  return {/*FdStep=*/1e-3, /*ForwardTolerance=*/1e-3,
          /*ReverseTolerance=*/1e-5};
}

} // namespace irs
