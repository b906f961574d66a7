//===- RestoreFuzzer.cpp - Stash records as untrusted input ---------------===//
//
// The input is a module in text, seeded with forged and damaged stash records
// (tests/lit/tools/restore/Inputs/forged, the stash tests). A module the
// reader accepts goes through restore, then through the default
// normalisation in both scopes and restore again: each step must leave a
// module that passes the verifier and never crash. Rejections are fine.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Support/BundlePolicy.h"
#include "ir-sanitize/Support/ModuleVerifier.h"
#include "ir-sanitize/Transforms/BundleNormalize.h"
#include "ir-sanitize/Transforms/BundleRestore.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {

void mustVerify(const Module &M, StringRef After) {
  if (std::optional<std::string> Problem = irs::verifierProblem(M))
    irs::fuzz::fail("a valid module came out broken after " + After + ": " +
                    *Problem);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M =
      irs::fuzz::parseText(irs::fuzz::asText(Data, Size), Ctx);
  // The tool refuses modules that fail its input check before any pass runs.
  if (!M || irs::verifierProblem(*M))
    return 0;
  irs::restoreBundles(*M);
  mustVerify(*M, "restore");
  for (irs::BundleScope Scope :
       {irs::BundleScope::CCalls, irs::BundleScope::All}) {
    irs::BundlePolicy Policy;
    Policy.Scope = Scope;
    irs::BundleReport Report;
    irs::normalizeBundles(*M, Policy, &Report);
    mustVerify(*M, "normalisation");
    irs::restoreBundles(*M);
    mustVerify(*M, "normalisation and restore");
  }
  return 0;
}
