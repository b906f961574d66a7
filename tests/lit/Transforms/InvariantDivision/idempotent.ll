; InvariantDivision is idempotent: a second run changes nothing; the division a 64-bit rewrite keeps for operands that do not fit 32
; bits is not rewritten again.
; The input: the functions of the pass's main test. The second run's output
; is compared with the first's as opt prints it back (block predecessor
; lists and other printing details follow the use lists that reading sets).
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-invariant-division' -S %s -o %t.once.ll
; RUN: FileCheck %s --check-prefix=ONCE < %t.once.ll
; RUN: opt -S %t.once.ll | grep -v '^; ModuleID' > %t.want
; RUN: opt -load-pass-plugin=%plugin -passes='ir-sanitize-invariant-division' -S %t.once.ll \
; RUN:   | grep -v '^; ModuleID' > %t.twice
; RUN: diff %t.want %t.twice
; ONCE: %div.m = trunc

define void @div64(ptr %n, ptr %q, ptr %r, i64 %count, i64 %d) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pn = getelementptr i64, ptr %n, i64 %i
  %nv = load i64, ptr %pn
  %rem = urem i64 %nv, %d
  %div = udiv i64 %nv, %d
  %pq = getelementptr i64, ptr %q, i64 %i
  store i64 %div, ptr %pq
  %pr = getelementptr i64, ptr %r, i64 %i
  store i64 %rem, ptr %pr
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @div32(ptr %n, ptr %q, ptr %r, i64 %count, i32 %d) {
entry:
  %empty = icmp eq i64 %count, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pn = getelementptr i64, ptr %n, i64 %i
  %wide = load i64, ptr %pn
  %nv = trunc i64 %wide to i32
  %div = udiv i32 %nv, %d
  %rem = urem i32 %nv, %d
  %pq = getelementptr i64, ptr %q, i64 %i
  %divw = zext i32 %div to i64
  store i64 %divw, ptr %pq
  %pr = getelementptr i64, ptr %r, i64 %i
  %remw = zext i32 %rem to i64
  store i64 %remw, ptr %pr
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @srem_nonneg(ptr %n, ptr %q, ptr %r, i64 %count, i64 %dd) {
entry:
  %d = lshr i64 %dd, 1
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %pn = getelementptr i64, ptr %n, i64 %i
  %wide = load i64, ptr %pn
  %nv = lshr i64 %wide, 1
  %rem = srem i64 %nv, %d
  %pr = getelementptr i64, ptr %r, i64 %i
  store i64 %rem, ptr %pr
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define void @nest(ptr %p, i64 %n, i64 %x, i64 %count) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %q = udiv i64 %i, %x
  %d = add i64 %q, 1
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %r = udiv i64 %j, %d
  %pj = getelementptr i64, ptr %p, i64 %j
  store i64 %r, ptr %pj
  %j.next = add i64 %j, 1
  %jd = icmp eq i64 %j.next, %n
  br i1 %jd, label %outer.latch, label %inner
outer.latch:
  %i.next = add i64 %i, 1
  %id = icmp eq i64 %i.next, %count
  br i1 %id, label %exit, label %outer
exit:
  ret void
}

define i64 @untouched(ptr %p, i64 %count, i64 %d, i64 %a) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %pv = getelementptr i64, ptr %p, i64 %i
  %x = load i64, ptr %pv
  %v = add i64 %i, 1
  %c = udiv i64 %x, 7
  %w = udiv i64 %x, %v
  %s = sdiv i64 %x, %d
  %t1 = add i64 %c, %w
  %t2 = add i64 %t1, %s
  %acc.next = add i64 %acc, %t2
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %count
  br i1 %done, label %exit, label %loop
exit:
  %out = udiv i64 %a, %d
  %res = add i64 %acc.next, %out
  ret i64 %res
}

@divisors = private constant [30 x i64] [
  i64 1, i64 2, i64 3, i64 5, i64 6, i64 7, i64 10, i64 11, i64 13, i64 100,
  i64 641, i64 1023, i64 1024, i64 1025, i64 65535, i64 65536, i64 65537,
  i64 1000000007, i64 2147483647, i64 2147483648, i64 2147483649,
  i64 3000000000, i64 4294967294, i64 4294967295, i64 4294967296,
  i64 4294967297, i64 1099511627779, i64 9223372036854775813,
  i64 18446744073709551615, i64 12345]
@quotients = private constant [24 x i64] [
  i64 0, i64 1, i64 2, i64 3, i64 4, i64 5, i64 7, i64 15, i64 16, i64 17,
  i64 255, i64 256, i64 65535, i64 65536, i64 1048577, i64 2147483647,
  i64 2147483648, i64 4294967295, i64 4294967296, i64 123456789,
  i64 987654321, i64 3735928559, i64 1, i64 0]
@extra = private constant [8 x i64] [
  i64 4294967295, i64 4294967294, i64 4294967296, i64 4294967297,
  i64 2147483648, i64 18446744073709551615, i64 9223372036854775808,
  i64 3141592653]

define void @fill(ptr %n, i64 %d) {
entry:
  br label %q
q:
  %k = phi i64 [ 0, %entry ], [ %k.next, %q ]
  %pq = getelementptr i64, ptr @quotients, i64 %k
  %qv = load i64, ptr %pq
  %m = mul i64 %qv, %d
  %lo = sub i64 %m, 1
  %hi = add i64 %m, 1
  %base = mul i64 %k, 3
  %p0 = getelementptr i64, ptr %n, i64 %base
  store i64 %lo, ptr %p0
  %p1 = getelementptr i64, ptr %p0, i64 1
  store i64 %m, ptr %p1
  %p2 = getelementptr i64, ptr %p0, i64 2
  store i64 %hi, ptr %p2
  %k.next = add i64 %k, 1
  %qdone = icmp eq i64 %k.next, 24
  br i1 %qdone, label %e, label %q
e:
  %j = phi i64 [ 0, %q ], [ %j.next, %e ]
  %pe = getelementptr i64, ptr @extra, i64 %j
  %ev = load i64, ptr %pe
  %at = add i64 %j, 72
  %pd = getelementptr i64, ptr %n, i64 %at
  store i64 %ev, ptr %pd
  %j.next = add i64 %j, 1
  %edone = icmp eq i64 %j.next, 8
  br i1 %edone, label %done, label %e
done:
  ret void
}

define i64 @wrong(ptr %dp) {
entry:
  %n = alloca [80 x i64]
  %q = alloca [80 x i64]
  %r = alloca [80 x i64]
  %q32 = alloca [80 x i64]
  %r32 = alloca [80 x i64]
  %rs = alloca [80 x i64]
  %d = load i64, ptr %dp
  call void @fill(ptr %n, i64 %d)
  call void @div64(ptr %n, ptr %q, ptr %r, i64 80, i64 %d)
  %d32 = trunc i64 %d to i32
  %d32ok = icmp ne i32 %d32, 0
  %d32s = select i1 %d32ok, i32 %d32, i32 1
  call void @div32(ptr %n, ptr %q32, ptr %r32, i64 80, i32 %d32s)
  %dd = shl i64 %d, 1
  call void @srem_nonneg(ptr %n, ptr %q, ptr %rs, i64 80, i64 %dd)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %bad = phi i64 [ 0, %entry ], [ %bad.next, %loop ]
  %dv = load volatile i64, ptr %dp
  %pn = getelementptr i64, ptr %n, i64 %i
  %nv = load i64, ptr %pn
  %eq = udiv i64 %nv, %dv
  %er = urem i64 %nv, %dv
  %pq = getelementptr i64, ptr %q, i64 %i
  %gq = load i64, ptr %pq
  %pr = getelementptr i64, ptr %r, i64 %i
  %gr = load i64, ptr %pr
  %b1 = icmp ne i64 %gq, %eq
  %b2 = icmp ne i64 %gr, %er
  %dv32w = trunc i64 %dv to i32
  %dv32ok = icmp ne i32 %dv32w, 0
  %dv32 = select i1 %dv32ok, i32 %dv32w, i32 1
  %n32 = trunc i64 %nv to i32
  %eq32 = udiv i32 %n32, %dv32
  %er32 = urem i32 %n32, %dv32
  %pq32 = getelementptr i64, ptr %q32, i64 %i
  %gq32 = load i64, ptr %pq32
  %pr32 = getelementptr i64, ptr %r32, i64 %i
  %gr32 = load i64, ptr %pr32
  %eq32w = zext i32 %eq32 to i64
  %er32w = zext i32 %er32 to i64
  %b3 = icmp ne i64 %gq32, %eq32w
  %b4 = icmp ne i64 %gr32, %er32w
  %nh = lshr i64 %nv, 1
  %dv2 = shl i64 %dv, 1
  %dvh = lshr i64 %dv2, 1
  %es = urem i64 %nh, %dvh
  %ps = getelementptr i64, ptr %rs, i64 %i
  %gs = load i64, ptr %ps
  %b5 = icmp ne i64 %gs, %es
  %x1 = or i1 %b1, %b2
  %x2 = or i1 %b3, %b4
  %x3 = or i1 %x1, %x2
  %x4 = or i1 %x3, %b5
  %inc = zext i1 %x4 to i64
  %bad.next = add i64 %bad, %inc
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, 80
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %bad.next
}

define i32 @main() {
entry:
  br label %loop
loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %bad = phi i64 [ 0, %entry ], [ %bad.next, %loop ]
  %dp = getelementptr i64, ptr @divisors, i64 %j
  %w = call i64 @wrong(ptr %dp)
  %bad.next = add i64 %bad, %w
  %j.next = add i64 %j, 1
  %done = icmp eq i64 %j.next, 30
  br i1 %done, label %exit, label %loop
exit:
  %clamped = call i64 @llvm.umin.i64(i64 %bad.next, i64 255)
  %ret = trunc i64 %clamped to i32
  ret i32 %ret
}

declare i64 @llvm.umin.i64(i64, i64)
