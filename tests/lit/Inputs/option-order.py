"""option-order.py IR_SANITIZE WORK EXAMPLES NOOP_PLUGIN SPEC: every option
of every command, given before INPUT and after it, does the same.

The options come from each command's --help, so a new option is covered as
soon as it exists. Each is given a value its own check accepts (VALUES below;
an option missing there fails the test, naming it), then the command runs
twice in a fresh directory: `COMMAND OPTION VALUE INPUT REST` and `COMMAND
INPUT REST OPTION VALUE`. An option that took INPUT as a second value would
make the first run differ (no input, or INPUT as a bad value). Exit codes and
both output streams must be equal (with the run's own temporary names and
times made equal). Prints one line per command and a total."""
import os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
from help_options import help_options  # noqa: E402

irs, work, examples, noop, spec = sys.argv[1:6]
# gpu-check with the pass-through plugin: LLVM's ExpandVariadics crashes on
# the __enzyme_* calls left in; the aborting one stops it at Enzyme.
abort = os.path.join(os.path.dirname(noop), "FakeEnzymeAbort.so")
host = os.path.join(examples, "cuda_ccall_gc_transition_fwddiff.ll")
kernel = os.path.join(examples, "kernels", "bcast_add_1d.ll")

# command: (input, the rest of a run that can succeed)
COMMANDS = {
    "": (host, ["-o", "out.ll"]),
    "check": (host, []),
    "restore": (host, ["-o", "out.ll"]),
    "enzyme": (host, ["-o", "out.ll", "--enzyme-plugin=" + noop]),
    "reduce": (host, ["-o", "min.ll", "--enzyme-plugin=" + noop]),
    "gpu-check": (kernel, ["--spec", spec, "--no-run",
                           "--enzyme-plugin=" + abort]),
}

# A value for each option that takes one (its checks at parse time accept
# it); options without a value (flags) are not listed.
VALUES = {
    "--bundle": "gc-transition=stash",
    "--scope": "all",
    "--report": "report.json",
    "--manifest": "manifest.json",
    "--kernel": "julia_scaled_norm2_1520",
    "-o": "other.ll",
    "--output": "other.ll",
    "--emit": "ll",
    "--format": "json",
    "--fn": "julia_scaled_norm2_1520",
    "--mode": "forward",
    "--activity": "default=dup",
    "--enzyme-plugin": noop,
    "--enzyme-timeout": "60",
    "--enzyme-arg": "-fake-enzyme-fail-saying=0",
    "--enzyme-log": "enzyme.log",
    "-j": "1",
    "--jobs": "1",
    "--max-time": "60",
    "--spec": spec,
    "--emit-dir": "emitted",
    "--gpu-arch": "sm_90",
    "--ptx-version": "80",
    "--repeats": "1",
    "--derivative-order": "generated",
    "--accumulation": "separate",
    "--dims": "1024",
    "--wrt": "all",
    "--set": "1.1=4096",
    "--write-spec": "written.json",
}
# Values one command needs instead.
OVERRIDES = {("gpu-check", "--enzyme-plugin"): abort}
# Options that end the command before the input matters.
INFO = {"-h", "--help", "--help-all", "--version"}


def normalise(text, scratch):
    text = text.replace(scratch, "DIR")
    text = re.sub(r"ir-sanitize-[\w.-]+", "ir-sanitize-TMP", text)
    text = re.sub(r"\.irs-\d+-\w+", ".irs-TMP", text)  # staging names
    return re.sub(r"\d+(\.\d+)? s\b", "N s", text)


def run(command, args):
    scratch = tempfile.mkdtemp(dir=work)
    # A cache of its own: both orders ask the Enzyme probes anew.
    env = dict(os.environ, TMPDIR=scratch, IRS_CACHE_DIR=os.path.join(scratch, "cache"))
    p = subprocess.run([irs] + ([command] if command else []) + args,
                       cwd=scratch, env=env, capture_output=True, timeout=300,
                       stdin=subprocess.DEVNULL)
    result = (p.returncode, normalise(p.stdout.decode("latin-1"), scratch),
              normalise(p.stderr.decode("latin-1"), scratch))
    shutil.rmtree(scratch, ignore_errors=True)
    return result


problems, total = [], 0
for command, (inp, rest) in COMMANDS.items():
    checked = 0
    for spellings, takes_value in help_options(irs, command):
        if set(spellings) & INFO:
            continue
        for flag in spellings:
            if takes_value and flag not in VALUES:
                problems.append(f"{command or 'ir-sanitize'}: no value for "
                                f"{flag}: add one to VALUES in {__file__}")
                continue
            given = [flag]
            if takes_value:
                given.append(OVERRIDES.get((command, flag), VALUES[flag]))
            # The rest without an option given the same way.
            kept = [a for i, a in enumerate(rest)
                    if not (a.split("=")[0] in spellings or
                            (i and rest[i - 1] in spellings) or
                            (a in spellings))]
            before = run(command, given + [inp] + kept)
            after = run(command, [inp] + kept + given)
            checked += 1
            if before != after:
                problems.append(
                    f"{command or 'ir-sanitize'} {' '.join(given)}: before "
                    f"INPUT: exit {before[0]}, {before[2].strip()[:200]!r}; "
                    f"after: exit {after[0]}, {after[2].strip()[:200]!r}")
    print(f"{command or 'ir-sanitize'}: {checked} options before and after INPUT")
    total += checked
print(f"total: {total}")
for p in problems:
    print("error:", p)
sys.exit(1 if problems or total == 0 else 0)
