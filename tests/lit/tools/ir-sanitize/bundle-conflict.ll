; --bundle given twice for one tag: two different actions are a usage error
; naming both, and nothing is written; the same action twice is one action.
; RUN: rm -f %t.out
; RUN: %inputs/expect-exit 2 %irs %s --bundle gc-transition=lower --bundle gc-transition=drop -o %t.out 2>&1 | FileCheck %s --check-prefix=CONFLICT
; RUN: not test -e %t.out
; CONFLICT: ir-sanitize: error: --bundle: tag 'gc-transition' given two actions: 'gc-transition=lower' and 'gc-transition=drop'
; The subcommands share the option.
; RUN: %inputs/expect-exit 2 %irs gpu-check %s --bundle jl_roots=keep --bundle jl_roots=stash 2>&1 | FileCheck %s --check-prefix=SUB
; SUB: ir-sanitize: error: --bundle: tag 'jl_roots' given two actions: 'jl_roots=keep' and 'jl_roots=stash'
; RUN: %irs %s -q --bundle gc-transition=drop --bundle gc-transition=drop -o - | FileCheck %s --check-prefix=SAME
; SAME-NOT: jl_gc_safe_enter
; SAME: %r = call i32 @cuStreamSynchronize(ptr %stream){{$}}
; SAME-NOT: jl_gc_safe_enter

declare i32 @cuStreamSynchronize(ptr)

define i32 @julia_sync(ptr %stream) {
top:
  %r = call i32 @cuStreamSynchronize(ptr %stream) [ "gc-transition"() ]
  ret i32 %r
}
