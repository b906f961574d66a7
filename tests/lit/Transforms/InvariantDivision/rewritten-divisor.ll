; InvariantDivision divides by the quotient of a division it rewrites in the
; same run: loop 1 computes q = x / d (d invariant), a later or inner loop
; divides by q (invariant there). Before the fix the reciprocal was looked up
; by the divisor the later division had once the earlier rewrite had replaced
; q, found nothing, and the pass crashed on a null reciprocal. Variants: 32
; and 64 bits, a chain of three loops, nested loops, remainders, signed
; operations on non-negative operands, a quotient divided by another. The
; input program is the reference: lli prints every function's result before
; and after the pass; a second run changes nothing.
; RUN: lli %s > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-invariant-division -S %s -o %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: lli %t.ll | diff %t.want -
; RUN: FileCheck %s < %t.ll
; RUN: opt -S %t.ll | grep -v '^; ModuleID' > %t.once
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-invariant-division -S %t.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.once %t.twice

; Every division and remainder of the kernels is gone (32 bits) or kept only
; on the path for operands that do not fit 32 bits (64 bits, marked).
; CHECK-LABEL: define i32 @two_loops32(
; CHECK-NOT:   {{[us](div|rem) i32}}
; CHECK:       ret i32
define i32 @two_loops32(i32 %n0, i32 %d, i32 %count) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i.next, %l1 ]
  %x = add i32 %n0, %i
  %xo = or i32 %x, %d
  %q = udiv i32 %xo, %d
  %i.next = add i32 %i, 1
  %d1 = icmp eq i32 %i.next, %count
  br i1 %d1, label %l2, label %l1
l2:
  %j = phi i32 [ 0, %l1 ], [ %j.next, %l2 ]
  %acc = phi i32 [ %q, %l1 ], [ %acc.next, %l2 ]
  %n = mul i32 %j, 7919
  %a = udiv i32 %n, %q
  %b = urem i32 %n, %q
  %h = mul i32 %acc, 31
  %s = add i32 %h, %a
  %acc.next = xor i32 %s, %b
  %j.next = add i32 %j, 1
  %d2 = icmp eq i32 %j.next, %count
  br i1 %d2, label %exit, label %l2
exit:
  ret i32 %acc.next
}

; CHECK-LABEL: define i64 @two_loops64(
; CHECK-NOT:   udiv i64 {{.*}}, %q{{$}}
; CHECK:       udiv i64 %n, %div.q{{[0-9]*}}, !irs.wide_division
; CHECK:       ret i64
define i64 @two_loops64(i64 %n0, i64 %d, i64 %count) {
entry:
  br label %l1
l1:
  %i = phi i64 [ 0, %entry ], [ %i.next, %l1 ]
  %x = mul i64 %n0, %i
  %xo = or i64 %x, %d
  %q = udiv i64 %xo, %d
  %i.next = add i64 %i, 1
  %d1 = icmp eq i64 %i.next, %count
  br i1 %d1, label %l2, label %l1
l2:
  %j = phi i64 [ 0, %l1 ], [ %j.next, %l2 ]
  %acc = phi i64 [ 0, %l1 ], [ %acc.next, %l2 ]
  %n = mul i64 %j, 1099511627791
  %a = udiv i64 %n, %q
  %b = urem i64 %n, %q
  %h = mul i64 %acc, 31
  %s = add i64 %h, %a
  %acc.next = xor i64 %s, %b
  %j.next = add i64 %j, 1
  %d2 = icmp eq i64 %j.next, %count
  br i1 %d2, label %exit, label %l2
exit:
  ret i64 %acc.next
}

; q1 = x / d in loop 1, q2 = y / q1 in loop 2, z % q2 and z / q2 / q1 in
; loop 3: each divisor is a rewritten division.
; CHECK-LABEL: define i32 @chain32(
; CHECK-NOT:   {{[us](div|rem) i32}}
; CHECK:       ret i32
define i32 @chain32(i32 %n0, i32 %d, i32 %count) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i.next, %l1 ]
  %x = add i32 %n0, %i
  %xo = or i32 %x, %d
  %q1 = udiv i32 %xo, %d
  %i.next = add i32 %i, 1
  %d1 = icmp eq i32 %i.next, %count
  br i1 %d1, label %l2, label %l1
l2:
  %j = phi i32 [ 0, %l1 ], [ %j.next, %l2 ]
  %y = mul i32 %j, 65599
  %yo = or i32 %y, %q1
  %q2 = udiv i32 %yo, %q1
  %j.next = add i32 %j, 1
  %d2 = icmp eq i32 %j.next, %count
  br i1 %d2, label %l3, label %l2
l3:
  %k = phi i32 [ 0, %l2 ], [ %k.next, %l3 ]
  %acc = phi i32 [ 0, %l2 ], [ %acc.next, %l3 ]
  %z = mul i32 %k, 40503
  %r = urem i32 %z, %q2
  %t = udiv i32 %z, %q2
  %u = udiv i32 %t, %q1
  %h = mul i32 %acc, 31
  %s = add i32 %h, %r
  %acc.next = add i32 %s, %u
  %k.next = add i32 %k, 1
  %d3 = icmp eq i32 %k.next, %count
  br i1 %d3, label %exit, label %l3
exit:
  ret i32 %acc.next
}

; The outer loop's quotient divides in the inner loop, whose reciprocal is
; computed in the outer loop's block that holds the quotient.
; CHECK-LABEL: define i64 @nested64(
; CHECK:       ret i64
define i64 @nested64(i64 %n0, i64 %d, i64 %count) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi i64 [ 0, %entry ], [ %acc.inner, %outer.latch ]
  %x = add i64 %n0, %i
  %xo = or i64 %x, %d
  %q = udiv i64 %xo, %d
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %acc.j = phi i64 [ %acc, %outer ], [ %acc.inner, %inner ]
  %n = mul i64 %j, 4294967311
  %a = udiv i64 %n, %q
  %b = urem i64 %n, %q
  %h = mul i64 %acc.j, 31
  %s = add i64 %h, %a
  %acc.inner = xor i64 %s, %b
  %j.next = add i64 %j, 1
  %jd = icmp eq i64 %j.next, %count
  br i1 %jd, label %outer.latch, label %inner
outer.latch:
  %i.next = add i64 %i, 1
  %id = icmp eq i64 %i.next, %count
  br i1 %id, label %exit, label %outer
exit:
  ret i64 %acc.inner
}

; CHECK-LABEL: define i32 @nested32(
; CHECK-NOT:   {{[us](div|rem) i32}}
; CHECK:       ret i32
define i32 @nested32(i32 %n0, i32 %d, i32 %count) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi i32 [ 0, %entry ], [ %acc.inner, %outer.latch ]
  %x = add i32 %n0, %i
  %r0 = urem i32 %x, %d
  %ro = or i32 %r0, 1
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %acc.j = phi i32 [ %acc, %outer ], [ %acc.inner, %inner ]
  %n = mul i32 %j, 7919
  %a = udiv i32 %n, %ro
  %h = mul i32 %acc.j, 31
  %acc.inner = add i32 %h, %a
  %j.next = add i32 %j, 1
  %jd = icmp eq i32 %j.next, %count
  br i1 %jd, label %outer.latch, label %inner
outer.latch:
  %i.next = add i32 %i, 1
  %id = icmp eq i32 %i.next, %count
  br i1 %id, label %exit, label %outer
exit:
  ret i32 %acc.inner
}

; Signed division and remainder of non-negative operands by a signed
; quotient of non-negative operands.
; CHECK-LABEL: define i32 @signed32(
; CHECK-NOT:   {{[us](div|rem) i32}}
; CHECK:       ret i32
define i32 @signed32(i32 %n0, i32 %dd, i32 %count) {
entry:
  %d = lshr i32 %dd, 1
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i.next, %l1 ]
  %x = add i32 %n0, %i
  %xh = lshr i32 %x, 1
  %xo = or i32 %xh, %d
  %q = sdiv i32 %xo, %d
  %i.next = add i32 %i, 1
  %d1 = icmp eq i32 %i.next, %count
  br i1 %d1, label %l2, label %l1
l2:
  %j = phi i32 [ 0, %l1 ], [ %j.next, %l2 ]
  %acc = phi i32 [ 0, %l1 ], [ %acc.next, %l2 ]
  %jn = mul i32 %j, 7919
  %n = lshr i32 %jn, 1
  %a = sdiv i32 %n, %q
  %b = srem i32 %n, %q
  %h = mul i32 %acc, 31
  %s = add i32 %h, %a
  %acc.next = xor i32 %s, %b
  %j.next = add i32 %j, 1
  %d2 = icmp eq i32 %j.next, %count
  br i1 %d2, label %exit, label %l2
exit:
  ret i32 %acc.next
}

; A quotient (rewritten) divided by another (rewritten in an earlier
; loop), whose own quotient, defined in the loop, then stays a divisor.
; CHECK-LABEL: define i32 @quotient_by_quotient32(
; CHECK-NOT:   {{[us](div|rem) i32}}
; CHECK:       %jq = udiv i32 %j, %div.q
; CHECK-NOT:   {{[us](div|rem) i32}}
; CHECK:       ret i32
define i32 @quotient_by_quotient32(i32 %n0, i32 %d, i32 %count) {
entry:
  br label %l1
l1:
  %i = phi i32 [ 0, %entry ], [ %i.next, %l1 ]
  %x = add i32 %n0, %i
  %xo = or i32 %x, %d
  %q = udiv i32 %xo, %d
  %r = urem i32 %xo, %d
  %p = mul i32 %x, 3
  %po = or i32 %p, %q
  %i.next = add i32 %i, 1
  %d1 = icmp eq i32 %i.next, %count
  br i1 %d1, label %l2, label %l1
l2:
  %j = phi i32 [ 0, %l1 ], [ %j.next, %l2 ]
  %acc = phi i32 [ %r, %l1 ], [ %acc.next, %l2 ]
  %pq = udiv i32 %po, %q
  %jq = udiv i32 %j, %pq
  %h = mul i32 %acc, 31
  %acc.next = add i32 %h, %jq
  %j.next = add i32 %j, 1
  %d2 = icmp eq i32 %j.next, %count
  br i1 %d2, label %exit, label %l2
exit:
  ret i32 %acc.next
}

; --- the driver: prints every result ---
@divisors = private constant [9 x i64] [
  i64 1, i64 2, i64 3, i64 7, i64 641, i64 65536, i64 4294967295,
  i64 4294967297, i64 1099511627779]
@numerators = private constant [5 x i64] [
  i64 0, i64 5, i64 4294967290, i64 12884901888, i64 1099511627783]
@fmt = private constant [38 x i8] c"%u %llu %u %llu %u %u %u | %llu %llu\0A\00"
@dv = global i64 0
@nv = global i64 0

declare i32 @printf(ptr, ...)

define i32 @main() {
entry:
  br label %outer
outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %inner.done ]
  %pd = getelementptr i64, ptr @divisors, i64 %j
  %dc = load i64, ptr %pd
  store volatile i64 %dc, ptr @dv
  br label %inner
inner:
  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]
  %pn = getelementptr i64, ptr @numerators, i64 %k
  %nc = load i64, ptr %pn
  store volatile i64 %nc, ptr @nv
  %d = load volatile i64, ptr @dv
  %n = load volatile i64, ptr @nv
  %n32 = trunc i64 %n to i32
  %d32t = trunc i64 %d to i32
  %d32z = icmp ult i32 %d32t, 2
  %d32 = select i1 %d32z, i32 3, i32 %d32t
  %a = call i32 @two_loops32(i32 %n32, i32 %d32, i32 9)
  %b = call i64 @two_loops64(i64 %n, i64 %d, i64 9)
  %c = call i32 @chain32(i32 %n32, i32 %d32, i32 9)
  %e = call i64 @nested64(i64 %n, i64 %d, i64 5)
  %f = call i32 @nested32(i32 %n32, i32 %d32, i32 5)
  %g = call i32 @signed32(i32 %n32, i32 %d32, i32 9)
  %h = call i32 @quotient_by_quotient32(i32 %n32, i32 %d32, i32 9)
  %x = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i64 %b, i32 %c, i64 %e, i32 %f, i32 %g, i32 %h, i64 %d, i64 %n)
  %k.next = add i64 %k, 1
  %k.done = icmp eq i64 %k.next, 5
  br i1 %k.done, label %inner.done, label %inner
inner.done:
  %j.next = add i64 %j, 1
  %j.done = icmp eq i64 %j.next, 9
  br i1 %j.done, label %exit, label %outer
exit:
  ret i32 0
}
