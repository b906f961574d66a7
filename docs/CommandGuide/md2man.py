#!/usr/bin/env python3
"""Turn a command-guide page (docs/CommandGuide/*.md) into a man(7) page.

Only the Markdown the guide uses is understood: '#' title ("NAME - what it
does"), '##' sections, '###' subsections, '####' option entries (under
OPTIONS; rendered as tagged paragraphs), paragraphs, '-'/'*' and numbered
lists, fenced code blocks, pipe tables, inline `code`, *emphasis*,
**bold**, [links](target) and <!-- comments -->.

usage: md2man.py [--version V] PAGE.md OUT.1
"""
import argparse
import datetime
import os
import re
import sys


def man_name(md_path):
    """check.md -> ir-sanitize-check; ir-sanitize-gpurun.md -> itself."""
    stem = os.path.splitext(os.path.basename(md_path))[0]
    return stem if stem.startswith("ir-sanitize") else "ir-sanitize-" + stem


def escape(text):
    """Escape roff's special characters in plain text."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def inline(text):
    """Markdown inline markup -> roff font changes (one logical line)."""
    # A link to another page of the guide names its man page; others keep
    # their text.
    text = re.sub(r"\[(?:[^\]`]|`[^`]*`)*\]\(([\w-]+)\.md\)",
                  lambda m: man_name(m.group(1)) + "(1)", text)
    text = re.sub(r"\[((?:[^\]`]|`[^`]*`)*)\]\([^)]*\)", r"\1", text)
    out = []
    # Code spans first: their content is literal.
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if i % 2:
            out.append("\\fB" + escape(part[1:-1]) + "\\fR")
            continue
        part = escape(part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", part)
        part = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", part)
        out.append(part)
    return "".join(out)


def line_out(text):
    """A text line must not start with a roff control character; characters
    beyond ASCII become roff's \\[uXXXX] escapes."""
    text = "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)
    return "\\&" + text if text[:1] in (".", "'") else text


def table_rows(lines):
    rows = []
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", c) for c in cells if c):
            continue
        rows.append(cells)
    return rows


def convert(md, name, version):
    md = re.sub(r"<!--.*?-->", "", md, flags=re.S)
    lines = md.split("\n")
    out = []
    title = lines[0].lstrip("# ").strip()
    desc = title.split(" - ", 1)[1] if " - " in title else title
    date = datetime.date.today().isoformat()
    if os.environ.get("SOURCE_DATE_EPOCH"):
        date = datetime.datetime.utcfromtimestamp(
            int(os.environ["SOURCE_DATE_EPOCH"])).date().isoformat()
    out.append('.TH %s 1 "%s" "ir-sanitize %s" "ir-sanitize manual"'
               % (name.upper(), date, version))
    out.append(".SH NAME")
    out.append("%s \\- %s" % (escape(name), inline(desc)))
    i = 1
    para = []

    def flush():
        if para:
            out.append(".PP")
            out.append(line_out(inline(" ".join(para))))
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            flush()
        elif stripped.startswith("```"):
            flush()
            i += 1
            out.append(".PP")
            out.append(".RS 4")
            out.append(".nf")
            while i < len(lines) and not lines[i].strip().startswith("```"):
                out.append(line_out(escape(lines[i])))
                i += 1
            out.append(".fi")
            out.append(".RE")
        elif line.startswith("#### "):
            flush()
            out.append(".TP")
            out.append(line_out(inline(line[5:].strip())))
            out.append("")  # the entry's paragraphs follow as its body
            # A tagged paragraph's body is the next text; keep it unbroken.
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith("#"):
                if lines[i].strip().startswith(("```", "|")):
                    break
                if not lines[i].strip():
                    if body:
                        break
                else:
                    body.append(lines[i].strip())
                i += 1
            out.pop()
            out.append(line_out(inline(" ".join(body))))
            continue
        elif line.startswith("### "):
            flush()
            out.append(".SS " + inline(line[4:].strip()))
        elif line.startswith("## "):
            flush()
            out.append(".SH " + inline(line[3:].strip()).upper())
        elif stripped.startswith("|"):
            flush()
            block = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                block.append(lines[i])
                i += 1
            rows = table_rows(block)
            for cells in rows[1:]:  # the first row is the header
                out.append(".TP")
                out.append(line_out(inline(cells[0])))
                out.append(line_out(inline(" \u2014 ".join(cells[1:]))))
            continue
        elif re.match(r"^\s*([-*]|\d+\.)\s", line):
            flush()
            m = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)", line)
            indent, mark, text = len(m.group(1)), m.group(2), [m.group(3)]
            i += 1
            while (i < len(lines) and lines[i].strip()
                   and not re.match(r"^\s*([-*]|\d+\.)\s", lines[i])
                   and len(lines[i]) - len(lines[i].lstrip()) > indent):
                text.append(lines[i].strip())
                i += 1
            tag = "\\(bu" if mark in "-*" else mark
            if indent:
                out.append(".RS 4")
            out.append(".IP %s 4" % tag)
            out.append(line_out(inline(" ".join(text))))
            if indent:
                out.append(".RE")
            continue
        else:
            para.append(stripped)
        i += 1
    flush()
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--version", default="")
    ap.add_argument("page")
    ap.add_argument("out")
    args = ap.parse_args()
    with open(args.page, encoding="utf-8") as f:
        text = convert(f.read(), man_name(args.page), args.version)
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    sys.exit(main())
