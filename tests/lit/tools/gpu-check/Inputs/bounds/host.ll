; A host function: no triple and nothing NVPTX.
define void @f(ptr %p) {
  store i32 0, ptr %p
  ret void
}
