//===- RunPlanSchema.h - Keys, words and limits of the run plan -*- C++ -*-===//
//
// The run plan (docs/run-plan.md) is written by `ir-sanitize gpu-check`
// and read by ir-sanitize-gpurun through one codec, LLVM-free
// (Launch/RunPlan.h: src/Launch/RunPlanWriter.cpp, RunPlanReader.cpp).
// Everything both sides must agree on is defined here once and LLVM-free:
// the plan's format name and version, its keys, its enumerations and their
// spellings, and the limits a plan's numbers must respect (the launch spec
// is checked against the same limits, so gpu-check never writes a plan the
// runner would refuse).
//
//===----------------------------------------------------------------------===//
#ifndef IR_SANITIZE_LAUNCH_RUNPLANSCHEMA_H
#define IR_SANITIZE_LAUNCH_RUNPLANSCHEMA_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace irs {

enum class ElementType { F32, F64, I32, I64, U8 };
/// Range: 0, 1, 2, ...; Range1: 1, 2, 3, ... (Julia's 1-based indices).
enum class BufferInit { Zero, Random, Range, Range1, Ones, Segments };
/// The kernels of a plan: the original (baseline), the splatted one, and
/// the forward and reverse derivative wrappers.
enum class KernelRole { Original, Splat, Forward, Reverse };
/// Which device copy of a buffer a relocation stores the address of.
enum class AddressKind { Primal, Shadow };
/// How a kernel accesses the memory an address points to (bit 0 reads,
/// bit 1 writes): what its traffic is counted from.
enum class MemoryAccess : uint8_t {
  None = 0,
  Read = 1,
  Write = 2,
  ReadWrite = 3
};

inline MemoryAccess operator|(MemoryAccess A, MemoryAccess B) {
  return static_cast<MemoryAccess>(static_cast<uint8_t>(A) |
                                   static_cast<uint8_t>(B));
}

/// How often a kernel with access \p A moves the memory: 0, 1 or 2 times.
inline unsigned passes(MemoryAccess A) {
  return (static_cast<uint8_t>(A) & 1) + (static_cast<uint8_t>(A) >> 1 & 1);
}

template <typename Enum> struct EnumSpelling {
  Enum Value;
  const char *Name;
};

/// Vocabulary<E>::Words lists every enumerator of E with its spelling in
/// plans and specs; Vocabulary<E>::What names the kind for error messages.
template <typename Enum> struct Vocabulary;

template <> struct Vocabulary<ElementType> {
  static constexpr const char *What = "element type";
  static constexpr EnumSpelling<ElementType> Words[] = {
      {ElementType::F32, "f32"},
      {ElementType::F64, "f64"},
      {ElementType::I32, "i32"},
      {ElementType::I64, "i64"},
      {ElementType::U8, "u8"}};
};

template <> struct Vocabulary<BufferInit> {
  static constexpr const char *What = "init";
  static constexpr EnumSpelling<BufferInit> Words[] = {
      {BufferInit::Zero, "zero"},   {BufferInit::Random, "random"},
      {BufferInit::Range, "range"}, {BufferInit::Range1, "range1"},
      {BufferInit::Ones, "ones"},   {BufferInit::Segments, "segments"}};
};

template <> struct Vocabulary<KernelRole> {
  static constexpr const char *What = "kernel role";
  static constexpr EnumSpelling<KernelRole> Words[] = {
      {KernelRole::Original, "original"},
      {KernelRole::Splat, "splat"},
      {KernelRole::Forward, "forward"},
      {KernelRole::Reverse, "reverse"}};
};

template <> struct Vocabulary<AddressKind> {
  static constexpr const char *What = "address kind";
  static constexpr EnumSpelling<AddressKind> Words[] = {
      {AddressKind::Primal, "primal"}, {AddressKind::Shadow, "shadow"}};
};

template <> struct Vocabulary<MemoryAccess> {
  static constexpr const char *What = "memory access";
  static constexpr EnumSpelling<MemoryAccess> Words[] = {
      {MemoryAccess::None, "none"},
      {MemoryAccess::Read, "read"},
      {MemoryAccess::Write, "write"},
      {MemoryAccess::ReadWrite, "read-write"}};
};

template <typename Enum> const char *spelling(Enum V) {
  for (const auto &W : Vocabulary<Enum>::Words)
    if (W.Value == V)
      return W.Name;
  return "?";
}

template <typename Enum> std::optional<Enum> parseSpelling(std::string_view S) {
  for (const auto &W : Vocabulary<Enum>::Words)
    if (S == W.Name)
      return W.Value;
  return std::nullopt;
}

/// "f32, f64, i32, i64 or u8", for error messages.
template <typename Enum> std::string spellingList() {
  std::string L;
  const auto &Words = Vocabulary<Enum>::Words;
  size_t N = sizeof(Words) / sizeof(Words[0]);
  for (size_t I = 0; I < N; ++I)
    L += std::string(I == 0 ? "" : I + 1 == N ? " or " : ", ") + Words[I].Name;
  return L;
}

/// "zero|random|range|range1|ones|segments", for usage lines.
template <typename Enum> std::string spellingAlternatives() {
  std::string L;
  for (const auto &W : Vocabulary<Enum>::Words)
    L += std::string(L.empty() ? "" : "|") + W.Name;
  return L;
}

inline uint64_t elementSize(ElementType T) {
  switch (T) {
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::F64:
  case ElementType::I64:
    return 8;
  case ElementType::U8:
    return 1;
  }
  return 1;
}

inline bool isFloatElement(ElementType T) {
  return T == ElementType::F32 || T == ElementType::F64;
}

namespace plan {

/// The plan's "format" and "version" fields; version 1 was the retired line
/// format (plan.txt).
inline constexpr const char *FormatName = "ir-sanitize-gpu-plan";
inline constexpr int64_t Version = 2;
/// The plan's name in the --emit-dir.
inline constexpr const char *FileName = "plan.json";

/// The files of a plan directory (gpu-check --emit-dir), by what they hold.
namespace file {
inline constexpr const char *Plan = FileName, *Spec = "spec.json",
                            *Manifest = "manifest.json",
                            *OriginalPTX = "original.ptx",
                            *SplatPTX = "splat.ptx",
                            *DerivativesPTX = "derivatives.ptx",
                            *EnzymeInput = "derivatives.input.ll",
                            *EnzymeOutput = "derivatives.enzyme.ll",
                            *EnzymeLog = "enzyme.log";
/// Every one, in the order gpu-check lists them.
inline constexpr const char *All[] = {Manifest,     Spec,           OriginalPTX,
                                      SplatPTX,     DerivativesPTX, EnzymeInput,
                                      EnzymeOutput, EnzymeLog,      Plan};
} // namespace file

/// The keys of the plan's objects, by object. An object may hold only the
/// keys its list names (the reader refuses any other).
namespace key {
// The plan itself.
inline constexpr const char *Format = "format", *Version = "version",
                            *Kernel = "kernel", *Launch = "launch",
                            *Checks = "checks", *Skipped = "skipped",
                            *ZeroDerivative = "zero_derivative",
                            *FdStep = "fd_step", *Tolerance = "tolerance",
                            *Buffers = "buffers", *Kernels = "kernels";
// "launch": threads, or grid and block (three sizes each).
inline constexpr const char *Threads = "threads", *Grid = "grid",
                            *Block = "block";
// "tolerance".
inline constexpr const char *Forward = "forward", *Reverse = "reverse";
// The launch spec's leaf values (gpu-check --spec; GPU/LaunchSpec.h): the
// spec is the plan's launch part, with the same keys, plus these.
inline constexpr const char *Args = "args";
// An element of "buffers".
inline constexpr const char *Name = "name", *Type = "type", *Count = "count",
                            *Init = "init", *Seed = "seed", *Output = "output",
                            *Wrt = "wrt";
// An element of "kernels".
inline constexpr const char *Role = "role", *PTX = "ptx", *Entry = "entry",
                            *Params = "params",
                            *GridStrideEntry = "grid_stride_entry",
                            *GradientOnly = "gradient_only";
// An element of a kernel's "params".
inline constexpr const char *Size = "size", *Bytes = "bytes",
                            *Relocs = "relocs";
// An element of a parameter's "relocs".
inline constexpr const char *Offset = "offset", *Buffer = "buffer",
                            *Address = "address", *Access = "access";
} // namespace key

inline constexpr const char *PlanKeys[] = {
    key::Format,    key::Version,        key::Kernel,  key::Launch,
    key::Checks,    key::ZeroDerivative, key::Skipped, key::FdStep,
    key::Tolerance, key::Buffers,        key::Kernels};
inline constexpr const char *LaunchKeys[] = {key::Threads, key::Grid,
                                             key::Block};
inline constexpr const char *ToleranceKeys[] = {key::Forward, key::Reverse};
inline constexpr const char *BufferKeys[] = {key::Name, key::Type, key::Count,
                                             key::Init, key::Seed, key::Output,
                                             key::Wrt};
inline constexpr const char *KernelKeys[] = {
    key::Role,        key::PTX, key::Entry, key::Params, key::GridStrideEntry,
    key::GradientOnly};
/// The launch spec's keys: "threads" or "grid" and "block" at the top level
/// (the plan nests them in "launch"), then as the plan, and "args".
inline constexpr const char *SpecKeys[] = {
    key::Threads, key::Grid,   key::Block,     key::Buffers,       key::Args,
    key::Checks,  key::FdStep, key::Tolerance, key::ZeroDerivative};
inline constexpr const char *ParamKeys[] = {key::Size, key::Bytes, key::Relocs};
inline constexpr const char *RelocKeys[] = {key::Offset, key::Buffer,
                                            key::Address, key::Access};

/// The values of "checks": every check, or only the primal ones.
inline constexpr const char *ChecksAll = "all", *ChecksPrimal = "primal";

/// CUDA's limit on one kernel's parameter bytes (before CUDA 12.1).
inline constexpr uint64_t MaxParamBytes = 4096;
/// The most bytes all buffers of a plan may take together. The runner holds
/// a primal and a shadow copy of each on the device and several host copies
/// during the forward check, so this keeps a plan within one GPU's memory.
inline constexpr uint64_t MaxTotalBufferBytes = uint64_t(16) << 30; // 16 GiB
/// CUDA's launch limits.
inline constexpr uint64_t MaxGridX = 2147483647, MaxGridYZ = 65535;
inline constexpr uint64_t MaxBlockXY = 1024, MaxBlockZ = 64;
inline constexpr uint64_t MaxBlockThreads = 1024;
/// A "threads" launch uses blocks of this many threads (or fewer).
inline constexpr uint64_t ThreadsPerBlock = 256;
inline constexpr uint64_t MaxThreads = MaxGridX * ThreadsPerBlock;

/// The threads of a block in a "threads" launch of \p Threads (1 to
/// MaxThreads), and the blocks along x.
inline uint64_t threadsLaunchBlock(uint64_t Threads) {
  return Threads < ThreadsPerBlock ? Threads : ThreadsPerBlock;
}
inline uint64_t threadsLaunchGrid(uint64_t Threads) {
  uint64_t Block = threadsLaunchBlock(Threads);
  return Threads / Block + (Threads % Block != 0);
}

/// Why a grid and block (three sizes each) cannot be launched, or nullptr.
inline const char *checkGeometry(const uint64_t Grid[3],
                                 const uint64_t Block[3]) {
  for (int I = 0; I < 3; ++I)
    if (Grid[I] == 0 || Block[I] == 0)
      return "grid and block sizes must be positive";
  if (Grid[0] > MaxGridX || Grid[1] > MaxGridYZ || Grid[2] > MaxGridYZ)
    return "grid exceeds CUDA's limits (2147483647 x 65535 x 65535)";
  if (Block[0] > MaxBlockXY || Block[1] > MaxBlockXY || Block[2] > MaxBlockZ ||
      Block[0] * Block[1] * Block[2] > MaxBlockThreads)
    return "block exceeds CUDA's limits (1024 x 1024 x 64, 1024 threads)";
  return nullptr;
}

/// Adds a buffer of \p Count elements of \p Type to \p TotalBytes; false
/// when the buffer or the total would exceed MaxTotalBufferBytes (or wrap).
inline bool addBufferBytes(ElementType Type, uint64_t Count,
                           uint64_t &TotalBytes) {
  // Limits first, so that nothing wraps (elementSize is never 0).
  uint64_t Size = elementSize(Type);
  if (TotalBytes > MaxTotalBufferBytes || Count > MaxTotalBufferBytes / Size)
    return false;
  uint64_t Bytes = Count * Size;
  if (Bytes > MaxTotalBufferBytes - TotalBytes)
    return false;
  TotalBytes += Bytes;
  return true;
}

} // namespace plan
} // namespace irs

#endif
