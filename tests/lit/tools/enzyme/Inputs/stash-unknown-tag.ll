; A call carrying a bundle tag no Enzyme knows (Julia master's
; "julia.gc_alloc_ptr_offsets", with operands) on an active argument: Enzyme
; aborts on it in getInvertedBundles. The default policy stashes it; after
; Enzyme, `restore` puts it back on the primal call.
target triple = "x86_64-unknown-linux-gnu"

; The ccall thunk (it has a body, as Julia's do).
define internal i32 @jlplt_cuMemPrefetchAsync(ptr %p, i64 %bytes, ptr %stream) {
  %r = call i32 @cuMemPrefetchAsync(ptr %p, i64 %bytes, i32 0, ptr %stream)
  ret i32 %r
}

define void @julia_neg_sub(ptr noalias %out, ptr noalias %b, i64 %n, ptr %stream) {
top:
  %bytes = shl i64 %n, 3
  %s = call i32 @jlplt_cuMemPrefetchAsync(ptr %b, i64 %bytes, ptr %stream) #1 [ "jl_roots"(ptr %b), "julia.gc_alloc_ptr_offsets"(i64 0, i64 8) ]
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ 0, %top ], [ %i.next, %loop ]
  %bp = getelementptr inbounds double, ptr %b, i64 %i
  %bv = load double, ptr %bp, align 8
  %neg = fneg double %bv
  %v = fsub double %neg, %bv
  %op = getelementptr inbounds double, ptr %out, i64 %i
  store double %v, ptr %op, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Enzyme.jl: autodiff(Forward, f, Duplicated(out, dout), Duplicated(b, db), Const(n), Const(stream))
define void @julia_fwddiff_neg_sub(ptr %out, ptr %dout, ptr %b, ptr %db, i64 %n, ptr %stream) {
  call void (...) @__enzyme_fwddiff(ptr @julia_neg_sub, metadata !"enzyme_dup", ptr %out, ptr %dout, metadata !"enzyme_dup", ptr %b, ptr %db, metadata !"enzyme_const", i64 %n, metadata !"enzyme_const", ptr %stream)
  ret void
}

declare i32 @cuMemPrefetchAsync(ptr, i64, i32, ptr) #0
declare void @__enzyme_fwddiff(...)

attributes #0 = { nofree nounwind "enzyme_inactive" "enzyme_no_escaping_allocation" }
attributes #1 = { nounwind }
