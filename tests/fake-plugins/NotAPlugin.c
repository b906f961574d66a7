/* A shared library without llvmGetPassPluginInfo: not an LLVM pass plugin. */
int irs_not_a_plugin(void) { return 42; }
