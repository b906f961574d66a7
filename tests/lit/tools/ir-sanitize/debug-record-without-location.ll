; A debug value without a !dbg location is broken debug info: stripped with
; LLVM's warning, like any other. LLVM 19 crashes printing such a #dbg_
; record, which its verifier does to report it; found by the module fuzzer.
; With a malformed TBAA tag besides, it is refused (exit 3) with one line, and still
; without a crash.
; RUN: rm -rf %t && mkdir -p %t
; RUN: %irs %s -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=STRIP
; RUN: opt -passes=verify -disable-output %t/out.ll
; RUN: not grep -e '!dbg' -e '#dbg_' -e 'call void @llvm.dbg' %t/out.ll
; STRIP:      warning: ignoring invalid debug info in {{.*}}debug-record-without-location.ll
; STRIP-NEXT: ir-sanitize: {{.*}}; splatted 1 kernel (1 parameters into 2)
; RUN: sed 's/align 8, !dbg !7$/align 8, !dbg !7, !tbaa !1/' %s > %t/broken.ll
; RUN: %inputs/expect-exit 3 %irs %t/broken.ll -o %t/out2.ll 2>&1 | FileCheck %s --check-prefix=BROKEN
; RUN: not test -e %t/out2.ll
; BROKEN:      ir-sanitize: error: {{.*}}broken.ll: invalid IR: {{.+}}
; BROKEN-NOT:  {{.}}
target triple = "nvptx64-nvidia-cuda"

%Pair = type { ptr addrspace(1), i64 }

define ptx_kernel void @by_value(%Pair %p) !dbg !3 {
  call void @llvm.dbg.value(metadata %Pair %p, metadata !5, metadata !DIExpression())
  %n = extractvalue %Pair %p, 1, !dbg !7
  %ptr = extractvalue %Pair %p, 0, !dbg !7
  store i64 %n, ptr addrspace(1) %ptr, align 8, !dbg !7
  ret void
}

declare void @llvm.dbg.value(metadata, metadata, metadata)

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !1, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "kernels.jl", directory: ".")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "by_value", scope: !1, file: !1, line: 1, type: !4, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DISubroutineType(types: !{})
!5 = !DILocalVariable(name: "p", arg: 1, scope: !3, file: !1, line: 1, type: !6)
!6 = !DIBasicType(name: "Pair", size: 128, encoding: DW_ATE_unsigned)
!7 = !DILocation(line: 2, scope: !3)
