#!/usr/bin/env python3
"""Modules shaped like Enzyme's derivative kernels, for
tests/stress/derivative-passes.sh: what llvm-stress does not make.

  derivative-gen.py kernels N FIRST_SEED OUT_DIR
      N modules of random NVPTX kernels: a thread index from the special
      registers, a bounds guard, then runs of loads, stores, clears (store
      0), stores followed by loads of the same or other buffers, atomicrmw
      fadd/fsub/fmax/add/xchg (monotonic or stronger, old value used or
      not) of float, double and i32 into several buffers (noalias or not,
      offset and strided elements), the primal/derivative `if (c)` twice on
      one condition, barriers and fences, loops over a parameter with
      divisions and remainders by it (nested, and by a quotient).
  derivative-gen.py mutate N SEED OUT_DIR FILE...
      N mutants of each FILE (a lit input): accumulations made fsub, fmax or
      seq_cst, stores and atomics duplicated or dropped, clears added, stores
      swapped with the next line. Mutants the verifier rejects are skipped
      by the test (and counted).
Each module is OUT_DIR/<kind>-<seed>.ll; the seed alone decides it."""
import os
import random
import re
import sys

HEADER = """target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare i64 @llvm.smax.i64(i64, i64)
"""


class Kernel:
    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.lines = []
        self.n = 0
        self.nptr = rng.randint(2, 5)
        self.elem = [rng.choice(["float", "double", "float", "i32"]) for _ in range(self.nptr)]
        self.noalias = [rng.random() < 0.3 for _ in range(self.nptr)]
        self.values = {"float": ["1.5"], "double": ["2.5"], "i32": ["%m"]}
        self.indices = ["%i"]

    def fresh(self, stem):
        self.n += 1
        return "%%%s%d" % (stem, self.n)

    def emit(self, line):
        self.lines.append("  " + line)

    def address(self, k, index=None):
        index = index or self.rng.choice(self.indices)
        a = self.fresh("p")
        self.emit("%s = getelementptr inbounds %s, ptr addrspace(1) %%a%d, i64 %s" % (a, self.elem[k], k, index))
        if self.rng.random() < 0.2:  # a neighbour, or a byte offset
            b = self.fresh("p")
            step = self.rng.choice(["%s, i64 1" % self.elem[k], "i8, i64 2", "%s, i64 -1" % self.elem[k]])
            self.emit("%s = getelementptr inbounds %s, ptr addrspace(1) %s, i64 %s"
                      % (b, step.split(",")[0], a, step.split("i64 ")[1]))
            return b
        return a

    def value(self, ty):
        return self.rng.choice(self.values[ty])

    def access(self):
        rng = self.rng
        k = rng.randrange(self.nptr)
        ty = self.elem[k]
        if ty != "i32" and rng.random() < 0.1:  # mixed widths on one buffer
            ty = "double" if ty == "float" else "float"
        align = 8 if ty == "double" else 4
        a = self.address(k)
        r = rng.random()
        if r < 0.3:
            v = self.fresh("v")
            self.emit("%s = load %s, ptr addrspace(1) %s, align %d" % (v, ty, a, align))
            self.values[ty].append(v)
            if ty != "i32" and rng.random() < 0.4:
                w = self.fresh("g")
                self.emit("%s = fmul %s %s, %s" % (w, ty, v, self.value(ty)))
                self.values[ty].append(w)
        elif r < 0.55:
            zero = "0" if ty == "i32" else "0.0"
            v = zero if rng.random() < 0.6 else self.value(ty)
            self.emit("store %s %s, ptr addrspace(1) %s, align %d" % (ty, v, a, align))
        else:
            if ty == "i32":
                op = rng.choice(["add", "sub", "xchg", "max"])
            else:
                op = rng.choice(["fadd", "fadd", "fadd", "fsub", "fmax"])
            order = rng.choice(["monotonic"] * 5 + ["seq_cst", "acquire"])
            o = self.fresh("old")
            self.emit("%s = atomicrmw %s ptr addrspace(1) %s, %s %s %s, align %d"
                      % (o, op, a, ty, self.value(ty), order, align))
            if rng.random() < 0.15:
                self.values[ty].append(o)

    def run(self, length):
        for _ in range(length):
            r = self.rng.random()
            if r < 0.04:
                self.emit("call void @llvm.nvvm.barrier0()")
            elif r < 0.06:
                self.emit("fence acq_rel")
            else:
                self.access()

    def two_d_index(self):
        """A 2-D broadcast's index: i split by %n, each part kept or
        extruded by a flag all lanes share (AccumulationAggregation's
        uniform test)."""
        rng = self.rng
        q, qn, r, st, row, col, j = (self.fresh(s) for s in ("q", "qn", "r", "st", "row", "col", "j"))
        self.emit("%s = %s i64 %%i, %%n" % (q, rng.choice(["sdiv", "udiv"])))
        if rng.random() < 0.5:
            self.emit("%s = mul i64 %s, %%n" % (qn, q))
            self.emit("%s = sub i64 %%i, %s" % (r, qn))
        else:
            self.emit("%s = %s i64 %%i, %%n" % (r, rng.choice(["srem", "urem"])))
        flags = []
        for _ in range(2):
            f = self.fresh("keep")
            self.emit("%s = icmp %s i32 %%m, %d" % (f, rng.choice(["eq", "sgt", "ult"]), rng.randint(0, 5)))
            flags.append(f)
        self.emit("%s = select i1 %s, i64 %s, i64 %s" % (col, flags[0], r, rng.choice(["1", "%n"])))
        self.emit("%s = select i1 %s, i64 %s, i64 0" % (row, flags[1], q))
        self.emit("%s = %s" % (st, rng.choice(["mul i64 %n, 1", "sext i32 %m to i64",
                                                "call i64 @llvm.smax.i64(i64 %n, i64 0)"])))
        t = self.fresh("t")
        self.emit("%s = mul i64 %s, %s" % (t, row, st))
        self.emit("%s = add i64 %s, %s" % (j, t, col))
        self.indices.append(j)

    def index_arith(self):
        rng = self.rng
        if rng.random() < 0.3:
            self.two_d_index()
            return
        base = rng.choice(self.indices)
        j = self.fresh("j")
        op = rng.choice(["add", "mul", "xor"])
        self.emit("%s = %s i64 %s, %d" % (j, op, base, rng.choice([1, 2, 3, 7])))
        self.indices.append(j)

    def block(self, label):
        self.lines.append(label + ":")

    def loop(self, depth=0):
        """for (t = 0; t < m; ++t) body with divisions by m, m's quotient."""
        rng = self.rng
        head = self.fresh("loop")[1:]
        entry_label = self.current
        self.emit("br label %%%s" % head)
        self.block(head)
        t = self.fresh("t")
        nxt = self.fresh("t.next")
        self.emit("%s = phi i32 [ 0, %%%s ], [ %s, %%%s.latch ]" % (t, entry_label, nxt, head))
        self.current = head
        q = self.fresh("q")
        op = rng.choice(["udiv", "urem", "udiv", "sdiv", "srem"])
        num = t if op[0] == "u" else self.nonneg(t)
        den = rng.choice(self.divisors)
        self.emit("%s = %s i32 %s, %s" % (q, op, num, den))
        if rng.random() < 0.5:
            q2 = self.fresh("q")
            self.emit("%s = or i32 %s, 1" % (q2, q))
            self.divisors.append(q2)
        wide = self.fresh("w")
        self.emit("%s = zext i32 %s to i64" % (wide, q))
        saved = list(self.indices)
        self.indices.append(wide)
        self.run(rng.randint(1, 5))
        if depth < 1 and rng.random() < 0.4:
            self.loop(depth + 1)
        self.indices = saved
        latch = head + ".latch"
        self.emit("br label %%%s" % latch)
        self.block(latch)
        self.emit("%s = add i32 %s, 1" % (nxt, t))
        c = self.fresh("c")
        self.emit("%s = icmp ult i32 %s, %s" % (c, nxt, self.bound))
        out = head + ".exit"
        self.emit("br i1 %s, label %%%s, label %%%s" % (c, head, out))
        self.block(out)
        self.current = out

    def nonneg(self, v):
        h = self.fresh("h")
        self.emit("%s = lshr i32 %s, 1" % (h, v))
        return h

    def repeated_branch(self):
        """Enzyme's `if (c)` for the primal, then again for the derivative."""
        rng = self.rng
        c = self.fresh("rc")
        self.emit("%s = icmp ult i64 %s, %%n" % (c, rng.choice(self.indices)))
        stem = self.fresh("rb")[1:]
        self.emit("br i1 %s, label %%%s.primal, label %%%s.merge" % (c, stem, stem))
        self.block(stem + ".primal")
        self.current = stem + ".primal"
        saved = {t: list(v) for t, v in self.values.items()}
        self.run(rng.randint(1, 4))
        self.values = {t: list(v) for t, v in saved.items()}
        self.emit("br label %%%s.merge" % stem)
        self.block(stem + ".merge")
        self.emit("br i1 %s, label %%%s.rev, label %%%s.done" % (c, stem, stem))
        self.block(stem + ".rev")
        self.current = stem + ".rev"
        self.run(rng.randint(1, 6))
        self.values = {t: list(v) for t, v in saved.items()}
        self.emit("br label %%%s.done" % stem)
        self.block(stem + ".done")
        self.current = stem + ".done"

    def build(self):
        rng = self.rng
        params = ", ".join("ptr addrspace(1) %s%%a%d" % ("noalias " if na else "", k)
                           for k, na in enumerate(self.noalias))
        self.block("entry")
        self.current = "entry"
        self.emit("%tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()")
        self.emit("%ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()")
        self.emit("%ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()")
        self.emit("%blk = mul i32 %ctaid, %ntid")
        self.emit("%i32 = add i32 %blk, %tid")
        self.emit("%i = zext i32 %i32 to i64")
        self.divisors = ["%m"]
        self.bound = rng.choice(["%m", "%m", "8"])
        if rng.random() < 0.7:
            self.emit("%inb = icmp ult i64 %i, %n")
            self.emit("br i1 %inb, label %body, label %exit")
            self.block("body")
            self.current = "body"
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            if r < 0.35:
                self.run(rng.randint(2, 9))
            elif r < 0.55:
                self.repeated_branch()
            elif r < 0.8:
                self.loop()
            else:
                self.index_arith()
        self.emit("br label %exit")
        self.block("exit")
        self.emit("ret void")
        body = "\n".join(self.lines)
        return ("define void @%s(%s, i64 %%n, i32 %%m) {\n%s\n}\n" % (self.name, params, body))


def kernels(count, first, out):
    for seed in range(first, first + count):
        rng = random.Random(seed)
        names = ["k%d_%d" % (seed, i) for i in range(rng.randint(1, 3))]
        funcs = [Kernel(rng, n).build() for n in names]
        ann = "".join("!%d = !{ptr @%s, !\"kernel\", i32 1}\n" % (i, n) for i, n in enumerate(names))
        refs = ", ".join("!%d" % i for i in range(len(names)))
        text = HEADER + "\n" + "\n".join(funcs) + "\n!nvvm.annotations = !{%s}\n%s" % (refs, ann)
        with open(os.path.join(out, "kernels-%d.ll" % seed), "w") as f:
            f.write(text)


ATOMIC = re.compile(r"^(\s*)(%\S+ = )?atomicrmw (\w+) (.*?) (monotonic|seq_cst|acquire|release|acq_rel)(.*)$")
STORE = re.compile(r"^(\s*)store (\w+) (\S+), (ptr( addrspace\(\d+\))? %[^\s,]+)(.*)$")


def mutate_line(rng, line, k):
    """One line's replacement (a list of lines)."""
    m = ATOMIC.match(line)
    if m:
        indent, res, op, rest, order, tail = m.groups()
        choice = rng.randrange(5)
        if choice == 0 and op in ("fadd", "fsub"):
            op = "fsub" if op == "fadd" else "fadd"
        elif choice == 1 and op.startswith("f"):
            op = "fmax"
        elif choice == 2:
            order = "seq_cst"
        elif choice == 3:
            dup = "%s%%irs.mut%d = atomicrmw %s %s %s%s" % (indent, k, op, rest, order, tail)
            return [line, dup]
        return ["%s%satomicrmw %s %s %s%s" % (indent, res or "", op, rest, order, tail)]
    m = STORE.match(line)
    if m:
        indent, ty, val, ptr, _, tail = m.groups()
        choice = rng.randrange(4)
        if choice == 0:
            return []
        if choice == 1:
            return [line, line]
        if choice == 2 and ty in ("float", "double"):
            return ["%sstore %s 0.0, %s%s" % (indent, ty, ptr, tail), line]
        if choice == 3 and ty in ("float", "double"):
            return [line, "%s%%irs.mut%d = atomicrmw fadd %s, %s %s monotonic%s"
                    % (indent, k, ptr, ty, val, tail if tail.startswith(", align") else "")]
    return [line]


def mutate(count, seed, out, files):
    for path in files:
        lines = open(path).read().split("\n")
        stem = re.sub(r"[^A-Za-z0-9]+", "-", os.path.relpath(path))[-60:]
        for n in range(count):
            rng = random.Random("%d:%s:%d" % (seed, path, n))
            result = []
            for k, line in enumerate(lines):
                if line.startswith(";"):
                    continue
                result.extend(mutate_line(rng, line, k) if rng.random() < 0.3 else [line])
            with open(os.path.join(out, "mutant-%s-%d.ll" % (stem, n)), "w") as f:
                f.write("\n".join(result))


def main():
    kind = sys.argv[1]
    if kind == "kernels":
        kernels(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif kind == "mutate":
        mutate(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:])
    else:
        sys.exit("usage: derivative-gen.py kernels|mutate ...")


if __name__ == "__main__":
    main()
