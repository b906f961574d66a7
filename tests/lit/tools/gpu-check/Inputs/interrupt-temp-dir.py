"""interrupt-temp-dir.py IR_SANITIZE HANG_PLUGIN INPUT SPEC TMP: runs
`ir-sanitize gpu-check` without --emit-dir, so that it builds its plan in a
new directory under TMPDIR=TMP, and interrupts it with SIGINT, SIGTERM and
SIGHUP, each twice: as soon as that directory appears (before any child
runs) and while Enzyme's child (a plugin that never returns) runs. Prints,
per run, how the command ended and what it left under TMP, which must be
nothing: the directory is complete or not there at all."""
import os, signal, subprocess, sys, time

irs, plugin, module, spec, tmp = sys.argv[1:6]


def enzyme_running():
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"-load-pass-plugin=" + plugin.encode() in f.read():
                    return True
        except OSError:
            pass
    return False


def started(p, when):
    if when == "early":
        return os.path.isdir(tmp) and any(
            n.startswith("ir-sanitize-gpu-check-") for n in os.listdir(tmp))
    return enzyme_running()


failed = False
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    for when in ("early", "enzyme"):
        os.makedirs(tmp, exist_ok=True)
        p = subprocess.Popen(
            [irs, "gpu-check", "-q", module, "--spec", spec, "--no-run",
             "--enzyme-plugin=" + plugin, "--enzyme-timeout=60"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=dict(os.environ, TMPDIR=tmp))
        deadline = time.time() + 60
        while not started(p, when):
            if time.time() > deadline or p.poll() is not None:
                sys.exit(f"interrupt-temp-dir.py: {when}: never got there")
            time.sleep(0.002)
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
        time.sleep(0.1)
        left = sorted(os.listdir(tmp))
        # Dead of a signal, or exited with 128 + its number.
        interrupted = p.returncode < 0 or p.returncode > 128
        print(f"{signal.Signals(sig).name} {when}: interrupted: "
              f"{interrupted}, left: {left}")
        failed |= bool(left) or not interrupted or enzyme_running()
        for name in left:
            subprocess.run(["rm", "-rf", os.path.join(tmp, name)])
sys.exit(1 if failed else 0)
