; ir-sanitize-warp-rules: each shuffle of floats becomes a call to a helper
; (the constant operands part of it, the others passed) whose rules are
; registered for Enzyme; the reverse rule of down is a shuffle up, of bfly
; a bfly, of idx (or a b that is an argument, behind a run-time test) a
; gather from every lane; a Float16 shuffled as a zero-extended word is
; one shuffle of the half; votes, masks and integer shuffles are inactive.
; RUN: opt -load-pass-plugin=%plugin -passes=ir-sanitize-warp-rules -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: opt -passes=verify -disable-output %t.ll
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @__enzyme_register_derivative___irs_shfl_down_f32_m4294967295_b16_c31 = global [2 x ptr] [ptr @__irs_shfl_down_f32_m4294967295_b16_c31, ptr @__irs_shfl_down_f32_m4294967295_b16_c31_fwd]
; CHECK: @__enzyme_register_gradient___irs_shfl_down_f32_m4294967295_b16_c31 = global [3 x ptr] [ptr @__irs_shfl_down_f32_m4294967295_b16_c31, ptr @__irs_shfl_down_f32_m4294967295_b16_c31_aug, ptr @__irs_shfl_down_f32_m4294967295_b16_c31_rev]

define float @f(float %v, half %h, i32 %b, i32 %n) {
; CHECK-LABEL: define float @f(
; CHECK-NEXT: call float @__irs_shfl_down_f32_m4294967295_b16_c31(float %v) #[[CONV:[0-9]+]]
; CHECK-NEXT: call float @__irs_shfl_bfly_f32_m4294967295_b1_c31(float %v)
; CHECK-NEXT: call float @__irs_shfl_idx_f32_m65535_c31(float %v, i32 %b)
; CHECK-NEXT: call half @__irs_shfl_up_f16_m4294967295_b2_c0(half %h)
; CHECK-NEXT: %m = call "enzyme_type"="{[-1]:Integer}" i32 @llvm.nvvm.activemask() #[[INACTIVE:[0-9]+]]
; CHECK-NEXT: %ballot = call "enzyme_type"="{[-1]:Integer}" i32 @llvm.nvvm.vote.ballot.sync(i32 %m, i1 true) #[[INACTIVE]]
; CHECK-NEXT: %k = call "enzyme_type"="{[-1]:Integer}" i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %m, i32 %n, i32 0, i32 31) #[[INACTIVE]]
  %d = call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %v, i32 16, i32 31)
  %x = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v, i32 1, i32 31)
  %i = call float @llvm.nvvm.shfl.sync.idx.f32(i32 65535, float %v, i32 %b, i32 31)
  %hb = bitcast half %h to i16
  %hw = zext i16 %hb to i32
  %hs = call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %hw, i32 2, i32 0)
  %ht = trunc i32 %hs to i16
  %hr = bitcast i16 %ht to half
  %m = call i32 @llvm.nvvm.activemask()
  %ballot = call i32 @llvm.nvvm.vote.ballot.sync(i32 %m, i1 true)
  %k = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %m, i32 %n, i32 0, i32 31)
  %hf = fpext half %hr to float
  %s1 = fadd float %d, %x
  %s2 = fadd float %s1, %i
  %s3 = fadd float %s2, %hf
  ret float %s3
}

; The half as one zero-extended word (word groups are rewritten first).
; CHECK-LABEL: define internal half @__irs_shfl_up_f16_m4294967295_b2_c0(half %0)
; CHECK: zext i16 %{{[0-9]+}} to i32
; CHECK: call i32 @llvm.nvvm.shfl.sync.up.i32(i32 -1, i32 %{{[0-9]+}}, i32 2, i32 0)
; CHECK-LABEL: define internal { half } @__irs_shfl_up_f16_m4294967295_b2_c0_rev(
; CHECK: call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %{{[0-9]+}}, i32 2, i32 31)
; The helper and its rules; Enzyme must see the call: noinline.
; CHECK: define internal float @__irs_shfl_down_f32_m4294967295_b16_c31(float %0) #[[HELPER:[0-9]+]]
; CHECK-NEXT: entry:
; CHECK-NEXT: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %0, i32 16, i32 31)
; Forward: the tangent shuffled alike.
; CHECK-LABEL: define internal { float, float } @__irs_shfl_down_f32_m4294967295_b16_c31_fwd(float %0, float %1)
; CHECK: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %0, i32 16, i32 31)
; CHECK: call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %1, i32 16, i32 31)
; Reverse: the adjoint of a lane that read from another goes back up to it.
; CHECK-LABEL: define internal { float } @__irs_shfl_down_f32_m4294967295_b16_c31_rev(float %0, float %1)
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %{{[0-9]+}}, i32 16, i32 0)
; CHECK-LABEL: define internal { float } @__irs_shfl_bfly_f32_m4294967295_b1_c31_rev(
; CHECK: call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %{{[0-9]+}}, i32 1, i32 31)
; idx: every lane gathers from the 31 others, the adjoints and where they
; read from; b passed twice to the rules (value and shadow).
; CHECK-LABEL: define internal { float } @__irs_shfl_idx_f32_m65535_c31_rev(float %0, i32 %1, i32 %2, float %3)
; CHECK: gather:
; CHECK: call float @llvm.nvvm.shfl.sync.bfly.f32(i32 65535,
; CHECK: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 65535,
; CHECK-DAG: attributes #[[CONV]] = { convergent }
; CHECK-DAG: attributes #[[INACTIVE]] = { "enzyme_inactive" }
; CHECK-DAG: attributes #[[HELPER]] = { convergent noinline nounwind }

declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.up.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
