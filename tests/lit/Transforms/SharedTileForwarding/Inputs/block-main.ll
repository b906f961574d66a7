; block-emulation.test's main: both kernels to the emulator, its status out.
declare i32 @emulate_blocks(ptr, ptr)

define i32 @main() {
  %r = call i32 @emulate_blocks(ptr @tiled_original, ptr @tiled_forwarded)
  ret i32 %r
}
