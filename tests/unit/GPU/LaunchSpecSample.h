//===- LaunchSpecSample.h - A launch spec for bcast_add_1d.ll ---*- C++ -*-===//
//
// Shared by the parser's tests (LaunchSpecTest.cpp) and the validation's
// against a kernel (LaunchSpecValidationTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_TESTS_LAUNCHSPECSAMPLE_H
#define IR_SANITIZE_TESTS_LAUNCHSPECSAMPLE_H

#include "GPUTestSupport.h"

#include "ir-sanitize/GPU/LaunchSpec.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/JSON.h"

#include "CatchCompat.h"

#include <memory>
#include <string>

namespace irs::test {

/// x .+ y over n elements with x const, y wrt, on bcast_add_1d.ll.
inline std::string addSpec(uint64_t N, uint64_t YCount) {
  std::string NS = std::to_string(N);
  return R"({"threads": )" + NS + R"(,
    "buffers": {
      "dest": {"type": "f32", "count": )" +
         NS + R"(, "output": true},
      "x": {"type": "f32", "count": )" +
         NS + R"(, "init": "random", "seed": 1},
      "y": {"type": "f32", "count": )" +
         std::to_string(YCount) +
         R"(, "init": "random", "seed": 2, "wrt": true}},
    "args": {"1.0": "buffer:dest", "1.1": )" +
         std::to_string(4 * N) + R"(, "1.2.0": )" + NS + R"(, "1.3": )" + NS +
         R"(,
      "2.0.0.0.0": "buffer:x", "2.0.0.0.2.0": )" +
         NS + R"(, "2.0.0.1.0": 1,
      "2.0.1.0.0": "buffer:y", "2.0.1.0.2.0": )" +
         NS + R"(, "2.0.1.1.0": 1}})";
}

inline llvm::Expected<LaunchSpec> parse(llvm::StringRef Text) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  REQUIRE(static_cast<bool>(V));
  return LaunchSpec::fromJSON(*V, "spec.json");
}

inline std::string errorOf(llvm::Error E) {
  REQUIRE(static_cast<bool>(E));
  return llvm::toString(std::move(E));
}

struct AddKernel {
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> M = loadExample("kernels/bcast_add_1d.ll", Ctx);
  KernelManifest K =
      manifestFor(*M->getFunction("_Z16broadcast_kernel_add_1d"));
};

} // namespace irs::test

#endif
