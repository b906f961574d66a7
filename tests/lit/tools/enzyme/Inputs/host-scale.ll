; A host function to differentiate: y[i] = a * x[i] for i < n, returns a*a.
define double @julia_scale(ptr noalias %y, ptr noalias readonly %x, double %a, i64 %n) #0 {
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %xp = getelementptr inbounds double, ptr %x, i64 %i
  %xv = load double, ptr %xp, align 8
  %v = fmul double %a, %xv
  %yp = getelementptr inbounds double, ptr %y, i64 %i
  store double %v, ptr %yp, align 8
  %i.next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  %r = fmul double %a, %a
  ret double %r
}

attributes #0 = { nounwind "frame-pointer"="all" }
