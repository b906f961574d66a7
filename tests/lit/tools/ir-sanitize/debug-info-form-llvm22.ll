; An LLVM 22 build can only write debug records, which Julia 1.12's LLVM 18
; cannot read: it says so instead of failing silently later.
; REQUIRES: llvm-22
; RUN: %irs %examples/cuda_ccall_gc_transition_fwddiff.ll -q -o %t.ll 2>&1 | FileCheck %s
; CHECK: ir-sanitize: warning: {{.*}}cuda_ccall_gc_transition_fwddiff.ll: the input holds llvm.dbg.* calls, but this build (LLVM 22) writes #dbg_ records
; RUN: opt -passes=verify -disable-output %t.ll
