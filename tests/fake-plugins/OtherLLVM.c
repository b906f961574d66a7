/* Exports the plugin entry point but links libLLVM.so.<other major>: a
   plugin built for an LLVM that is not the one ir-sanitize uses. The call
   keeps the linker from dropping that dependency as unused. */
int irs_not_a_plugin(void);
void *llvmGetPassPluginInfo(void) { return (void *)(long)irs_not_a_plugin(); }
