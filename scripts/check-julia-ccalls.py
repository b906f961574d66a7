#!/usr/bin/env python3
"""Checks examples/julia against the C interface, without Julia.

  check-julia-ccalls.py HEADER LIBRARY [--manifest FILE] JULIA_FILE...

For every `ccall((:Name, lib), Ret, (Args...), values...)` in the Julia
files: Name is declared in HEADER and exported by LIBRARY (`nm -D`), Ret and
each of Args is a Julia type that matches the C type the header declares, and
the number of values passed equals the number of parameters (for a ccall that
splats `args...`, at every `irs_call(:Name, ...)` site). The `IRSStatus*`
constants equal the header's, and the default library name is LIBRARY's. With
--manifest, every field the Julia code reads from the launch manifest
(`manifest.`, `kernel.`, `p.`, `o.`) is a key of that manifest (as written by
the installed ir-sanitize).

Run by scripts/test-install.sh on the installed header and library. What this
cannot see without Julia: docs/Embedding.md, "The Julia example".
"""
import json
import re
import subprocess
import sys

# C type (spaces removed, `const` kept) -> the Julia spellings that pass it.
STRING_OUT = {"Ptr{Ptr{Cchar}}", "Ref{Ptr{Cchar}}", "Ptr{Ptr{UInt8}}",
              "Ref{Ptr{UInt8}}", "Ptr{Cstring}", "Ref{Cstring}"}
JULIA_TYPES = {
    "void": {"Cvoid", "Nothing"},
    "IRSStatus": {"Cint", "Int32"},  # a C enum: int-sized
    "unsigned*": {"Ref{Cuint}", "Ptr{Cuint}"},
    "constchar*": {"Cstring", "Ptr{Cchar}", "Ptr{UInt8}"},
    "char*": {"Ptr{Cchar}", "Ptr{UInt8}"},
    "char**": STRING_OUT,
    "LLVMModuleRef": {"LLVM.API.LLVMModuleRef", "LLVMModuleRef"},
}

errors = []


def error(where, message):
    errors.append(f"{where}: {message}")


def strip_c_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def c_type(text):
    """'const char *Name', 'const char *' -> 'constchar*' (the name dropped)."""
    tokens = re.findall(r"\w+|\*", text)
    if len(tokens) > 1 and re.fullmatch(r"\w+", tokens[-1]) and \
            [t for t in tokens[:-1] if t != "const"]:
        tokens = tokens[:-1]
    return "".join(tokens)


def read_header(path):
    text = strip_c_comments(open(path).read())
    functions = {}
    for m in re.finditer(r"([\w\s\*]+?)\b(IRS\w+)\s*\(([^)]*)\)\s*;", text):
        params = [p for p in m.group(3).split(",") if p.strip() != "void"]
        functions[m.group(2)] = (c_type(m.group(1)), [c_type(p) for p in params])
    statuses = {n: int(v) for n, v in
                re.findall(r"\b(IRSStatus\w+)\s*=\s*(\d+)", text)}
    return functions, statuses


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    return {f[2] for f in (l.split() for l in out.splitlines())
            if len(f) == 3 and f[1] == "T"}


def balanced(text, start):
    """The index just past the bracket that closes text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced brackets")


def split_top(text):
    """Splits at the commas outside brackets and strings."""
    parts, depth, cur, quoted = [], 0, "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if not quoted and ch in "([{":
            depth += 1
        elif not quoted and ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def strip_julia_comments(text):
    return re.sub(r'#[^\n"]*(?=\n)', "", text)


def calls(text, callee):
    """(offset, line, [arguments]) of every call of `callee(`."""
    for m in re.finditer(r"\b" + re.escape(callee) + r"\(", text):
        end = balanced(text, m.end() - 1)
        yield (m.start(), text.count("\n", 0, m.start()) + 1,
               split_top(text[m.end():end - 1]))


def check_ccall(where, args, functions, symbols, splatted):
    target = re.fullmatch(r"\(\s*:(\w+)\s*,\s*\w+\s*\)", args[0])
    if not target:
        return error(where, f"ccall target {args[0]} is not (:Name, lib)")
    name = target.group(1)
    if name not in functions:
        return error(where, f"{name} is not declared in the header")
    if name not in symbols:
        error(where, f"{name} is not exported by the library")
    ret, params = functions[name]
    if args[1] not in JULIA_TYPES.get(ret, ()):
        error(where, f"{name} returns {ret}, the ccall says {args[1]}")
    types = split_top(args[2].strip()[1:-1])
    if len(types) != len(params):
        error(where, f"{name} takes {len(params)} parameters, the ccall "
              f"lists {len(types)} types")
    for i, (jl, c) in enumerate(zip(types, params)):
        if c not in JULIA_TYPES:
            error(where, f"{name}: no Julia spelling known for C type {c}")
        elif jl not in JULIA_TYPES[c]:
            error(where, f"{name} parameter {i + 1} is {c}, the ccall says {jl}")
    values = args[3:]
    splat = [i for i, v in enumerate(values) if v.endswith("...")]
    if splat:
        splatted[name] = (where, len(values) - 1, len(params))
    elif len(values) != len(params):
        error(where, f"{name} takes {len(params)} arguments, the ccall "
              f"passes {len(values)}")
    return name


def check_julia(path, functions, statuses, symbols, library, manifest_keys):
    text = strip_julia_comments(open(path).read())
    splatted, called = {}, set()
    for offset, line, args in calls(text, "ccall"):
        where = f"{path}:{line}"
        if len(args) < 3:
            error(where, "ccall with fewer than 3 arguments")
            continue
        name = check_ccall(where, args, functions, symbols, splatted)
        called.add(name)
        # A splatting ccall sits in a dispatch on `f === :Name`: the branch
        # must call the function it is for.
        branch = re.findall(r"f\s*===\s*:(\w+)", text[:offset])
        if name in splatted and (not branch or branch[-1] != name):
            error(where, f"{name} is called in the branch for "
                  f":{branch[-1] if branch else '(none)'}")
    for _, line, args in calls(text, "irs_call"):
        where = f"{path}:{line}"
        m = re.fullmatch(r":(\w+)", args[0])
        if not m:
            continue  # the definition: irs_call(f::Symbol, args...)
        if m.group(1) not in splatted:
            error(where, f"irs_call(:{m.group(1)}) reaches no ccall")
            continue
        _, fixed, wanted = splatted[m.group(1)]
        if len(args) - 1 + fixed != wanted:
            error(where, f"{m.group(1)} takes {wanted} arguments, "
                  f"irs_call passes {len(args) - 1} + {fixed}")
    for name, value in re.findall(r"const\s+(IRSStatus\w+)\s*=\s*Cint\((\d+)\)",
                                  text):
        if statuses.get(name) != int(value):
            error(path, f"{name} = {value}, the header says {statuses.get(name)}")
    for lib in re.findall(r'"(lib\w+\.so)"', text):
        if not library.endswith("/" + lib):
            error(path, f"the default library {lib} is not {library}")
    if manifest_keys is not None:
        for var, field in re.findall(r"\b(manifest|kernel|p|o)\.(\w+)", text):
            if field not in manifest_keys:
                error(path, f"{var}.{field}: no key '{field}' in the manifest")
    return called


def keys_of(value):
    if isinstance(value, dict):
        return set(value) | set().union(*map(keys_of, value.values()))
    if isinstance(value, list):
        return set().union(*map(keys_of, value))
    return set()


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    header, library, rest = argv[1], argv[2], argv[3:]
    manifest_keys = None
    if rest[0] == "--manifest":
        manifest_keys = keys_of(json.load(open(rest[1])))
        rest = rest[2:]
    functions, statuses = read_header(header)
    symbols = exported(library)
    called = set()
    for path in rest:
        called |= check_julia(path, functions, statuses, symbols, library,
                              manifest_keys)
    for name in sorted(set(functions) - called):
        error(header, f"{name} is never called from Julia")
    for e in errors:
        print("check-julia-ccalls: " + e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"check-julia-ccalls: {len(called)} functions, every ccall matches "
          f"the header and the library")


if __name__ == "__main__":
    main(sys.argv)
