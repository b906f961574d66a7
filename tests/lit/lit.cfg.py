# lit configuration for ir-sanitize's golden (FileCheck) and command-line tests.
import os
import re
import subprocess
import sys
import lit.formats

config.name = "ir-sanitize"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

path = os.pathsep.join([config.irs_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path

# Sanitizer build (IRS_SANITIZE): every command gets the ASan runtime
# preloaded, so that opt can load the instrumented IRSanitize.so.
if config.asan_runtime:
    config.environment["LD_PRELOAD"] = config.asan_runtime
    config.environment["ASAN_OPTIONS"] = config.asan_options + ":detect_leaks=0"
    config.environment["UBSAN_OPTIONS"] = config.ubsan_options
    config.available_features.add("asan")

plugin = os.path.join(config.irs_tools_dir, "IRSanitize.so")
config.substitutions.append(("%irs", os.path.join(config.irs_tools_dir, "ir-sanitize")))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%corpus", os.path.join(config.shared_dir, "corpus")))
config.substitutions.append(("%examples", os.path.join(config.irs_src_root, "examples")))
# Tests are grouped as LLVM's: tools/<command>/ and Transforms/<Pass>/, each
# folder with its own Inputs/ (%S/Inputs); Inputs/ here holds what all share
# (%inputs/expect-exit, %plan).
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.available_features.add("llvm-%s" % config.llvm_major)
config.substitutions.append(("%llvm-major", config.llvm_major))
# Up to LLVM 20, kernels keep their !nvvm.annotations entries ("kernel",
# "maxntidx"); LLVM 21 upgrades them to the ptx_kernel calling convention and
# "nvvm.*" function attributes when it reads a module.
if int(config.llvm_major) < 21:
    config.available_features.add("nvvm-annotations")
# From LLVM 17 the bitcode reader's debug-info upgrade (which verifies and
# aborts) can be switched off (-disable-auto-upgrade-debug-info).
if int(config.llvm_major) >= 17:
    config.available_features.add("bitcode-upgrade-switch")
# LLVM 19 added llvm.tanh: the Enzyme snapshot differentiates libdevice's
# __nv_tanhf only as that intrinsic (before 19 it has no rule for it).
if int(config.llvm_major) >= 19:
    config.available_features.add("llvm-tanh-intrinsic")
# Enzyme: the CMake-configured plugin or $ENZYME_PLUGIN; tests that run the
# real Enzyme say `REQUIRES: enzyme`. The fake plugins need no Enzyme.
# What depends on the Enzyme is a feature the test names: the snapshots'
# facts are known (2026-07 has Enzyme PR #2906, which accepts gc-transition);
# another plugin is asked, with opt, whether it differentiates through a
# gc-transition bundle.
config.substitutions.append(("%fake-plugins", config.fake_plugins_dir))

if os.environ.get("ENZYME_PLUGIN"):
    config.environment["ENZYME_PLUGIN"] = os.environ["ENZYME_PLUGIN"]
enzyme_plugin = os.environ.get("ENZYME_PLUGIN") or config.enzyme_plugin
enzyme_snapshot = lit_config.params.get("enzyme_snapshot")
if enzyme_snapshot is None and not os.environ.get("ENZYME_PLUGIN"):
    enzyme_snapshot = config.enzyme_snapshot
snapshot_features = {"2025-02": [], "2026-07": ["enzyme-accepts-gc-transition"]}

def enzyme_accepts_gc_transition(plugin):
    probe = os.path.join(config.test_source_root, "Inputs", "gc-transition-probe.ll")
    opt = os.path.join(config.llvm_tools_dir, "opt")
    return subprocess.call([opt, probe, "-load-pass-plugin=" + plugin, "-load=" + plugin,
                            "-enzyme-preopt=false", "-passes=enzyme", "-disable-output"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0

if enzyme_plugin and os.path.exists(enzyme_plugin):
    config.available_features.add("enzyme")
    config.substitutions.append(("%enzyme_plugin", enzyme_plugin))
    if enzyme_snapshot in snapshot_features:
        features = snapshot_features[enzyme_snapshot]
    else:
        features = ["enzyme-accepts-gc-transition"] if enzyme_accepts_gc_transition(enzyme_plugin) else []
        enzyme_snapshot = "another build"
    config.available_features.update(features)
    lit_config.note("Enzyme %s (%s): %s" % (enzyme_snapshot, enzyme_plugin, ", ".join(features) or
                                             "rejects gc-transition"))
else:
    lit_config.note("SKIPPED: no Enzyme plugin (LLVMEnzyme-%s.so); tests that "
                    "need one are UNSUPPORTED. Set ENZYME_PLUGIN or configure "
                    "with -DIRS_ENZYME_PLUGIN=PATH." % config.llvm_major)

# --param enzyme_only=1: only the tests that run Enzyme (a run with a second
# snapshot: the others do not depend on it).
# Its outputs go to a tree of their own: ctest runs it beside the full run,
# whose %t files it would otherwise share.
if lit_config.params.get("enzyme_only") == "1":
    config.test_exec_root = os.path.join(config.test_exec_root, "enzyme-" + re.sub(r"\W+", "-", str(enzyme_snapshot)))
    sys.path.insert(0, config.test_source_root)
    from enzyme_tests_only import EnzymeTestsOnly
    config.test_format = EnzymeTestsOnly(execute_external=False)
# Children die with ir-sanitize (PR_SET_PDEATHSIG) and the process tests read
# /proc: Linux only.
if sys.platform.startswith("linux") and os.path.isdir("/proc/self"):
    config.available_features.add("linux-processes")
else:
    lit_config.note("SKIPPED: not Linux (no PR_SET_PDEATHSIG or /proc); the "
                    "child-process survival tests are UNSUPPORTED")
if os.path.exists("/usr/lib/llvm-16/bin/llvm-as"):
    config.available_features.add("llvm-as-16")
    config.substitutions.append(("%llvm-as-16", "/usr/lib/llvm-16/bin/llvm-as"))
else:
    # The LLVM 18 build's Debian 13 root has no LLVM 16.
    lit_config.note("SKIPPED: no /usr/lib/llvm-16/bin/llvm-as; tests that read "
                    "output back with LLVM 16 are UNSUPPORTED")
# A host C compiler builds native helpers that lli loads (the warp
# emulator of AccumulationAggregation's test): any version will do.
import shutil
host_cc = next((shutil.which(c) for c in ("cc", "gcc", "clang") if shutil.which(c)), None)
if host_cc:
    config.available_features.add("host-cc")
    config.substitutions.append(("%host-cc", host_cc))
else:
    lit_config.note("SKIPPED: no host C compiler; the lli tests that load a native helper are UNSUPPORTED")
# GPU checks: ptxas verifies generated PTX; a usable CUDA device lets the
# runner execute plans (`REQUIRES: cuda-gpu`).
ptxas = os.path.join(config.cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
else:
    lit_config.note("SKIPPED: no ptxas under %s; PTX is not assembled" % config.cuda_root)
gpurun = os.path.join(config.irs_tools_dir, "ir-sanitize-gpurun")
config.substitutions.append(("%gpurun", gpurun))
config.substitutions.append(("%plan", "python3 " + os.path.join(config.test_source_root, "Inputs", "plan.py")))
if os.path.exists(gpurun):
    config.available_features.add("gpurun")
else:
    lit_config.note("SKIPPED: ir-sanitize-gpurun was not built (no cuda.h); its plan checks are UNSUPPORTED")
# Whether the CUDA driver library can be loaded (tests of the runner without
# one say `UNSUPPORTED: libcuda`).
import ctypes
try:
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("libcuda")
except OSError:
    pass
if os.path.exists(gpurun) and subprocess.call([gpurun, "--probe"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("cuda-gpu")
else:
    lit_config.note("SKIPPED: no usable CUDA device; tests that launch kernels are UNSUPPORTED")

# Probe answers (check --enzyme-plugin, triage) go to a cache of this test
# run's, never the user's.
config.environment["IRS_CACHE_DIR"] = os.path.join(config.test_exec_root, "irs-cache")
