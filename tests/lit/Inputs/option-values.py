"""option-values.py IR_SANITIZE INPUT: every option of every command that
takes a value refuses one that is empty or is another option, in one line
naming what was given, with exit 2 (one rule, in the front end's shared
option code; `--wrt , IN.ll` took IN.ll as its value before).

For each option in each command's --help that takes a value, three runs:
`OPTION --not-a-value INPUT`, `OPTION= INPUT` and `OPTION "" INPUT`. Prints
one line per command with the options checked, and every deviation."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from help_options import help_options  # noqa: E402

irs, inp = sys.argv[1:3]
COMMANDS = ["", "check", "restore", "enzyme", "reduce", "gpu-check"]
INFO = {"-h", "--help", "--help-all", "--version"}


def refused(command, args, expected):
    p = subprocess.run([irs] + ([command] if command else []) + args,
                       capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    lines = p.stderr.splitlines()
    if p.returncode == 2 and len(lines) == 1 and expected in lines[0]:
        return None
    return "%s %s: exit %d, %r" % (command or "ir-sanitize", " ".join(args),
                                   p.returncode, p.stderr.strip())


problems = []
for command in COMMANDS:
    checked = 0
    for spellings, takes_value in help_options(irs, command):
        if not takes_value or set(spellings) & INFO:
            continue
        for flag in spellings:
            runs = [([flag, "--not-a-value", inp],
                     flag + " needs a value; '--not-a-value' reads as an "
                     "option"),
                    ([flag, "", inp], flag + ": an empty value ('')")]
            if flag.startswith("--"):
                runs.append(([flag + "=", inp],
                             flag + ": an empty value ('" + flag + "=')"))
            for args, expected in runs:
                problem = refused(command, args, expected)
                if problem:
                    problems.append(problem)
            checked += 1
    print("%s: %d options refuse a missing value" %
          (command or "ir-sanitize", checked))
for p in problems:
    print("error: " + p)
sys.exit(1 if problems else 0)
