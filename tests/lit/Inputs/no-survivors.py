"""no-survivors.py exit|kill WORK -- COMMAND...: runs COMMAND (an ir-sanitize
command with a stand-in Enzyme plugin) with FAKE_ENZYME_ORPHAN_PIDS and
TMPDIR under WORK, so that every opt it starts forks a process that ignores
SIGTERM (tests/fake-plugins/FakeEnzyme.cpp) and records "ORPHAN OPT".

exit: waits for COMMAND to end by itself. kill: SIGKILLs it once an orphan
is recorded (opt then still runs: use the hanging plugin).

Then it waits (bounded, no timing asserted) for every recorded orphan and
opt, and for every process still named in the pid file, to be gone, and
for WORK/tmp to be empty (the work directories removed), prints one summary
line for FileCheck, kills what is left and exits 1 if anything survived or
no orphan was ever started (the test could not have failed)."""
import os, signal, subprocess, sys, time

mode, work = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
pids_file = os.path.join(work, "orphans")
tmp = os.path.join(work, "tmp")
os.makedirs(tmp, exist_ok=True)
if os.path.exists(pids_file):
    os.remove(pids_file)
env = dict(os.environ, FAKE_ENZYME_ORPHAN_PIDS=pids_file, TMPDIR=tmp)


def recorded():
    try:
        with open(pids_file) as f:
            return [tuple(map(int, l.split())) for l in f if l.strip()]
    except OSError:
        return []


def alive(pid, names):
    """Whether pid is a live (not zombie) process with one of these names."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    state = stat[stat.rindex(")") + 2]
    return state not in "ZX" and name in names


def survivors():
    left = []
    for orphan, opt in recorded():
        if alive(orphan, ("irs-orphan",)):
            left.append(orphan)
        if alive(opt, ("opt",)):
            left.append(opt)
    return left


err_file = open(os.path.join(work, "stderr"), "w+")
proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                        stderr=err_file)
if mode == "kill":
    deadline = time.time() + 120
    while not recorded() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
code = proc.wait(timeout=600)

err_file.seek(0)
stderr = err_file.read()


def leftover():
    """What is in TMPDIR but for a directory the command named (the work
    directory of a failed Enzyme run, kept for its logs)."""
    return sorted(n for n in os.listdir(tmp) if n not in stderr)


deadline = time.time() + 30
while (survivors() or leftover()) and time.time() < deadline:
    time.sleep(0.05)
left, leftovers = survivors(), leftover()
print(f"{mode}: status {code}, orphans started {len(recorded())}, "
      f"processes left {len(left)}, work files left {len(leftovers)}")
for pid in left:
    print(f"  left: {pid}", file=sys.stderr)
    os.kill(pid, signal.SIGKILL)
for name in leftovers:
    print(f"  left in TMPDIR: {name}", file=sys.stderr)
sys.exit(1 if left or leftovers or not recorded() else 0)
