//===- RunPlan.h - The run plan as ir-sanitize-gpurun reads it --*- C++ -*-===//
//
// ir-sanitize-gpurun runs on GPU machines that have no LLVM, so it reads the
// plan written by `ir-sanitize gpu-check` (src/GPU/RunPlan.cpp) with
// this small reader of its own. The format is line based, one record per
// line, tokens separated by blanks, `#` starts a comment:
//
//   irs-gpu-plan 1
//   kernel NAME
//   grid GX GY GZ block BX BY BZ        (or: threads N)
//   checks primal|all
//   fd-step H
//   tolerance forward REL_L2 reverse REL
//   buffer NAME TYPE COUNT INIT SEED FLAGS    FLAGS: - | output | wrt |
//   output,wrt module ROLE FILE ENTRY              ROLE: original | splat |
//   forward | reverse param ROLE SIZE HEX                 the next parameter's
//   bytes ("-": all zero) reloc ROLE PARAM OFFSET BUFFER primal|shadow
//
// A reloc overwrites 8 bytes of a parameter with a device address at launch.
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_GPURUN_RUNPLAN_H
#define IR_SANITIZE_GPURUN_RUNPLAN_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpurun {

enum class ElemType { F32, F64, I32, I64, U8 };
enum class Init { Zero, Ones, Range, Random };

struct Buffer {
  std::string Name;
  ElemType Type = ElemType::F32;
  uint64_t Count = 0;
  Init InitKind = Init::Zero;
  uint64_t Seed = 0;
  bool Output = false;
  bool Wrt = false;
};

struct Reloc {
  uint64_t Offset = 0;
  unsigned BufferIndex = 0;
  bool Shadow = false;
};

struct Param {
  std::vector<uint8_t> Bytes;
  std::vector<Reloc> Relocs;
};

struct KernelLaunch {
  std::string File;  ///< PTX file, relative to the plan directory.
  std::string Entry; ///< Kernel name in that PTX.
  std::vector<Param> Params;
};

struct Plan {
  std::string Kernel;
  unsigned Grid[3] = {0, 0, 0};
  unsigned Block[3] = {0, 0, 0};
  uint64_t Threads = 0; ///< When nonzero, the runner picks grid and block.
  bool DerivativeChecks = true;
  double FdStep = 1e-3;
  double ForwardTolerance = 1e-2;
  double ReverseTolerance = 1e-4;
  std::vector<Buffer> Buffers;
  std::map<std::string, KernelLaunch> Launches; ///< By role.

  const KernelLaunch *launch(const std::string &Role) const;
};

size_t elemSize(ElemType T);
const char *typeName(ElemType T);
bool isFloat(ElemType T);

/// Parses plan text; on failure returns false with "LINE: problem" in Error.
bool parsePlan(const std::string &Text, Plan &Out, std::string &Error);

} // namespace gpurun

#endif
