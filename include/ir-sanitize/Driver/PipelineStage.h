//===- PipelineStage.h - One stage of a job, as opt replays it --*- C++ -*-===//
//
// What `--print-pipeline-passes` prints for a command that runs more than
// one pipeline (gpu-check, enzyme): one line per stage,
//   OUTPUT: INPUT | COMMAND[  # NOTE]
// OUTPUT names what the stage writes (a file of the job's directory, a
// module kept in memory such as "sanitize", or "OUTPUT": the command's -o);
// INPUT is "INPUT" (the module as given) or an earlier stage's OUTPUT.
// COMMAND reads INPUT on stdin: `opt ...` (every opt with
// -load-pass-plugin=IRSanitize.so), perhaps piped into `llc ...`. NOTE says
// what a replay does not do.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_DRIVER_PIPELINESTAGE_H
#define IR_SANITIZE_DRIVER_PIPELINESTAGE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace irs {

struct PipelineStage {
  std::string Output, Input, Command, Note;
  std::string str() const;
};

/// `opt -passes='TEXT'`.
std::string optCommand(llvm::StringRef PipelineText);

/// `OUTPUT: INPUT | opt -passes='TEXT'  # NOTE`, TEXT parsed with the
/// registry and printed as the pass manager prints it. Errors: \p Text does
/// not parse.
llvm::Expected<PipelineStage> optStage(llvm::StringRef Output,
                                       llvm::StringRef Input,
                                       llvm::StringRef Text,
                                       llvm::StringRef Note = "");

} // namespace irs

#endif
