# Instrumentation for the sanitizer build (IRS_SANITIZE) and the fuzz build
# (IRS_ENABLE_FUZZING). Only ir-sanitize's own code is instrumented: Debian's
# libLLVM.so and an Enzyme plugin stay as they are (ASan still sees their
# heap through its malloc interceptors).
set(IRS_SANITIZER_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
  # Every UBSan finding is an error, not a line on stderr that tests ignore.
  -fno-sanitize-recover=all
  # The vptr check needs RTTI, which LLVM (and so ir-sanitize) is built without.
  -fno-sanitize=vptr)

if(IRS_SANITIZE OR IRS_ENABLE_FUZZING)
  add_compile_options(${IRS_SANITIZER_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()

if(IRS_ENABLE_FUZZING)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "IRS_ENABLE_FUZZING needs clang (libFuzzer): configure "
      "with -DCMAKE_CXX_COMPILER=clang++-${IRS_LLVM_VERSION} -DCMAKE_C_COMPILER=clang-${IRS_LLVM_VERSION}")
  endif()
  # Coverage feedback everywhere; only the fuzz targets link libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# Tests run opt (uninstrumented) with IRSanitize.so (instrumented) loaded
# into it: the ASan runtime must then be preloaded, one shared copy for all.
# GCC links it shared by default; clang must be told to.
set(IRS_ASAN_RUNTIME "")
if(IRS_SANITIZE)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options(-shared-libasan)
    add_link_options(-shared-libasan)
    set(IRS_ASAN_RUNTIME_NAME libclang_rt.asan-x86_64.so)
  else()
    set(IRS_ASAN_RUNTIME_NAME libasan.so)
  endif()
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${IRS_ASAN_RUNTIME_NAME}
    OUTPUT_VARIABLE IRS_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  # clang's shared runtime is outside the loader's path: executables run
  # without LD_PRELOAD (the unit-test listing at build time, the stress
  # drivers) find it through their run path.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    get_filename_component(IRS_ASAN_RUNTIME_DIR ${IRS_ASAN_RUNTIME} DIRECTORY)
    add_link_options(-Wl,-rpath,${IRS_ASAN_RUNTIME_DIR})
  endif()
  message(STATUS "ir-sanitize: ASan+UBSan build; runtime ${IRS_ASAN_RUNTIME}")
endif()
# Why these: halt at the first report; catch use-after-return and static
# initialisation order too. Leaks are checked only in ir-sanitize's own
# processes (unit tests, the tool in the stress test): under lit the
# runtime is preloaded into opt, FileCheck and python, whose deliberate
# exit-time leaks are not ours. UBSan prints the stack of each finding.
set(IRS_ASAN_OPTIONS "halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1")
set(IRS_UBSAN_OPTIONS "print_stacktrace=1:halt_on_error=1")
