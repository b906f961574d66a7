; Julia 1.12 host module (LLVM 18 text, debug values as intrinsics) that makes
; Enzyme abort in forward mode: the Julia function calls CUDA.jl's
; cuPointerGetAttribute wrapper, a `@ccall gc_safe=true` that Julia 1.12 emits
; as a call to the ccall thunk with a "gc-transition"() bundle next to the
; "jl_roots" of its arguments. __enzyme_fwddiff differentiates through it and
; Enzyme stops with `unsupported tag gc-transition ... UNREACHABLE` in
; GradientUtils::getInvertedBundles.
;
;   ir-sanitize check examples/cuda_ccall_gc_transition_fwddiff.ll   (exit 1)
;   ir-sanitize examples/cuda_ccall_gc_transition_fwddiff.ll -o clean.ll
source_filename = "start"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128-ni:10:11:12:13"
target triple = "x86_64-unknown-linux-gnu"

@_j_str_libcuda = private unnamed_addr constant [12 x i8] c"libcuda.so\00\00"
@_j_str_cuPointerGetAttribute = private unnamed_addr constant [22 x i8] c"cuPointerGetAttribute\00"
@jl_libcuda_handle = internal global ptr null
@jlplt_cuPointerGetAttribute_1523_got = internal global ptr @jlplt_cuPointerGetAttribute_1523

; The ccall thunk: resolves the symbol on first use, then calls it.
define internal i32 @jlplt_cuPointerGetAttribute_1523(ptr %0, i32 %1, i64 %2) #2 {
  %4 = call ptr @ijl_load_and_lookup(ptr @_j_str_libcuda, ptr @_j_str_cuPointerGetAttribute, ptr @jl_libcuda_handle)
  store atomic ptr %4, ptr @jlplt_cuPointerGetAttribute_1523_got release, align 8
  %5 = tail call i32 %4(ptr %0, i32 %1, i64 %2) #5
  ret i32 %5
}

; julia> scaled_norm2(x::CuArray{Float64}, p::CuPtr{Float64}) : checks that p
; is device memory (cuPointerGetAttribute), then returns x[1]^2 * x[2].
define double @julia_scaled_norm2_1520(ptr addrspace(10) noundef nonnull align 8 dereferenceable(24) %"x::Vector", i64 signext %"p::CuPtr") #0 !dbg !5 {
top:
  %"attr::Base.RefValue" = alloca i32, align 4
  %pgcstack = call ptr @julia.get_pgcstack()
  call void @llvm.dbg.value(metadata ptr addrspace(10) %"x::Vector", metadata !12, metadata !DIExpression()), !dbg !14
  %0 = call i32 @jlplt_cuPointerGetAttribute_1523(ptr nonnull %"attr::Base.RefValue", i32 1, i64 %"p::CuPtr") #3 [ "jl_roots"(ptr addrspace(10) %"x::Vector"), "gc-transition"() ], !dbg !15
  %.not = icmp eq i32 %0, 0, !dbg !15
  br i1 %.not, label %L9, label %L7, !dbg !15

L7:                                               ; preds = %top
  call void @ijl_throw(ptr addrspace(12) null) #4, !dbg !15
  unreachable, !dbg !15

L9:                                               ; preds = %top
  %1 = addrspacecast ptr addrspace(10) %"x::Vector" to ptr addrspace(11), !dbg !16
  %memoryref_data = load ptr addrspace(13), ptr addrspace(11) %1, align 8, !dbg !16, !tbaa !18, !nonnull !4
  %memoryref_x1 = load double, ptr addrspace(13) %memoryref_data, align 8, !dbg !16, !tbaa !21
  %2 = getelementptr inbounds i8, ptr addrspace(13) %memoryref_data, i64 8, !dbg !16
  %memoryref_x2 = load double, ptr addrspace(13) %2, align 8, !dbg !16, !tbaa !21
  %3 = fmul double %memoryref_x1, %memoryref_x1, !dbg !17
  %4 = fmul double %3, %memoryref_x2, !dbg !17
  ret double %4, !dbg !17
}

; What Enzyme.jl hands to Enzyme for autodiff(Forward, scaled_norm2, Duplicated(x, dx), Const(p)).
define double @julia_fwddiff_scaled_norm2_1530(ptr addrspace(10) %x, ptr addrspace(10) %dx, i64 %p) #0 {
top:
  %0 = call double (...) @__enzyme_fwddiff(ptr nonnull @julia_scaled_norm2_1520, metadata !"enzyme_dup", ptr addrspace(10) %x, ptr addrspace(10) %dx, metadata !"enzyme_const", i64 %p)
  ret double %0
}

declare ptr @julia.get_pgcstack()
declare ptr @ijl_load_and_lookup(ptr, ptr, ptr) #5
declare void @ijl_throw(ptr addrspace(12)) #4
declare double @__enzyme_fwddiff(...)
declare void @llvm.dbg.value(metadata, metadata, metadata) #1

attributes #0 = { "frame-pointer"="all" "julia.fsig"="scaled_norm2(CuArray{Float64, 1, CUDA.DeviceMemory}, CuPtr{Float64})" "probe-stack"="inline-asm" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { "frame-pointer"="all" "probe-stack"="inline-asm" }
attributes #3 = { nounwind }
attributes #4 = { noreturn }
attributes #5 = { nofree nounwind "enzyme_inactive" "enzyme_no_escaping_allocation" }

!llvm.module.flags = !{!0, !1}
!llvm.dbg.cu = !{!2}

!0 = !{i32 2, !"Dwarf Version", i32 4}
!1 = !{i32 2, !"Debug Info Version", i32 3}
!2 = distinct !DICompileUnit(language: DW_LANG_Julia, file: !3, producer: "julia", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, nameTableKind: None)
!3 = !DIFile(filename: "julia", directory: ".")
!4 = !{}
!5 = distinct !DISubprogram(name: "scaled_norm2", linkageName: "julia_scaled_norm2_1520", scope: null, file: !6, line: 12, type: !7, scopeLine: 12, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !4)
!6 = !DIFile(filename: "/home/user/CUDAScaled/src/scaled.jl", directory: ".")
!7 = !DISubroutineType(types: !8)
!8 = !{!9, !10, !11}
!9 = !DIBasicType(name: "Float64", size: 64, encoding: DW_ATE_float)
!10 = !DICompositeType(tag: DW_TAG_structure_type, name: "CuArray", file: !3, flags: DIFlagFwdDecl)
!11 = !DIBasicType(name: "CuPtr", size: 64, encoding: DW_ATE_unsigned)
!12 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !6, line: 12, type: !10)
!13 = !DIFile(filename: "/home/user/.julia/packages/CUDA/x2wRM/lib/cudadrv/libcuda.jl", directory: ".")
!14 = !DILocation(line: 12, scope: !5)
!15 = !DILocation(line: 1163, column: 5, scope: !23, inlinedAt: !24)
!16 = !DILocation(line: 14, column: 12, scope: !5)
!17 = !DILocation(line: 14, column: 5, scope: !5)
!18 = !{!"jtbaa_arrayptr", !19, i64 0}
!19 = !{!"jtbaa_array", !20, i64 0}
!20 = !{!"jtbaa"}
!21 = !{!"jtbaa_arraybuf", !22, i64 0}
!22 = !{!"jtbaa_data", !20, i64 0}
!23 = distinct !DISubprogram(name: "cuPointerGetAttribute", linkageName: "julia_cuPointerGetAttribute_1524", scope: null, file: !13, line: 1161, type: !7, scopeLine: 1161, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !4)
!24 = !DILocation(line: 13, column: 8, scope: !5)
