; warp-emulation.test's main: the kernels to the emulator, its status out.
declare i32 @emulate(ptr, ptr, ptr, ptr)

define i32 @main() {
  %r = call i32 @emulate(ptr @gather_i32, ptr @gather_f64, ptr @uniform_f32, ptr @broadcast_2d_i32)
  ret i32 %r
}
