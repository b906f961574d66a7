; drop removes a bundle without a record; the JSON report accounts for every
; bundle seen, per function and call site, with debug locations and totals,
; and the summary line says the same.
; RUN: %irs %s --bundle gc-transition=drop --bundle unknown_bundle=drop --report=%t.json -o %t.ll 2>&1 | FileCheck %s --check-prefix=SUMMARY
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: FileCheck %s --check-prefix=JSON < %t.json
; RUN: %irs %s -q -o %t2.ll
; RUN: %irs check %t2.ll --format=json | FileCheck %s --check-prefix=CHECK-AFTER

declare i32 @cuCtxSynchronize()
declare void @llvm.assume(i1)

define i32 @julia_sync_1(ptr %p) !dbg !3 {
top:
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 8) ]
  %r = call i32 @cuCtxSynchronize() [ "gc-transition"(), "unknown_bundle"(i32 3) ], !dbg !7
  %s = call i32 @cuCtxSynchronize() [ "jl_roots"(ptr %p) ]
  ret i32 %r
}

; SUMMARY: ir-sanitize: {{.*}}drop-and-report.ll: 3 bundles on 2 call sites: lowered 0, stashed 0, dropped 2, kept 1

; IR:      call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 8) ]
; IR-NEXT: %r = call i32 @cuCtxSynchronize(), !dbg
; IR-NOT: irs.stashed_bundles

; JSON:      "functions": [
; JSON:          "call_sites": [
; JSON:              "bundles": [
; JSON:                  "action": "drop",
; JSON-NEXT:             "operands": 0,
; JSON-NEXT:             "tag": "gc-transition"
; JSON:                  "action": "drop",
; JSON-NEXT:             "operands": 1,
; JSON-NEXT:             "tag": "unknown_bundle"
; JSON:              "callee": "cuCtxSynchronize",
; JSON-NEXT:         "location": "sync.jl:11:5"
; JSON:              "action": "keep",
; JSON-NEXT:         "operands": 1,
; JSON-NEXT:         "tag": "jl_roots"
; JSON:          "name": "julia_sync_1"
; JSON:      "scope": "ccalls",
; JSON:      "totals": {
; JSON-NEXT:   "bundles": 3,
; JSON-NEXT:   "call_sites": 2,
; JSON-NEXT:   "drop": 2,
; JSON-NEXT:   "keep": 1,
; JSON-NEXT:   "lower": 0,
; JSON-NEXT:   "stash": 0

; With the defaults nothing Enzyme aborts on is left (the intrinsic is out of
; check's default scope too).
; CHECK-AFTER: "clean": true,
; CHECK-AFTER: "bundles": []

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !2, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!2 = !DIFile(filename: "sync.jl", directory: ".")
!3 = distinct !DISubprogram(name: "sync", scope: null, file: !2, line: 10, type: !4, scopeLine: 10, spFlags: DISPFlagDefinition, unit: !1)
!4 = !DISubroutineType(types: !5)
!5 = !{}
!7 = !DILocation(line: 11, column: 5, scope: !3)
