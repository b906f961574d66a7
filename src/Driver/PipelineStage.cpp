//===- PipelineStage.cpp - One stage of a job, as opt replays it ----------===//
#include "ir-sanitize/Driver/PipelineStage.h"

#include "ir-sanitize/Passes/PassRegistry.h"

namespace irs {

std::string PipelineStage::str() const {
  std::string Line = Output + ": " + Input + " | " + Command;
  return Note.empty() ? Line : Line + "  # " + Note;
}

std::string optCommand(llvm::StringRef PipelineText) {
  return "opt -passes='" + PipelineText.str() + "'";
}

llvm::Expected<PipelineStage> optStage(llvm::StringRef Output,
                                       llvm::StringRef Input,
                                       llvm::StringRef Text,
                                       llvm::StringRef Note) {
  llvm::Expected<std::string> Printed = printedPipeline(Text);
  if (!Printed)
    return Printed.takeError();
  return PipelineStage{Output.str(), Input.str(), optCommand(*Printed),
                       Note.str()};
}

} // namespace irs
