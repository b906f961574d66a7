// The threads of the lit tests' emulators (warp-emulator.c, block-
// emulator.c): N host threads, thread I given I, all meeting at one
// barrier, joined before the call returns.
#ifndef IR_SANITIZE_TESTS_LIT_HOST_THREADS_H
#define IR_SANITIZE_TESTS_LIT_HOST_THREADS_H

#include <pthread.h>
#include <stdint.h>

static void runThreads(pthread_barrier_t *Barrier, unsigned N,
                       void *(*Body)(void *)) {
  pthread_barrier_init(Barrier, 0, N);
  pthread_t T[N];
  for (unsigned I = 0; I < N; ++I)
    pthread_create(&T[I], 0, Body, (void *)(uintptr_t)I);
  for (unsigned I = 0; I < N; ++I)
    pthread_join(T[I], 0);
  pthread_barrier_destroy(Barrier);
}

#endif
