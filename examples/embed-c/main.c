/* embed-c: ir-sanitize through its C interface, as a Julia package does it
 * (examples/julia/sanitize.jl makes the same calls in the same order).
 *
 *   embed-c INPUT.ll OUTDIR [POLICY] [--time]
 *
 * Parses INPUT with LLVM-C, then: IRSCheck (OUTDIR/check.json),
 * IRSNormalizeBundles with POLICY (report.json), IRSSplatKernels of every
 * kernel (manifest.json, and sanitized.ll: the module as it is now),
 * host-side repacking of each splatted kernel's arguments from the manifest
 * (repack.txt), IRSRestoreBundles (restore.json, restored.ll),
 * IRSOptimizeDerivativeAccesses (accesses.json, accesses.ll). With --time
 * it only parses, normalises and prints the wall and CPU seconds that
 * IRSNormalizeBundles took (bench/bench.sh capi). */
#include "ir-sanitize-c/IRSanitize.h"

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *OutDir;

static void die(const char *What, const char *Message) {
  fprintf(stderr, "embed-c: %s: %s\n", What,
          Message ? Message : "(no message)");
  exit(1);
}

static FILE *openOut(const char *Name) {
  char Path[4096];
  snprintf(Path, sizeof Path, "%s/%s", OutDir, Name);
  FILE *F = fopen(Path, "w");
  if (!F)
    die(Path, "cannot open for writing");
  return F;
}

static void writeFile(const char *Name, const char *Text) {
  FILE *F = openOut(Name);
  fputs(Text, F);
  fclose(F);
}

static void writeModule(LLVMModuleRef M, const char *Name) {
  char *Text = LLVMPrintModuleToString(M);
  writeFile(Name, Text);
  LLVMDisposeMessage(Text);
}

/* Every call: a status and either JSON or a message, both disposed here.
 * Status 1 (findings) still carries JSON. */
static char *expectJSON(const char *What, IRSStatus S, char *JSON, char *Msg) {
  if (S != IRSStatusOk && S != IRSStatusFindings) {
    fprintf(stderr, "embed-c: %s failed with status %d\n", What, (int)S);
    die(What, Msg);
  }
  printf("%s: status %d\n", What, (int)S);
  IRSDisposeString(Msg);
  return JSON;
}

/* The integer after "Key": inside [Begin, End), or -1. The manifest is
 * JSON; a Julia host would use JSON.jl, a C host whatever parser it has. */
static long field(const char *Begin, const char *End, const char *Key) {
  char Quoted[64];
  snprintf(Quoted, sizeof Quoted, "\"%s\"", Key);
  const char *P = strstr(Begin, Quoted);
  if (!P || P >= End)
    return -1;
  P += strlen(Quoted);
  while (*P == ' ' || *P == ':')
    ++P;
  return strtol(P, NULL, 10);
}

/* The end of the JSON object or array that starts at Open. */
static const char *closing(const char *Open) {
  int Depth = 0, InString = 0;
  for (const char *P = Open; *P; ++P) {
    if (InString) {
      if (*P == '\\')
        ++P;
      else if (*P == '"')
        InString = 0;
    } else if (*P == '"') {
      InString = 1;
    } else if (*P == '{' || *P == '[') {
      ++Depth;
    } else if ((*P == '}' || *P == ']') && --Depth == 0) {
      return P;
    }
  }
  return Open + strlen(Open);
}

/* The original argument #K of a launch, as the host holds it: here a
 * recognisable byte pattern of the size the manifest gives. */
static unsigned char originalByte(long K, long J) {
  return (unsigned char)((K * 37 + J) & 0xff);
}

/* Host-side repacking: the splatted kernel's parameter I is the bytes
 * [offset, offset + size) of original argument orig_index. */
static void repack(const char *Manifest) {
  FILE *F = openOut("repack.txt");
  const char *Kernels = strstr(Manifest, "\"kernels\"");
  const char *P = Kernels ? strchr(Kernels, '[') : NULL;
  const char *KernelsEnd = P ? closing(P) : NULL;
  while (P && (P = strchr(P + 1, '{')) && P < KernelsEnd) {
    const char *KernelEnd = closing(P);
    const char *Name = strstr(P, "\"name\"");
    Name = strchr(Name + 6, '"') + 1;
    fprintf(F, "kernel %.*s\n", (int)(strchr(Name, '"') - Name), Name);
    const char *Params = strstr(P, "\"params\"");
    const char *Q = strchr(Params, '[');
    const char *ParamsEnd = closing(Q);
    while ((Q = strchr(Q + 1, '{')) && Q < ParamsEnd) {
      const char *ParamEnd = closing(Q);
      long Index = field(Q, ParamEnd, "index");
      long Orig = field(Q, ParamEnd, "orig_index");
      long Offset = field(Q, ParamEnd, "offset");
      long Size = field(Q, ParamEnd, "size");
      fprintf(F, "  param %ld = arg %ld [%ld, %ld):", Index, Orig, Offset,
              Offset + Size);
      for (long J = Offset; J != Offset + Size; ++J)
        fprintf(F, " %02x", originalByte(Orig, J));
      fputc('\n', F);
      Q = ParamEnd;
    }
    P = KernelEnd;
  }
  fclose(F);
}

static double now(clockid_t Clock) {
  struct timespec T;
  clock_gettime(Clock, &T);
  return T.tv_sec + T.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: embed-c INPUT.ll OUTDIR [POLICY] [--time]\n");
    return 2;
  }
  OutDir = argv[2];
  const char *Policy = argc > 3 && strcmp(argv[3], "--time") ? argv[3] : "";
  int Time = strcmp(argv[argc - 1], "--time") == 0;

  unsigned Major, Minor, Patch, API;
  IRSGetVersion(&Major, &Minor, &Patch, &API);
  printf("ir-sanitize %u.%u.%u (C API %u) on LLVM %s\n", Major, Minor, Patch,
         API, IRSGetLLVMVersion());

  LLVMContextRef Ctx = LLVMContextCreate();
  LLVMMemoryBufferRef Buf;
  LLVMModuleRef M;
  char *Msg = NULL, *JSON = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(argv[1], &Buf, &Msg) ||
      LLVMParseIRInContext(Ctx, Buf, &M, &Msg))
    die(argv[1], Msg);

  if (!Time) {
    IRSStatus S = IRSCheck(M, NULL, &JSON, &Msg);
    JSON = expectJSON("IRSCheck", S, JSON, Msg);
    writeFile("check.json", JSON);
    IRSDisposeString(JSON);
  }

  double Start = now(CLOCK_MONOTONIC), StartCPU = now(CLOCK_PROCESS_CPUTIME_ID);
  IRSStatus S = IRSNormalizeBundles(M, Policy, &JSON, &Msg);
  double Seconds = now(CLOCK_MONOTONIC) - Start;
  double CPUSeconds = now(CLOCK_PROCESS_CPUTIME_ID) - StartCPU;
  JSON = expectJSON("IRSNormalizeBundles", S, JSON, Msg);
  writeFile("report.json", JSON);
  IRSDisposeString(JSON);
  if (Time) {
    fprintf(stderr, "IRSNormalizeBundles: %.4f s wall %.4f s cpu\n", Seconds,
            CPUSeconds);
    return 0;
  }

  S = IRSSplatKernels(M, NULL, &JSON, &Msg);
  JSON = expectJSON("IRSSplatKernels", S, JSON, Msg);
  writeFile("manifest.json", JSON);
  repack(JSON);
  IRSDisposeString(JSON);
  writeModule(M, "sanitized.ll");

  S = IRSRestoreBundles(M, &JSON, &Msg);
  JSON = expectJSON("IRSRestoreBundles", S, JSON, Msg);
  writeFile("restore.json", JSON);
  IRSDisposeString(JSON);
  writeModule(M, "restored.ll");

  /* What a host runs on an optimised derivative before code generation. */
  S = IRSOptimizeDerivativeAccesses(M, NULL, &JSON, &Msg);
  JSON = expectJSON("IRSOptimizeDerivativeAccesses", S, JSON, Msg);
  writeFile("accesses.json", JSON);
  IRSDisposeString(JSON);
  writeModule(M, "accesses.ll");

  /* Bad input comes back as a status and a message, never an abort. */
  S = IRSSplatKernels(M, "no_such_kernel", &JSON, &Msg);
  printf("IRSSplatKernels(no_such_kernel): status %d: %s\n", (int)S, Msg);
  IRSDisposeString(Msg);

  LLVMDisposeModule(M);
  LLVMContextDispose(Ctx);
  return 0;
}
