"""The options a command lists in its --help, for the tests that try each
(option-order.py, option-values.py): a new option is covered as soon as it
exists."""
import re
import subprocess


def help_options(irs, command):
    """[(spellings, takes_value)] from `IRS COMMAND --help` (COMMAND "" for
    the default command)."""
    out = subprocess.run([irs] + ([command] if command else []) + ["--help"],
                         capture_output=True, text=True).stdout
    found = []
    in_subcommands = False
    for line in out.splitlines():
        if line.startswith("Subcommands:"):
            in_subcommands = True
        elif line and not line.startswith(" "):
            in_subcommands = False
        m = re.match(r"^  (-[^ ]+)( [^ ]+)?(  |$)", line)
        if m and not in_subcommands:
            found.append((m.group(1).split(","), m.group(2) is not None))
    return found
