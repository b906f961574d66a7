; Julia 1.12 (LLVM 18) writes debug values as llvm.dbg.value calls and cannot
; read LLVM 19's #dbg_value records, so the output keeps the input's form,
; also after the passes ran under the new pass manager. Records stay records.
; REQUIRES: llvm-19
; RUN: %irs %examples/cuda_ccall_gc_transition_fwddiff.ll -q -o %t.ll
; RUN: FileCheck %s --check-prefix=INTRINSICS < %t.ll
; INTRINSICS-NOT: #dbg_value
; INTRINSICS: call void @llvm.dbg.value(metadata ptr addrspace(10) %"x::Vector"
; INTRINSICS: declare void @llvm.dbg.value(metadata, metadata, metadata)
; RUN: opt -S %examples/cuda_ccall_gc_transition_fwddiff.ll -o %t.records.ll
; RUN: %irs %t.records.ll -q -o - | FileCheck %s --check-prefix=RECORDS
; RECORDS: #dbg_value(ptr addrspace(10) %"x::Vector"
; RECORDS-NOT: call void @llvm.dbg.value
