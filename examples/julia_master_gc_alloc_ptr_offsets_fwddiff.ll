; Julia master (post-1.13) host module that makes every Enzyme abort, the
; 2026 snapshots with Enzyme's own gc-transition fix (PR #2906) included:
; Julia master tells LateLowerGCFrame which fields of a new object hold GC
; pointers with a "julia.gc_alloc_ptr_offsets" bundle on the allocation
; (julia.gc_alloc_obj), so that it zeroes just those. Enzyme knows
; julia.gc_alloc_obj (it allocates the shadow too), but in rebuilding the
; call it meets a tag it has no rule for: `unsupported tag
; julia.gc_alloc_ptr_offsets ... UNREACHABLE` in GradientUtils. ir-sanitize
; stashes the bundle for Enzyme and `restore` puts it back after it.
;
;   ir-sanitize check examples/julia_master_gc_alloc_ptr_offsets_fwddiff.ll   (exit 1)
;   ir-sanitize enzyme examples/julia_master_gc_alloc_ptr_offsets_fwddiff.ll --triage
;
; julia> mutable struct Cell; x::Float64; next::Any; end
; julia> cell_square(x::Float64) = (c = Cell(x, nothing); c.x * c.x)
source_filename = "start"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128-ni:10:11:12:13"
target triple = "x86_64-unknown-linux-gnu"

@"+Main.Cell#1432" = private unnamed_addr constant ptr inttoptr (i64 139637713413136 to ptr)
@"jl_global#1433" = private unnamed_addr constant ptr inttoptr (i64 139637692014600 to ptr)

define double @julia_cell_square_1430(double %"x::Float64") #0 {
top:
  %pgcstack = call ptr @julia.get_pgcstack()
  %current_task = getelementptr inbounds i8, ptr %pgcstack, i64 -112
  %tag = load ptr addrspace(10), ptr @"+Main.Cell#1432", align 8, !tbaa !0, !invariant.load !3
  ; Cell(x, nothing): 16 bytes, a GC pointer at offset 8 (`next`).
  %"new::Cell" = call noalias nonnull align 8 dereferenceable(16) ptr addrspace(10) @julia.gc_alloc_obj(ptr %current_task, i64 16, ptr addrspace(10) %tag) #2 [ "julia.gc_alloc_ptr_offsets"(i64 8) ]
  %x_field = addrspacecast ptr addrspace(10) %"new::Cell" to ptr addrspace(11)
  store double %"x::Float64", ptr addrspace(11) %x_field, align 8, !tbaa !4
  %nothing = load ptr addrspace(10), ptr @"jl_global#1433", align 8, !tbaa !0, !invariant.load !3
  %next_field = getelementptr inbounds i8, ptr addrspace(11) %x_field, i64 8
  store atomic ptr addrspace(10) %nothing, ptr addrspace(11) %next_field release, align 8, !tbaa !4
  %"c.x" = load double, ptr addrspace(11) %x_field, align 8, !tbaa !4
  %0 = fmul double %"c.x", %"c.x"
  ret double %0
}

; What Enzyme.jl hands to Enzyme for autodiff(Forward, cell_square, Duplicated(x, 1.0)).
define double @julia_fwddiff_cell_square_1440(double %x) #0 {
top:
  %0 = call double (...) @__enzyme_fwddiff(ptr nonnull @julia_cell_square_1430, double %x, double 1.000000e+00)
  ret double %0
}

declare ptr @julia.get_pgcstack()
declare noalias nonnull ptr addrspace(10) @julia.gc_alloc_obj(ptr, i64, ptr addrspace(10)) #1
declare double @__enzyme_fwddiff(...)

attributes #0 = { "frame-pointer"="all" "julia.fsig"="cell_square(Float64)" "probe-stack"="inline-asm" }
attributes #1 = { nounwind willreturn allockind("alloc") allocsize(1) memory(argmem: read, inaccessiblemem: readwrite) "enzyme_no_escaping_allocation" }
attributes #2 = { nounwind willreturn allockind("alloc,uninitialized") allocsize(1) memory(argmem: read, inaccessiblemem: readwrite) }

!0 = !{!1, !1, i64 0}
!1 = !{!"jtbaa_const", !2, i64 0}
!2 = !{!"jtbaa"}
!3 = !{}
!4 = !{!5, !5, i64 0}
!5 = !{!"jtbaa_mutab", !6, i64 0}
!6 = !{!"jtbaa_value", !7, i64 0}
!7 = !{!"jtbaa_data", !2, i64 0}
