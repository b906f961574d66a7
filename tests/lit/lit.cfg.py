# lit configuration for ir-sanitize's golden (FileCheck) and command-line tests.
import os
import lit.formats

config.name = "ir-sanitize"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

path = os.pathsep.join([config.irs_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PATH"] = path

plugin = os.path.join(config.irs_tools_dir, "IRSanitize.so")
config.substitutions.append(("%irs", os.path.join(config.irs_tools_dir, "ir-sanitize")))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%corpus", os.path.join(config.shared_dir, "corpus")))
config.substitutions.append(("%examples", os.path.join(config.irs_src_root, "examples")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.available_features.add("llvm-%s" % config.llvm_major)
if os.path.exists("/usr/lib/llvm-16/bin/llvm-as"):
    config.available_features.add("llvm-as-16")
    config.substitutions.append(("%llvm-as-16", "/usr/lib/llvm-16/bin/llvm-as"))
