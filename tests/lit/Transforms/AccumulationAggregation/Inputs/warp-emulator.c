// A warp on the host for warp-emulation.test, built as a shared library lli
// loads: 32 POSIX threads, the first N of which run the kernels (which the
// test's IR main hands to emulate()); the NVVM warp intrinsics the
// aggregation emits (renamed emu_*) exchange values through a barrier among
// them, as the lanes of one converged warp do. Each scenario runs every
// kernel and compares its accumulators with the sums taken one lane at a
// time; the 2-D broadcast kernel runs for every extent, stride and pair of
// flags of a small grid.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../../Inputs/host-threads.h"

typedef void Kernel(void *acc, const int32_t *idx, const int32_t *val);
static Kernel *GatherI32, *GatherF64, *UniformF32;
typedef void Kernel2D(int32_t *acc, const int32_t *val, int64_t n,
                      int64_t stride, int8_t keep1, int8_t keep2);
static Kernel2D *Broadcast2D;

enum { Lanes = 32 };
static pthread_barrier_t Barrier;
static unsigned Active;
static uint64_t Slot[Lanes];
static __thread unsigned MyLane;

uint32_t emu_tid(void) { return MyLane; }
uint32_t emu_lane(void) { return MyLane; }
uint32_t emu_activemask(void) {
  return Active == 32 ? 0xffffffffu : (1u << Active) - 1;
}

// Every active lane publishes V; returns what lane From published.
static uint64_t exchange(uint64_t V, unsigned From) {
  Slot[MyLane] = V;
  pthread_barrier_wait(&Barrier);
  uint64_t R = Slot[From % Lanes];
  pthread_barrier_wait(&Barrier);
  return R;
}

uint32_t emu_match_any_i64(uint32_t Mask, uint64_t V) {
  Slot[MyLane] = V;
  pthread_barrier_wait(&Barrier);
  uint32_t Peers = 0;
  for (unsigned L = 0; L < Lanes; ++L)
    if ((Mask >> L & 1) && Slot[L] == V)
      Peers |= 1u << L;
  pthread_barrier_wait(&Barrier);
  return Peers;
}
uint32_t emu_ballot(uint32_t Mask, _Bool P) {
  Slot[MyLane] = P;
  pthread_barrier_wait(&Barrier);
  uint32_t B = 0;
  for (unsigned L = 0; L < Lanes; ++L)
    if ((Mask >> L & 1) && Slot[L])
      B |= 1u << L;
  pthread_barrier_wait(&Barrier);
  return B;
}
_Bool emu_any(uint32_t Mask, _Bool P) { return emu_ballot(Mask, P) != 0; }
_Bool emu_all(uint32_t Mask, _Bool P) {
  return (emu_ballot(Mask, P) & Mask) == (Mask & emu_activemask());
}
// shfl.sync.idx with c = 31: lane b's value.
uint32_t emu_shfl_i32(uint32_t Mask, uint32_t V, uint32_t B, uint32_t C) {
  (void)Mask;
  (void)C;
  return (uint32_t)exchange(V, B);
}
// shfl.sync.up by b with c = 0: lane - b's value, a lane's own below b.
uint32_t emu_shfl_up_i32(uint32_t Mask, uint32_t V, uint32_t B, uint32_t C) {
  (void)Mask;
  (void)C;
  return (uint32_t)exchange(V, MyLane >= B ? MyLane - B : MyLane);
}
// shfl.sync.bfly with c = 31: lane ^ b's value.
uint32_t emu_shfl_bfly_i32(uint32_t Mask, uint32_t V, uint32_t B, uint32_t C) {
  (void)Mask;
  (void)C;
  return (uint32_t)exchange(V, MyLane ^ B);
}
// The f32 shuffles move a float's bits as the i32 ones move a word.
typedef uint32_t ShuffleI32(uint32_t, uint32_t, uint32_t, uint32_t);
static float shuffleBits(ShuffleI32 *Shuffle, uint32_t Mask, float V,
                         uint32_t B, uint32_t C) {
  uint32_t Bits;
  memcpy(&Bits, &V, 4);
  Bits = Shuffle(Mask, Bits, B, C);
  memcpy(&V, &Bits, 4);
  return V;
}
float emu_shfl_bfly_f32(uint32_t Mask, float V, uint32_t B, uint32_t C) {
  return shuffleBits(emu_shfl_bfly_i32, Mask, V, B, C);
}
float emu_shfl_f32(uint32_t Mask, float V, uint32_t B, uint32_t C) {
  return shuffleBits(emu_shfl_i32, Mask, V, B, C);
}

static int32_t Idx[Lanes], Val[Lanes];
static int32_t AccI[Lanes];
static double AccD[Lanes];
static float AccF[1];

static void *lane(void *Arg) {
  MyLane = (unsigned)(uintptr_t)Arg;
  GatherI32(AccI, Idx, Val);
  GatherF64(AccD, Idx, Val);
  UniformF32(AccF, Idx, Val);
  return 0;
}

static int scenario(const char *Name, unsigned N, int (*IndexOf)(unsigned)) {
  Active = N;
  memset(AccI, 0, sizeof AccI);
  memset(AccD, 0, sizeof AccD);
  AccF[0] = 0;
  int32_t WantI[Lanes] = {0};
  double WantF = 0;
  for (unsigned L = 0; L < Lanes; ++L) {
    Idx[L] = IndexOf(L);
    Val[L] = (int32_t)(L * 7 % 13) - 3;
    if (L < N) {
      WantI[Idx[L]] += Val[L];
      WantF += Val[L];
    }
  }
  runThreads(&Barrier, N, lane);
  int Bad = AccF[0] != (float)WantF;
  for (unsigned I = 0; I < Lanes; ++I)
    Bad |= AccI[I] != WantI[I] || AccD[I] != (double)WantI[I];
  printf("%s (%u lanes): %s\n", Name, N, Bad ? "MISMATCH" : "ok");
  return Bad;
}

static int same(unsigned L) {
  (void)L;
  return 5;
}
static int distinct(unsigned L) { return (int)(31 - L); }
static int fours(unsigned L) { return (int)(L / 4); }
// Pairs of neighbours, each group's pairs apart (lanes 0, 1, 14, 15, ...):
// the neighbour test sees the sharing, match.any finds the groups.
static int scattered(unsigned L) { return (int)(L / 2 * 5 % 7); }

// The 2-D broadcast's parameters, and its accumulator (big enough for row
// 31 of the widest stride).
static int64_t N2D, Stride2D;
static int8_t Keep1, Keep2;
static int32_t Acc2D[2048];

static void *lane2D(void *Arg) {
  MyLane = (unsigned)(uintptr_t)Arg;
  Broadcast2D(Acc2D, Val, N2D, Stride2D, Keep1, Keep2);
  return 0;
}

static int broadcast2D(int64_t N, int64_t Stride, int8_t K1, int8_t K2) {
  N2D = N, Stride2D = Stride, Keep1 = K1, Keep2 = K2;
  Active = Lanes;
  memset(Acc2D, 0, sizeof Acc2D);
  int32_t Want[2048] = {0};
  for (unsigned L = 0; L < Lanes; ++L) {
    Val[L] = (int32_t)(L * 7 % 13) - 3;
    int64_t Col = K1 ? (int64_t)L % N : 3, Row = K2 ? (int64_t)L / N : 5;
    Want[Row * Stride + Col] += Val[L];
  }
  runThreads(&Barrier, Lanes, lane2D);
  return memcmp(Acc2D, Want, sizeof Want) != 0;
}

// Extents below, at and above a warp; strides 0, below, at and above the
// extent: lanes that share their element and lanes that do not.
static int broadcasts2D(void) {
  static const int64_t Ns[] = {1, 4, 32, 40};
  int Cases = 0, Bad = 0;
  for (unsigned I = 0; I < 4; ++I) {
    int64_t Strides[] = {0, Ns[I] / 2, Ns[I], Ns[I] + 3};
    for (unsigned S = 0; S < 4; ++S)
      for (int K = 0; K < 4; ++K, ++Cases)
        Bad |= broadcast2D(Ns[I], Strides[S], K & 1, K >> 1);
  }
  printf("2-D broadcasts (%d cases): %s\n", Cases, Bad ? "MISMATCH" : "ok");
  return Bad;
}

int emulate(Kernel *I32, Kernel *F64, Kernel *F32, Kernel2D *B2D) {
  GatherI32 = I32;
  GatherF64 = F64;
  UniformF32 = F32;
  Broadcast2D = B2D;
  // Lanes that disagree on their collective operations wait at the barrier
  // for ever: a wrong rewrite ends the test (SIGALRM) instead of hanging it.
  alarm(60);
  int Bad = 0;
  Bad |= scenario("one address", 32, same);
  Bad |= scenario("distinct addresses", 32, distinct);
  Bad |= scenario("groups of four", 32, fours);
  Bad |= scenario("scattered groups", 32, scattered);
  Bad |= scenario("scattered groups", 20, scattered);
  Bad |= scenario("one address", 1, same);
  Bad |= broadcasts2D();
  return Bad;
}
