"""no-leftovers.py MODE IR_SANITIZE HANG_PLUGIN INPUT WORK: runs ir-sanitize
with a plugin that never returns and a private $TMPDIR (WORK/tmp), ends it
one way (MODE: reduce-max-time, reduce-SIGTERM, reduce-SIGINT, enzyme-SIGHUP;
with -keep, --keep-temps) and fails if any process it started is still
running, or if anything is left in $TMPDIR (with -keep: anything but the work
directory, which one note names). A signal is sent once llvm-reduce's interestingness test (or
Enzyme's opt) is running: what llvm-reduce runs runs a child of its own."""
import os, shutil, signal, subprocess, sys, time

mode, irs, plugin, module, work = sys.argv[1:6]
tmp = os.path.join(work, "tmp")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(tmp)
env = dict(os.environ, TMPDIR=tmp)


def running(needle, *more):
    """Pids of live processes whose command line contains needle (and more)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if all(n.encode() in cmd for n in (needle,) + more) and state != "Z":
            found.append(int(pid))
    return found


keep = mode.endswith("-keep")
command, how = mode.removesuffix("-keep").split("-", 1)
args = [irs, command, module, "--enzyme-plugin=" + plugin, "-q"]
if keep:
    args.append("--keep-temps")
if command == "reduce":
    args += ["-o", os.path.join(work, "min.ll"), "-j", "1", "--enzyme-timeout=3"]
    if how == "max-time":
        args += ["--max-time=1"]
    started = "--interestingness-test"
else:
    args += ["-o", os.path.join(work, "out.ll"), "--enzyme-timeout=60"]
    started = "-load-pass-plugin="
p = subprocess.Popen(args, env=env, stderr=subprocess.PIPE)
if how != "max-time":
    deadline = time.time() + 60
    while not [q for q in running(started, tmp) if q != p.pid]:
        if time.time() > deadline or p.poll() is not None:
            sys.exit("no-leftovers.py: the child never started")
        time.sleep(0.05)
    time.sleep(0.5)  # the test's own child (opt) starts
    p.send_signal(getattr(signal, how))
_, err = p.communicate(timeout=120)
# A killed process can take a moment to go on a loaded machine.
deadline = time.time() + 5
while running(tmp) and time.time() < deadline:
    time.sleep(0.1)
left = running(tmp)
files = sorted(os.listdir(tmp))
print("exit:", p.returncode, "processes left:", len(left), "files left:", files)
sys.stderr.write(err.decode(errors="replace"))
for pid in left:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            print("  left:", pid, f.read().replace(b"\0", b" ")[:300].decode(),
                  file=sys.stderr)
    except OSError:
        pass
for pid in left:
    try:
        os.kill(pid, signal.SIGKILL)  # leave nothing behind ourselves
    except OSError:
        pass
if keep:
    notes = [l for l in err.decode().splitlines() if "work directory kept" in l]
    named = len(files) == 1 and len(notes) == 1 and files[0] in notes[0]
    print("kept and named in one note:", named)
    files = [] if named else files
sys.exit(1 if left or files else 0)
