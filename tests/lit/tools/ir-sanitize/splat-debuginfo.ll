; Debug values of a splatted parameter follow it: a dbg.value of a by-value
; aggregate gets the aggregate rebuilt at entry, a dbg.declare of a byval
; pointer gets the stack copy. The kernel keeps its DISubprogram; the
; rebuilding prologue has no source location of its own.
; RUN: %irs %s -o %t.ll -q
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -passes=verify -disable-output %t.ll

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%Pair = type { ptr addrspace(1), i64 }

; CHECK-LABEL: define ptx_kernel void @by_value(ptr addrspace(1) %p.0, i64 %p.1) !dbg
; CHECK:         [[P0:%.*]] = insertvalue %Pair poison, ptr addrspace(1) %p.0, 0{{$}}
; CHECK-NEXT:    %p = insertvalue %Pair [[P0]], i64 %p.1, 1{{$}}
; CHECK:         {{(call void @llvm.dbg.value\(metadata |#dbg_value\()}}%Pair %p, {{(metadata )?}}![[PVAR:[0-9]+]]
; CHECK:         store i64 %p.1, ptr addrspace(1) %p.0, align 8, !dbg
define ptx_kernel void @by_value(%Pair %p) !dbg !10 {
  call void @llvm.dbg.value(metadata %Pair %p, metadata !12, metadata !DIExpression()), !dbg !14
  %n = extractvalue %Pair %p, 1, !dbg !14
  %ptr = extractvalue %Pair %p, 0, !dbg !14
  store i64 %n, ptr addrspace(1) %ptr, align 8, !dbg !14
  ret void, !dbg !14
}

; CHECK-LABEL: define ptx_kernel void @by_val(ptr addrspace(1) %q.0, i64 %q.1) !dbg
; CHECK:         %q = alloca %Pair, align 8
; CHECK:         {{(call void @llvm.dbg.declare\(metadata |#dbg_declare\()}}ptr %q, {{(metadata )?}}![[QVAR:[0-9]+]]
define ptx_kernel void @by_val(ptr byval(%Pair) align 8 %q) !dbg !15 {
  call void @llvm.dbg.declare(metadata ptr %q, metadata !16, metadata !DIExpression()), !dbg !17
  %f = getelementptr inbounds i8, ptr %q, i64 8, !dbg !17
  %n = load i64, ptr %f, align 8, !dbg !17
  %pp = load ptr addrspace(1), ptr %q, align 8, !dbg !17
  store i64 %n, ptr addrspace(1) %pp, align 8, !dbg !17
  ret void, !dbg !17
}

; CHECK: ![[PVAR]] = !DILocalVariable(name: "p", arg: 1
; CHECK: ![[QVAR]] = !DILocalVariable(name: "q", arg: 1

declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.declare(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !1, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "kernels.jl", directory: ".")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "by_value", scope: !1, file: !1, line: 1, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DISubroutineType(types: !{})
!12 = !DILocalVariable(name: "p", arg: 1, scope: !10, file: !1, line: 1, type: !13)
!13 = !DIBasicType(name: "Pair", size: 128, encoding: DW_ATE_unsigned)
!14 = !DILocation(line: 2, scope: !10)
!15 = distinct !DISubprogram(name: "by_val", scope: !1, file: !1, line: 5, type: !11, spFlags: DISPFlagDefinition, unit: !0)
!16 = !DILocalVariable(name: "q", arg: 1, scope: !15, file: !1, line: 5, type: !13)
!17 = !DILocation(line: 6, scope: !15)
