// A thread block on the host for block-emulation.test, built as a shared
// library lli loads: 16 POSIX threads per block (4x4), the blocks of a 4x4
// grid one after another; llvm.nvvm.barrier0 (renamed emu_barrier) is a
// barrier among the block's threads. Each kernel multiplies two 16x16
// matrices of small integers (exact in float); both must give the product
// a plain triple loop gives, bit for bit.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../../Inputs/host-threads.h"

typedef void Kernel(float *a, float *b, float *c, int64_t n, int64_t tiles);

enum { Tile = 4, N = 16, Threads = Tile * Tile };
static pthread_barrier_t Barrier;
static unsigned CtaX, CtaY;
static __thread unsigned TidX, TidY;
static Kernel *Running;
static float A[N * N], B[N * N], C[N * N];

uint32_t emu_tid_x(void) { return TidX; }
uint32_t emu_tid_y(void) { return TidY; }
uint32_t emu_ctaid_x(void) { return CtaX; }
uint32_t emu_ctaid_y(void) { return CtaY; }
void emu_barrier(void) { pthread_barrier_wait(&Barrier); }
void emu_barrier_id(int32_t Id) { // barrier 0 as LLVM 22 spells barrier0
  (void)Id;
  emu_barrier();
}

static void *thread(void *Arg) {
  unsigned T = (unsigned)(uintptr_t)Arg;
  TidX = T % Tile;
  TidY = T / Tile;
  Running(A, B, C, N, N / Tile);
  return 0;
}

static void launch(Kernel *K) {
  Running = K;
  memset(C, 0, sizeof C);
  for (CtaY = 0; CtaY < N / Tile; ++CtaY)
    for (CtaX = 0; CtaX < N / Tile; ++CtaX)
      runThreads(&Barrier, Threads, thread);
}

// A and B column-major, C = A * B.
static int check(const char *Name, Kernel *K) {
  launch(K);
  int Bad = 0;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J) {
      float Want = 0;
      for (unsigned L = 0; L < N; ++L)
        Want += A[I + L * N] * B[L + J * N];
      Bad |= C[I + J * N] != Want;
    }
  printf("%s: %s\n", Name, Bad ? "MISMATCH" : "ok");
  return Bad;
}

int emulate_blocks(Kernel *Original, Kernel *Forwarded) {
  alarm(60); // a barrier some thread never reaches ends the test
  for (unsigned I = 0; I < N * N; ++I) {
    A[I] = (float)((int)(I * 7 % 11) - 5);
    B[I] = (float)((int)(I * 5 % 13) - 6);
  }
  return check("original", Original) | check("forwarded", Forwarded);
}
