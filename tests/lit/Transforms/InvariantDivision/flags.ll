; InvariantDivision never builds on a value whose flags it cannot honour: a
; remainder does not take an `exact` quotient (poison when the division is
; not exact) as its own, and results agree with the input program for
; `exact`, `nuw`/`nsw` operands and reused quotients. The input program is
; the reference: lli prints every function's result over numerators around
; 2^32 and beyond and divisors up to 2^40, before and after the pass, alone
; and followed by -O2 (which exploits the flags).
; RUN: lli %s > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-invariant-division -S %s -o %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
; RUN: lli %t.ll | diff %t.want -
; RUN: opt -O2 %t.ll | lli | diff %t.want -
; RUN: opt -O2 %s | lli | diff %t.want -
; RUN: FileCheck %s < %t.ll

; The unused `udiv exact` stays as it was; the remainder gets its own quotient.
; CHECK-LABEL: define i64 @exact_unused64(
; CHECK-NOT:   urem
; CHECK:       udiv exact i64 %n, %d
; CHECK-NOT:   urem
; CHECK:       ret i64
define i64 @exact_unused64(i64 %n0, i64 %d, i64 %count) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %n = add i64 %n0, %i
  %q = udiv exact i64 %n, %d
  %r = urem i64 %n, %d
  %h = mul i64 %acc, 31
  %acc.next = add i64 %h, %r
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

; Numerators known to need 64 bits: only the kept division's path remains
; after -O2, which folds n - (n /exact d) * d to 0 when given the exact one.
define i64 @exact_unused_wide64(i64 %n0, i64 %d, i64 %count) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %ni = add i64 %n0, %i
  %n = or i64 %ni, 4294967296
  %q = udiv exact i64 %n, %d
  %r = urem i64 %n, %d
  %h = mul i64 %acc, 31
  %acc.next = add i64 %h, %r
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

define i32 @exact_unused32(i32 %n0, i32 %d, i32 %count) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %n = add i32 %n0, %i
  %r = urem i32 %n, %d
  %q = udiv exact i32 %n, %d
  %h = mul i32 %acc, 31
  %acc.next = add i32 %h, %r
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %acc.next
}

; The exact quotient is used only where the division is exact.
define i64 @exact_used_when_exact64(i64 %n0, i64 %d, i64 %count) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %n = add i64 %n0, %i
  %r = urem i64 %n, %d
  %q = udiv exact i64 %n, %d
  %isexact = icmp eq i64 %r, 0
  %qe = select i1 %isexact, i64 %q, i64 7
  %h = mul i64 %acc, 31
  %h2 = add i64 %h, %r
  %acc.next = xor i64 %h2, %qe
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

; Signed, of non-negative operands: an `sdiv exact` beside the remainder.
define i64 @sdiv_exact64(i64 %n0, i64 %dd, i64 %count) {
entry:
  %d.m = and i64 %dd, 9223372036854775807
  %d = or i64 %d.m, 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %nn = add i64 %n0, %i
  %n = and i64 %nn, 9223372036854775807
  %q = sdiv exact i64 %n, %d
  %r = srem i64 %n, %d
  %h = mul i64 %acc, 31
  %acc.next = add i64 %h, %r
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

; A plain quotient reused by the remainder, operands and results combined
; with nuw/nsw: q * d + r rebuilds n.
define i64 @nuw_nsw64(i64 %n0, i64 %d, i64 %count) {
entry:
  %base = lshr i64 %n0, 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %n = add nuw nsw i64 %base, %i
  %q = udiv i64 %n, %d
  %r = urem i64 %n, %d
  %qd = mul nuw nsw i64 %q, %d
  %back = add nuw nsw i64 %qd, %r
  %wrong = icmp ne i64 %back, %n
  %w = zext i1 %wrong to i64
  %h = mul i64 %acc, 31
  %h2 = add i64 %h, %q
  %h3 = xor i64 %h2, %r
  %acc.next = add i64 %h3, %w
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}

; --- the driver: prints every result ---
@divisors = private constant [11 x i64] [
  i64 1, i64 2, i64 3, i64 7, i64 10, i64 641, i64 65536, i64 4294967295,
  i64 4294967296, i64 4294967297, i64 1099511627779]
@numerators = private constant [7 x i64] [
  i64 0, i64 5, i64 4294967290, i64 12884901888, i64 1099511627783,
  i64 9223372036854775819, i64 18446744073709551600]
@fmt = private constant [29 x i8] c"%llu %llu %u %llu %llu %llu\0A\00"
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
  %a = call i64 @exact_unused64(i64 %n, i64 %d, i64 8)
  %b = call i64 @exact_used_when_exact64(i64 %n, i64 %d, i64 8)
  %n32 = trunc i64 %n to i32
  %d32t = trunc i64 %d to i32
  %d32z = icmp eq i32 %d32t, 0
  %d32 = select i1 %d32z, i32 3, i32 %d32t
  %c = call i32 @exact_unused32(i32 %n32, i32 %d32, i32 8)
  %e = call i64 @sdiv_exact64(i64 %n, i64 %d, i64 8)
  %f = call i64 @nuw_nsw64(i64 %n, i64 %d, i64 8)
  %g = call i64 @exact_unused_wide64(i64 %n, i64 %d, i64 8)
  %x = call i32 (ptr, ...) @printf(ptr @fmt, i64 %a, i64 %b, i32 %c, i64 %e, i64 %f, i64 %g)
  %k.next = add i64 %k, 1
  %k.done = icmp eq i64 %k.next, 7
  br i1 %k.done, label %inner.done, label %inner
inner.done:
  %j.next = add i64 %j, 1
  %j.done = icmp eq i64 %j.next, 11
  br i1 %j.done, label %exit, label %outer
exit:
  ret i32 0
}
