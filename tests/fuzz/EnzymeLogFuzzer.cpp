//===- EnzymeLogFuzzer.cpp - What a child opt running Enzyme printed ------===//
//
// The input is an Enzyme log (EnzymeLogInput): a plugin under test can print
// anything. Its diagnosis goes into one-line messages and the rejected tag
// it names into the probe cache's doubt, so each field must be one line and
// the tag one word.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"

#include "ir-sanitize/Enzyme/BundleProbe.h"
#include "ir-sanitize/Enzyme/EnzymeRunner.h"

using namespace llvm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  irs::EnzymeResult R;
  R.Outcome.How = irs::ChildOutcome::Kind::Signalled;
  R.Outcome.Signal = 6;
  R.Diagnosis = irs::diagnoseEnzymeLog(irs::fuzz::asText(Data, Size));
  const irs::EnzymeLogDiagnosis &D = R.Diagnosis;
  for (const std::string *Field :
       {&D.Message, &D.Function, &D.Instruction, &D.Where, &D.Frame, &D.Phase})
    if (Field->find('\n') != std::string::npos)
      irs::fuzz::fail("a diagnosis field spans lines: " + *Field);
  std::string Tag = irs::rejectedTagIn(R);
  if (Tag.find_first_of(" \n") != std::string::npos)
    irs::fuzz::fail("a rejected tag is not one word: " + Tag);
  return 0;
}
