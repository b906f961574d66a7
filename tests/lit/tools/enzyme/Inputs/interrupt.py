"""interrupt.py IR_SANITIZE HANG_PLUGIN INPUT OUTPUT [SIGNAL]: starts
`ir-sanitize enzyme` with a plugin that never returns, interrupts it (SIGNAL,
default INT, as Ctrl-C would) once Enzyme's child is running, and fails if
that child outlives it. ir-sanitize must die of that signal (the shell then
says 128 + its number), which the exit line shows as -N. The
child runs in a process group of its own, so the terminal's SIGINT would not
reach it; ir-sanitize must kill it."""
import os, signal, subprocess, sys, time

irs, plugin, module, output = sys.argv[1:5]
sig = getattr(signal, "SIG" + (sys.argv[5] if len(sys.argv) > 5 else "INT"))


def children_with(path):
    """The opt processes that load the plugin at path."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"-load-pass-plugin=" + path.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


p = subprocess.Popen([irs, "enzyme", module, "--enzyme-plugin=" + plugin,
                      "--enzyme-timeout=60", "-q", "-o", output],
                     stderr=subprocess.DEVNULL)
deadline = time.time() + 30
while not children_with(plugin):
    if time.time() > deadline or p.poll() is not None:
        sys.exit("interrupt.py: Enzyme's child never started")
    time.sleep(0.05)
p.send_signal(sig)
p.wait(timeout=30)
time.sleep(0.2)
left = children_with(plugin)
print("ir-sanitize exit:", p.returncode, "children left:", len(left))
for pid in left:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        print("  left:", pid, f.read().replace(b"\0", b" ").decode(), file=sys.stderr)
sys.exit(1 if left else 0)
