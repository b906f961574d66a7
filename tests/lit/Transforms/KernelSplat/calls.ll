; Calls to a kernel inside the module follow the new signature: by-value
; aggregates are taken apart with extractvalue, byval/byref ones are read
; from the caller's memory at the manifest's offsets. Non-kernels keep their
; aggregate parameters, and a kernel whose address escapes is left alone.
; The kernels left alone are missed-optimization remarks.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-splat \
; RUN:   -pass-remarks-missed=ir-sanitize-splat -S %s -o %t.ll 2>%t.err
; LLVM 22 reads a "kernel" annotation as the ptx_kernel calling convention
; and launch bounds as function attributes; LLVM 19 keeps the annotations,
; which must then name the new functions.
; RUN: FileCheck %s --check-prefixes=CHECK,%if nvvm-annotations %{ANNMD%} %else %{ANNATTR%} --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=NOTE --input-file=%t.err

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Pair = type { ptr addrspace(1), { i32, [0 x i64], double } }

; An extractvalue of a leaf reads the leaf, one of a sub-aggregate gets that
; part rebuilt, one of a zero-sized field is poison (it has no bits), and the
; call that takes the whole aggregate gets it rebuilt at entry.
; CHECK-LABEL: define {{(ptx_kernel )?}}void @by_value(ptr addrspace(1) noundef %p.0, i32 noundef %p.1.0, double noundef %p.1.2, i32 %n)
; CHECK-NEXT:  entry:
; CHECK-DAG:     [[I0:%.*]] = insertvalue { i32, [0 x i64], double } poison, i32 %p.1.0, 0
; CHECK-DAG:     %inner = insertvalue { i32, [0 x i64], double } [[I0]], double %p.1.2, 2
; CHECK-DAG:     [[P0:%.*]] = insertvalue %Pair poison, ptr addrspace(1) %p.0, 0
; CHECK-DAG:     [[P1:%.*]] = insertvalue %Pair [[P0]], i32 %p.1.0, 1, 0
; CHECK-DAG:     %p = insertvalue %Pair [[P1]], double %p.1.2, 1, 2
; CHECK:         store double %p.1.2, ptr addrspace(1) %p.0, align 8
; CHECK-NEXT:    call void @sink(%Pair %p)
; CHECK-NEXT:    call void @sink_inner({ i32, [0 x i64], double } %inner)
; CHECK-NEXT:    call void @sink_empty([0 x i64] poison)
; CHECK-NEXT:    ret void
define void @by_value(%Pair noundef %p, i32 %n) {
entry:
  %d = extractvalue %Pair %p, 1, 2
  %ptr = extractvalue %Pair %p, 0
  store double %d, ptr addrspace(1) %ptr, align 8
  call void @sink(%Pair %p)
  %inner = extractvalue %Pair %p, 1
  call void @sink_inner({ i32, [0 x i64], double } %inner)
  %empty = extractvalue %Pair %p, 1, 1
  call void @sink_empty([0 x i64] %empty)
  ret void
}
declare void @sink(%Pair)
declare void @sink_inner({ i32, [0 x i64], double })
declare void @sink_empty([0 x i64])

; The pointer attributes of a byval parameter describe the copy, not the
; values inside it, so the leaves get none.
; CHECK-LABEL: define {{(ptx_kernel )?}}void @by_val(ptr addrspace(1) %q.0, i32 %q.1.0, double %q.1.2)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %q = alloca %Pair, align 16
; CHECK-NEXT:    store ptr addrspace(1) %q.0, ptr %q, align 16
; CHECK-NEXT:    [[A1:%.*]] = getelementptr inbounds i8, ptr %q, i64 8
; CHECK-NEXT:    store i32 %q.1.0, ptr [[A1]], align 8
; CHECK-NEXT:    [[A2:%.*]] = getelementptr inbounds i8, ptr %q, i64 16
; CHECK-NEXT:    store double %q.1.2, ptr [[A2]], align 16
; CHECK-NEXT:    %f = getelementptr inbounds i8, ptr %q, i64 16
define void @by_val(ptr noalias nocapture readonly byval(%Pair) align 16 dereferenceable(24) %q) {
entry:
  %f = getelementptr inbounds i8, ptr %q, i64 16
  %d = load double, ptr %f, align 8
  %pp = load ptr addrspace(1), ptr %q, align 8
  store double %d, ptr addrspace(1) %pp, align 8
  ret void
}

; CHECK-LABEL: define void @caller(ptr %mem)
; CHECK:         [[P0:%.*]] = extractvalue %Pair %agg, 0
; CHECK-NEXT:    [[P1:%.*]] = extractvalue %Pair %agg, 1, 0
; CHECK-NEXT:    [[P2:%.*]] = extractvalue %Pair %agg, 1, 2
; CHECK-NEXT:    call void @by_value(ptr addrspace(1) noundef [[P0]], i32 noundef [[P1]], double noundef [[P2]], i32 7), !dbg
; CHECK-NEXT:    [[Q0:%.*]] = load ptr addrspace(1), ptr %mem, align 16
; CHECK-NEXT:    [[Q1A:%.*]] = getelementptr inbounds i8, ptr %mem, i64 8
; CHECK-NEXT:    [[Q1:%.*]] = load i32, ptr [[Q1A]], align 8
; CHECK-NEXT:    [[Q2A:%.*]] = getelementptr inbounds i8, ptr %mem, i64 16
; CHECK-NEXT:    [[Q2:%.*]] = load double, ptr [[Q2A]], align 16
; CHECK-NEXT:    tail call void @by_val(ptr addrspace(1) [[Q0]], i32 [[Q1]], double [[Q2]])
define void @caller(ptr %mem) !dbg !10 {
entry:
  %agg = load %Pair, ptr %mem, align 8
  call void @by_value(%Pair noundef %agg, i32 7), !dbg !12
  tail call void @by_val(ptr byval(%Pair) align 16 %mem)
  ret void
}

; Not a kernel: untouched.
; CHECK-LABEL: define void @helper(%Pair %p)
define void @helper(%Pair %p) {
  ret void
}

; Its address escapes into a global, so it keeps its signature.
; CHECK-LABEL: define ptx_kernel void @escapes(%Pair %p)
; NOTE: kernel 'escapes' is not splatted: its address is used other than by direct (non-musttail) calls
@table = global ptr @escapes
define ptx_kernel void @escapes(%Pair %p) {
  ret void
}

!nvvm.annotations = !{!0, !1, !20, !21, !22}
!0 = !{ptr @by_value, !"kernel", i32 1}
!1 = !{ptr @by_val, !"kernel", i32 1, !"maxntidx", i32 128}

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!4}
!2 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !3, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!3 = !DIFile(filename: "calls.jl", directory: ".")
!4 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "caller", scope: !3, file: !3, line: 1, type: !11, spFlags: DISPFlagDefinition, unit: !2)
!11 = !DISubroutineType(types: !{})
!12 = !DILocation(line: 2, scope: !10)

; A kernel in a comdat stays in it.
; CHECK-LABEL: define {{(ptx_kernel )?}}void @in_comdat(ptr addrspace(1) %p.0, i32 %p.1.0, double %p.1.2) comdat {
$in_comdat = comdat any
define void @in_comdat(%Pair %p) comdat {
  ret void
}

; A musttail caller would need the old signature: the kernel is left alone.
; CHECK-LABEL: define {{(ptx_kernel )?}}void @tail_called(%Pair %p)
; NOTE: kernel 'tail_called' is not splatted: its address is used other than by direct (non-musttail) calls
define void @tail_called(%Pair %p) {
  ret void
}
define void @tail_caller(%Pair %p) {
  musttail call void @tail_called(%Pair %p)
  ret void
}
!20 = !{ptr @in_comdat, !"kernel", i32 1}
!21 = !{ptr @tail_called, !"kernel", i32 1}


; An AMDGPU-style byref pointer into constant memory (address space 4)
; cannot be replaced by a stack copy: that parameter stays, the others split.
; CHECK-LABEL: define {{(ptx_kernel )?}}void @kernarg(ptr addrspace(4) byref(%Pair) align 8 %k, ptr addrspace(1) %v.0, i32 %v.1.0, double %v.1.2)
; NOTE: kernel 'kernarg': parameter #0 stays whole: it points into address space 4, where no stack copy can be made
define void @kernarg(ptr addrspace(4) byref(%Pair) align 8 %k, %Pair %v) {
  %x = load i64, ptr addrspace(4) %k, align 8
  ret void
}
!22 = !{ptr @kernarg, !"kernel", i32 1}

; ANNMD: !nvvm.annotations = !{![[A:[0-9]+]], ![[B:[0-9]+]],
; ANNMD: ![[A]] = !{ptr @by_value, !"kernel", i32 1}
; ANNMD: ![[B]] = !{ptr @by_val, !"kernel", i32 1, !"maxntidx", i32 128}
; ANNATTR: attributes #0 = { "nvvm.maxntid"="128" }
