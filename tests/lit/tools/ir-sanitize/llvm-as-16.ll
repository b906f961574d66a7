; The output for a Julia 1.12-era module stays readable by an older LLVM.
; REQUIRES: llvm-as-16, llvm-19
; RUN: %irs %examples/cuda_ccall_gc_transition_fwddiff.ll -q -o %t.lower.ll
; RUN: %llvm-as-16 %t.lower.ll -o /dev/null
; RUN: %irs %examples/cuda_ccall_gc_transition_autodiff.ll -q --bundle gc-transition=stash --bundle jl_roots=stash -o %t.stash.ll
; RUN: %llvm-as-16 %t.stash.ll -o /dev/null
; RUN: %irs restore %t.stash.ll -q -o %t.restored.ll
; RUN: %llvm-as-16 %t.restored.ll -o /dev/null
