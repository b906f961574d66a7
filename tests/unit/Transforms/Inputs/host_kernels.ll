; The kernels of examples/kernels/ in the same parameter shapes, written for
; the host: a loop over the elements replaces the thread index and arrays
; live in address space 0. KernelSplatTest runs each one before and after
; the splat with LLVM's JIT on identical argument bytes. The test sets the
; host's triple and data layout. Every kernel is marked in !nvvm.annotations,
; the way CUDAnative marked kernels, which works on any target.

%Array1 = type { ptr, i64, [1 x i64], i64 }
%Array2 = type { ptr, i64, [2 x i64], i64 }
%Extruded1 = type { %Array1, [1 x i8], [1 x i64] }
%Extruded2 = type { %Array2, [2 x i8], [2 x i64] }
%Bc1 = type { [2 x %Extruded1], [1 x [1 x i64]] }
%Bc2 = type { [2 x %Extruded2], [2 x [1 x i64]] }
%Inner = type { [1 x %Extruded1] }
%NegSub = type { { %Inner, %Extruded1 }, [1 x [1 x i64]] }
%DualBc = type { { %Extruded1, i8 }, [1 x [1 x i64]] }
%Dual = type { float, [1 x float] }
%CompilerMetadata = type { [1 x [1 x [1 x i64]]], [2 x [1 x [1 x [1 x i64]]]] }

; getindex of a 1-D Extruded at 0-based %i.
define internal float @extruded1(%Extruded1 %e, i64 %i) {
  %keep = extractvalue %Extruded1 %e, 1, 0
  %default = extractvalue %Extruded1 %e, 2, 0
  %keep1 = and i8 %keep, 1
  %kept = icmp ne i8 %keep1, 0
  %default0 = add i64 %default, -1
  %j = select i1 %kept, i64 %i, i64 %default0
  %data = extractvalue %Extruded1 %e, 0, 0
  %addr = getelementptr inbounds float, ptr %data, i64 %j
  %val = load float, ptr %addr, align 4
  ret float %val
}

; dest .= x .+ y
define void @add_1d({ ptr, i32 } %state, %Array1 %dest, %Bc1 %bc) {
entry:
  %len = extractvalue %Array1 %dest, 3
  %data = extractvalue %Array1 %dest, 0
  %x = extractvalue %Bc1 %bc, 0, 0
  %y = extractvalue %Bc1 %bc, 0, 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %exit
body:
  %xv = call float @extruded1(%Extruded1 %x, i64 %i)
  %yv = call float @extruded1(%Extruded1 %y, i64 %i)
  %sum = fadd float %xv, %yv
  %addr = getelementptr inbounds float, ptr %data, i64 %i
  store float %sum, ptr %addr, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

; Calls the kernel twice, the second time with x and y swapped and the result
; doubled: exercises the rewritten call sites.
define void @add_1d_twice({ ptr, i32 } %state, %Array1 %dest, %Bc1 %bc) {
  call void @add_1d({ ptr, i32 } %state, %Array1 %dest, %Bc1 %bc)
  %x = extractvalue %Bc1 %bc, 0, 0
  %y = extractvalue %Bc1 %bc, 0, 1
  %swap.0 = insertvalue %Bc1 %bc, %Extruded1 %y, 0, 0
  %swap = insertvalue %Bc1 %swap.0, %Extruded1 %x, 0, 1
  %slot = alloca %Bc1, align 8
  store %Bc1 %swap, ptr %slot, align 8
  call void @add_1d_byval(ptr byval(%Bc1) align 8 %slot, %Array1 %dest)
  ret void
}

; The same through a byval pointer (OpenCL.jl, AMDGPU.jl style), reading
; fields at byte offsets; the result goes to dest[i] += x + y.
define void @add_1d_byval(ptr byval(%Bc1) align 8 %bc, %Array1 %dest) {
entry:
  %len = extractvalue %Array1 %dest, 3
  %data = extractvalue %Array1 %dest, 0
  %x = load %Extruded1, ptr %bc, align 8
  %y.addr = getelementptr inbounds %Bc1, ptr %bc, i64 0, i32 0, i64 1
  %y = load %Extruded1, ptr %y.addr, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %exit
body:
  %xv = call float @extruded1(%Extruded1 %x, i64 %i)
  %yv = call float @extruded1(%Extruded1 %y, i64 %i)
  %sum = fadd float %xv, %yv
  %addr = getelementptr inbounds float, ptr %data, i64 %i
  %old = load float, ptr %addr, align 4
  %new = fadd float %old, %sum
  store float %new, ptr %addr, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

; byref (AMDGPU kernarg style): copies the whole closure with memcpy first.
define void @scale_byref(ptr byref(%Bc1) align 8 %bc, %Array1 %dest) {
entry:
  %copy = alloca %Bc1, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %copy, ptr align 8 %bc, i64 104, i1 false)
  %len = extractvalue %Array1 %dest, 3
  %data = extractvalue %Array1 %dest, 0
  %x = load %Extruded1, ptr %copy, align 8
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %exit
body:
  %xv = call float @extruded1(%Extruded1 %x, i64 %i)
  %scaled = fmul float %xv, 3.0
  %addr = getelementptr inbounds float, ptr %data, i64 %i
  store float %scaled, ptr %addr, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

; 2-D broadcast, the Broadcasted spilled to a stack slot and read through GEPs.
define internal float @extruded2(ptr %bc, i64 %k, i64 %r, i64 %c) {
  %keep.r.addr = getelementptr inbounds %Bc2, ptr %bc, i64 0, i32 0, i64 %k, i32 1, i64 0
  %keep.r = load i8, ptr %keep.r.addr, align 1
  %keep.c.addr = getelementptr inbounds %Bc2, ptr %bc, i64 0, i32 0, i64 %k, i32 1, i64 1
  %keep.c = load i8, ptr %keep.c.addr, align 1
  %def.r.addr = getelementptr inbounds %Bc2, ptr %bc, i64 0, i32 0, i64 %k, i32 2, i64 0
  %def.r = load i64, ptr %def.r.addr, align 8
  %def.c.addr = getelementptr inbounds %Bc2, ptr %bc, i64 0, i32 0, i64 %k, i32 2, i64 1
  %def.c = load i64, ptr %def.c.addr, align 8
  %kept.r = icmp ne i8 %keep.r, 0
  %def.r0 = add i64 %def.r, -1
  %rr = select i1 %kept.r, i64 %r, i64 %def.r0
  %kept.c = icmp ne i8 %keep.c, 0
  %def.c0 = add i64 %def.c, -1
  %cc = select i1 %kept.c, i64 %c, i64 %def.c0
  %dim0.addr = getelementptr inbounds %Bc2, ptr %bc, i64 0, i32 0, i64 %k, i32 0, i32 2, i64 0
  %dim0 = load i64, ptr %dim0.addr, align 8
  %colstart = mul i64 %cc, %dim0
  %lin = add i64 %colstart, %rr
  %data.addr = getelementptr inbounds %Bc2, ptr %bc, i64 0, i32 0, i64 %k, i32 0, i32 0
  %data = load ptr, ptr %data.addr, align 8
  %elt.addr = getelementptr inbounds float, ptr %data, i64 %lin
  %elt = load float, ptr %elt.addr, align 4
  ret float %elt
}

define void @add_2d({ ptr, i32 } %state, %Array2 %dest, %Bc2 %bc) {
entry:
  %slot = alloca %Bc2, align 8
  store %Bc2 %bc, ptr %slot, align 8
  %len = extractvalue %Array2 %dest, 3
  %data = extractvalue %Array2 %dest, 0
  %rows = extractvalue %Bc2 %bc, 1, 0, 0
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %exit
body:
  %r = urem i64 %i, %rows
  %c = udiv i64 %i, %rows
  %xv = call float @extruded2(ptr %slot, i64 0, i64 %r, i64 %c)
  %yv = call float @extruded2(ptr %slot, i64 1, i64 %r, i64 %c)
  %sum = fadd float %xv, %yv
  %addr = getelementptr inbounds float, ptr %data, i64 %i
  store float %sum, ptr %addr, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

; dest .= -b .- b
define void @neg_sub({ ptr, i32 } %state, %Array1 %dest, %NegSub %bc) {
entry:
  %len = extractvalue %Array1 %dest, 3
  %data = extractvalue %Array1 %dest, 0
  %b1 = extractvalue %NegSub %bc, 0, 0, 0, 0
  %b2 = extractvalue %NegSub %bc, 0, 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %exit
body:
  %v1 = call float @extruded1(%Extruded1 %b1, i64 %i)
  %neg = fneg float %v1
  %v2 = call float @extruded1(%Extruded1 %b2, i64 %i)
  %diff = fsub float %neg, %v2
  %addr = getelementptr inbounds float, ptr %data, i64 %i
  store float %diff, ptr %addr, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

; KernelAbstractions z .= x .* y over the ndrange in the CompilerMetadata.
define void @ka_mul({ ptr, i32 } %state, %CompilerMetadata %ctx, %Array1 %z, %Array1 %x, %Array1 %y) {
entry:
  %n = extractvalue %CompilerMetadata %ctx, 0, 0, 0, 0
  %zd = extractvalue %Array1 %z, 0
  %xd = extractvalue %Array1 %x, 0
  %yd = extractvalue %Array1 %y, 0
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %xa = getelementptr inbounds float, ptr %xd, i64 %i
  %xv = load float, ptr %xa, align 4
  %ya = getelementptr inbounds float, ptr %yd, i64 %i
  %yv = load float, ptr %ya, align 4
  %p = fmul float %xv, %yv
  %za = getelementptr inbounds float, ptr %zd, i64 %i
  store float %p, ptr %za, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

; dest .= Dual.(x, b)
define void @dual({ ptr, i32 } %state, %Array1 %dest, %DualBc %bc) {
entry:
  %len = extractvalue %Array1 %dest, 3
  %data = extractvalue %Array1 %dest, 0
  %x = extractvalue %DualBc %bc, 0, 0
  %flag = extractvalue %DualBc %bc, 0, 1
  %flag1 = and i8 %flag, 1
  %partial = uitofp i8 %flag1 to float
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %more = icmp slt i64 %i, %len
  br i1 %more, label %body, label %exit
body:
  %xv = call float @extruded1(%Extruded1 %x, i64 %i)
  %d.0 = insertvalue %Dual poison, float %xv, 0
  %d = insertvalue %Dual %d.0, float %partial, 1, 0
  %addr = getelementptr inbounds %Dual, ptr %data, i64 %i
  store %Dual %d, ptr %addr, align 4
  %i.next = add i64 %i, 1
  br label %loop
exit:
  ret void
}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5, !6}
!0 = !{ptr @add_1d, !"kernel", i32 1}
!1 = !{ptr @add_1d_byval, !"kernel", i32 1}
!2 = !{ptr @scale_byref, !"kernel", i32 1}
!3 = !{ptr @add_2d, !"kernel", i32 1}
!4 = !{ptr @neg_sub, !"kernel", i32 1}
!5 = !{ptr @ka_mul, !"kernel", i32 1}
!6 = !{ptr @dual, !"kernel", i32 1}
