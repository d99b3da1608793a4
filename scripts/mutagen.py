#!/usr/bin/env python3
"""Mechanical mutants (make mutate-all): every line of the product and the
harness, mutated by rule, not by hand.

Each mutant changes one line of one file, by one operator:

  rel    a relational operator flipped at its boundary: < <=, > >= (C,
         Python; shell: -lt -le -gt -ge, and < > inside (( )))
  eq     an equality flipped: == !=  (shell too: -eq -ne)
  logic  && and || swapped (Python: and, or)
  neg    a condition negated: if (X) -> if (!(X)); shell: if CMD -> if ! CMD
         and back; Python: if X -> if not (X)
  const  an integer constant plus or minus one
  del    a statement deleted: C (void)0;, shell :, Python pass
  ret    a return value changed: C return 0 <-> 1, anything else -> 0;
         shell return/exit 0 <-> 1, other -> 0; true <-> false; Python
         return X -> None, True <-> False
  str    a user-facing string changed: "X" put at the start of the first
         string literal of a line that prints or fails

Lines where no mutant can change behaviour are skipped by rule ("arid"):
blank lines and comments; C preprocessor lines, declarations without an
initializer, lines inside a block comment; shell here-document bodies,
keywords that only close a block (fi, done, esac, }, ;;, then, else, do)
and function headers; Python docstrings, imports, def and class lines,
decorators; and any line continuing a statement begun on an earlier one
for del (deleting half a statement only breaks the build). Operators never
look inside string literals or comments. Where a file has a scope (SCOPES
below), only the lines inside the named functions are mutated.

A mutant is written as a block of tests/mutants.txt's format with the
keys line: (the line it changes; from: is that line, leading blanks
dropped, to: what it becomes) and tests: (the tests whose coverage
reaches the line, from build/coverage/lines.tsv; none: the whole suite).
Its id is FILE:LINE:OPERATOR.N.

Usage: mutagen.py [--coverage DIR] [--equivalent FILE] [--sample N]
                  [--seed S] [--only FILE...] [--list] [-o OUT]
"""

import argparse
import hashlib
import os
import random
import re
import subprocess
import sys

# What is mutated: the product's C, the tests' C helpers and fixture, and
# the harness. Each entry: path (a glob's files), language.
TARGETS = [
    ("fds_example.c", "c"), ("libbpf.c", "c"), ("bpf_object.c", "c"),
    ("tc_pinning.c", "c"), ("sha1.c", "c"), ("bpf_load.c", "c"),
    ("hints.c", "c"), ("lo_net.c", "c"), ("examples/lo_watch.c", "c"),
    ("tests/bpffs_fixture.c", "c"), ("tests/helpers/*.c", "c"),
    ("tests/run.sh", "sh"), ("tests/runner/*.sh", "sh"), ("tests/lib.sh", "sh"),
    ("scripts/kselftest-install.sh", "sh"), ("scripts/mutate.sh", "sh"),
    ("scripts/judge.sh", "sh"),
    ("vm/verdict.sh", "sh"), (".ci/run", "sh"),
    ("bench/gate.sh", "sh"), ("bench/reference.sh", "sh"),
    ("scripts/matrix.py", "py"), ("scripts/ktap_check.py", "py"),
    ("scripts/kernel_mutate.py", "py"),
]
# Files of which only some functions are mutated: .ci/run's verdict code
# (its tally), not the suites it starts. (check-vm's verdict code is all of
# vm/verdict.sh.)
SCOPES = {
    ".ci/run": ["tally", "suite", "report"],
}
GROUPS = {"c": "product C", "sh": "harness", "py": "harness"}
# The self-test of each harness file: a mutant of the file runs it first
# (mutate.sh's first:), since it is the likeliest to kill it; the runner's
# lines reached in its own process (@suite) need the whole suite otherwise.
SELF_TESTS = {
    "tests/run.sh": "runner_selftest", "tests/lib.sh": "lib_selftest",
    "tests/runner/plan.sh": "runner_selftest",
    "tests/runner/test.sh": "runner_selftest",
    "tests/runner/kselftest.sh": "runner_selftest",
    "tests/runner/judge.sh": "runner_selftest",
    "tests/runner/results.sh": "runner_selftest",
    "scripts/ktap_check.py": "runner_selftest",
    "scripts/matrix.py": "matrix_selftest", "scripts/judge.sh": "judges",
    ".ci/run": "judges", "scripts/mutate.sh": "mutate_selftest",
    "vm/verdict.sh": "vm_verdict",
    "scripts/kselftest-install.sh": "kselftest_install",
    "scripts/kernel_mutate.py": "kernel_mutate",
    "bench/gate.sh": "bench_gate", "bench/reference.sh": "bench_gate",
}
TEST_C = re.compile(r"^tests/")


def group_of(path, lang):
    """The score group of a file: product C, test C, harness."""
    if lang == "c" and TEST_C.match(path):
        return "test C"
    return GROUPS[lang]


# ---- masking: string literals and comments become blanks -------------------

def mask_c(line, state):
    """LINE with string and char literals' contents and comments blanked;
    STATE["comment"] carries an open /* */ across lines."""
    out = []
    i, n = 0, len(line)
    quote = None
    while i < n:
        ch = line[i]
        if state["comment"]:
            if line.startswith("*/", i):
                state["comment"] = False
                out.append("  ")
                i += 2
                continue
            out.append(" ")
        elif quote:
            if ch == "\\" and i + 1 < n:
                out.append("  ")
                i += 2
                continue
            if ch == quote:
                quote = None
                out.append(ch)
            else:
                out.append(" ")
        elif line.startswith("//", i):
            out.append(" " * (n - i))
            break
        elif line.startswith("/*", i):
            state["comment"] = True
            out.append("  ")
            i += 2
            continue
        elif ch in "\"'":
            quote = ch
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def mask_sh(line, state):
    """LINE with quoted text blanked and a trailing comment dropped;
    STATE["quote"] carries a quote left open across lines."""
    out = []
    quote = state.get("quote")
    prev = " "
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote == "'":
            if ch == "'":
                quote = None
                out.append(ch)
            else:
                out.append(" ")
        elif quote == '"':
            if ch == "\\" and i + 1 < n:
                out.append("  ")
                i += 2
                prev = " "
                continue
            if ch == '"':
                quote = None
                out.append(ch)
            else:
                out.append(" ")
        elif ch == "\\" and i + 1 < n:
            out.append(line[i:i + 2])
            i += 2
            prev = " "
            continue
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == "#" and prev in " \t;(":
            break
        else:
            out.append(ch)
        prev = ch
        i += 1
    state["quote"] = quote
    return "".join(out).ljust(n)


def mask_py(line):
    """LINE with string literals' contents blanked, a comment dropped."""
    out = []
    quote = None
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if quote:
            if ch == "\\" and i + 1 < n:
                out.append("  ")
                i += 2
                continue
            if ch == quote:
                quote = None
                out.append(ch)
            else:
                out.append(" ")
        elif ch in "'\"":
            quote = ch
            out.append(ch)
        elif ch == "#":
            break
        else:
            out.append(ch)
        i += 1
    return "".join(out).ljust(n)


# ---- arid lines -----------------------------------------------------------

C_TYPES = (r"(?:const\s+|static\s+|unsigned\s+|signed\s+|volatile\s+|"
           r"extern\s+|register\s+|inline\s+)*"
           r"(?:struct\s+\w+|union\s+\w+|enum\s+\w+|void|char|short|int|long|"
           r"bool|float|double|size_t|ssize_t|off_t|pid_t|uid_t|socklen_t|"
           r"FILE|DIR|Elf\w*|GElf_\w+|__[us](?:8|16|32|64)|u(?:8|16|32|64)|"
           r"uint\w*_t|int\w*_t|\w+_t)")
C_DECL = re.compile(r"^\s*" + C_TYPES + r"[\s\*]+(?:const\s+)?\w+\s*"
                    r"(?:\[[^\]]*\]\s*)*(?:,\s*\**\s*\w+\s*(?:\[[^\]]*\]\s*)*)*;\s*$")
C_FUNC_HEAD = re.compile(r"^" + C_TYPES + r"[\s\*]+\w+\s*\(")
SH_CLOSERS = {"fi", "done", "esac", "}", ";;", "then", "else", "do", "{",
              "(", ")", "};", "EOF"}
SH_FUNC = re.compile(r"^\s*(?:function\s+)?[\w-]+\s*\(\)\s*\{?\s*$")
PY_ARID = re.compile(r"^\s*(?:import |from \S+ import |def |class |@|"
                     r"else:|try:|finally:|except\b.*:$)")


# ---- operators -----------------------------------------------------------

def occurrences(masked, regex):
    """The (start, end) of each match of REGEX in the masked line."""
    return [(m.start(1), m.end(1)) for m in regex.finditer(masked)]


C_REL = re.compile(r"(?<![<>\-=!])\s(<=|>=|<|>)\s(?![<>=])")
C_EQ = re.compile(r"(==|!=)")
C_LOGIC = re.compile(r"(&&|\|\|)")
C_NUM = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)(?![\w.])")
C_RET = re.compile(r"^(\s*return\s+)(.+?)(;\s*)$")
C_IF = re.compile(r"^(\s*(?:\}\s*else\s+)?(?:if|while)\s*)\(")
C_STMT = re.compile(r"^\s*(?:[A-Za-z_][\w\.\->\[\]]*\s*(?:\(|=|\+=|-=|\|=|&=|"
                    r"\+\+|--)|\+\+|--|\*\w|\(void\))")
PRINTERS = re.compile(r"\b\w*(?:printf|puts|perror|die|fail|failure|warn|"
                      r"hint|echo|say|emit|print|raise|exit|err|error|usage|"
                      r"msg|report|ktap_line)\b")


def swap(line, start, end, new):
    """LINE with its [START, END) replaced by NEW."""
    return line[:start] + new + line[end:]


UNARY_MINUS = re.compile(r"(?:^|[(\[=,:?!<>&|+*/%]|\breturn)\s*-$")
WAITS = re.compile(r"\b(?:poll|usleep|sleep|nanosleep|timeout|ms_sleep)\b|"
                   r"_MS\b|_US\b")


def const_mutants(line, masked, regex):
    """Each integer literal plus and minus one. Arid by rule: -1 becomes
    -0 only (-2 is the same error or "no fd" wherever it is tested with
    < 0, the convention of every file here; the ret operator changes a
    returned -1 already), and a line that waits (poll, sleep, a timeout,
    a _MS or _US constant) keeps its numbers (a millisecond more or less
    is no behaviour a test can hold)."""
    if WAITS.search(masked):
        return
    for start, end in occurrences(masked, regex):
        text = line[start:end]
        base = 16 if text[:2] in ("0x", "0X") else 10
        value = int(text, base)
        if UNARY_MINUS.search(masked[:start]):
            # -N becomes -(N - 1): -1 becomes 0, written so
            minus = masked.rindex("-", 0, start)
            new = value - 1
            yield swap(line, minus, end, ("-" if new else "") +
                       (hex(new) if base == 16 else str(new)))
            continue
        for new in (value + 1, value - 1):
            if new >= 0:
                yield swap(line, start, end,
                           hex(new) if base == 16 else str(new))


def matching_paren(masked, open_at):
    """The index of the parenthesis closing the one at OPEN_AT, or -1."""
    depth = 0
    for i in range(open_at, len(masked)):
        if masked[i] == "(":
            depth += 1
        elif masked[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return -1


def string_mutant(line, masked):
    """The first string literal of LINE with an X in front, if LINE prints
    or fails."""
    if not PRINTERS.search(masked):
        return None
    for i, ch in enumerate(masked):
        if ch in "\"'" and line[i] == ch:
            return line[:i + 1] + "X" + line[i + 1:]
    return None


def c_mutants(line, masked, prev_end):
    """(operator, new line) for one line of C."""
    for op, regex, table in (
            ("rel", C_REL, {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}),
            ("eq", C_EQ, {"==": "!=", "!=": "=="}),
            ("logic", C_LOGIC, {"&&": "||", "||": "&&"})):
        for start, end in occurrences(masked, regex):
            yield op, swap(line, start, end, table[line[start:end]])
    m = C_IF.match(masked)
    if m:
        close = matching_paren(masked, m.end() - 1)
        if close > 0:
            yield "neg", (line[:m.end()] + "!(" + line[m.end():close] + ")" +
                          line[close:])
    m = C_RET.match(masked)
    if m:
        value = line[m.start(2):m.end(2)].strip()
        new = {"0": "1", "1": "0", "true": "false", "false": "true"}.get(
            value, "0")
        yield "ret", line[:m.start(2)] + new + line[m.end(2):]
    for new in const_mutants(line, masked, C_NUM):
        yield "const", new
    if (C_STMT.match(masked) and masked.rstrip().endswith(";") and
            masked.count("(") == masked.count(")") and prev_end and
            not C_DECL.match(masked) and not C_FUNC_HEAD.match(masked)):
        indent = line[:len(line) - len(line.lstrip())]
        yield "del", indent + "(void)0;"
    new = string_mutant(line, masked)
    if new:
        yield "str", new


SH_TESTOPS = re.compile(r"\s(-eq|-ne|-lt|-le|-gt|-ge)\s")
SH_EQ = re.compile(r"\s(==|!=)\s")
SH_LOGIC = re.compile(r"(&&|\|\|)")
SH_ARITH = re.compile(r"\(\((.*?)\)\)")
SH_NUM = re.compile(r"(?<![\w.$#&<>/:-])(\d+)(?![\w.<>/:])")
SH_IF = re.compile(r"^(\s*(?:if|elif|while|until)\s+)(!\s+)?(?=\S)")
SH_RET = re.compile(r"^(\s*(?:return|exit)\s+)(\S+)(\s*(?:;.*)?)$")
SH_BOOL = re.compile(r"(?:^|[;&|]\s*)(true|false)\s*$")
SH_KEYWORD = re.compile(r"^\s*(?:if|elif|else|fi|for|while|until|do|done|"
                        r"case|esac|then|local|declare|readonly|export|"
                        r"function|select|return|exit|shift|set|trap|"
                        r"shopt|\}|\{|\(|\)|\[\[ .* \]\]$|[^\s()]*\))")
SH_ASSIGN_OP = {"-eq": "-ne", "-ne": "-eq", "-lt": "-le", "-le": "-lt",
                "-gt": "-ge", "-ge": "-gt"}


def sh_mutants(line, masked, prev_end):
    """(operator, new line) for one line of bash."""
    for start, end in occurrences(masked, SH_TESTOPS):
        text = line[start:end]
        yield ("eq" if text in ("-eq", "-ne") else "rel",
               swap(line, start, end, SH_ASSIGN_OP[text]))
    for start, end in occurrences(masked, SH_EQ):
        yield "eq", swap(line, start, end,
                         "!=" if line[start:end] == "==" else "==")
    for start, end in occurrences(masked, SH_LOGIC):
        if masked[start - 1:start] == "(" or masked[end:end + 1] == ")":
            continue
        yield "logic", swap(line, start, end,
                            "||" if line[start:end] == "&&" else "&&")
    for m in SH_ARITH.finditer(masked):
        inner = m.group(1)
        for r in re.finditer(r"(?<![<>=!])(<=|>=|<|>)(?![<>=])", inner):
            start, end = m.start(1) + r.start(1), m.start(1) + r.end(1)
            table = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
            yield "rel", swap(line, start, end, table[line[start:end]])
    m = SH_IF.match(masked)
    if m:
        if m.group(2):
            yield "neg", line[:m.start(2)] + line[m.end(2):]
        else:
            yield "neg", line[:m.end()] + "! " + line[m.end():]
    m = SH_RET.match(masked)
    if m:
        value = line[m.start(2):m.end(2)]
        new = {"0": "1", "1": "0"}.get(value, "0")
        if new != value:
            yield "ret", line[:m.start(2)] + new + line[m.end(2):]
    for new in const_mutants(line, masked, SH_NUM):
        yield "const", new
    m = SH_BOOL.search(masked)
    if m:
        yield "ret", swap(line, m.start(1), m.end(1),
                          "false" if m.group(1) == "true" else "true")
    stripped = masked.strip()
    if (prev_end and not SH_KEYWORD.match(masked) and ";;" not in masked and
            not stripped.endswith(("\\", "|", "&&", "||", "(", "{", "do",
                                   "then")) and
            "<<" not in masked and masked.count("(") == masked.count(")") and
            not re.search(r"\)\s*$", stripped)):
        indent = line[:len(line) - len(line.lstrip())]
        yield "del", indent + ":"
    new = string_mutant(line, masked)
    if new:
        yield "str", new


PY_REL = re.compile(r"\s(<=|>=|<|>)\s")
PY_EQ = re.compile(r"\s(==|!=|is not|is)\s")
PY_LOGIC = re.compile(r"\s(and|or)\s")
PY_NUM = re.compile(r"(?<![\w.])(\d+)(?![\w.])")
PY_IF = re.compile(r"^(\s*(?:if|elif|while)\s+)(.*?)(:\s*)$")
PY_RET = re.compile(r"^(\s*return\s+)(.+?)\s*$")
PY_STMT = re.compile(r"^\s*(?:[A-Za-z_][\w\.\[\]]*\s*(?:\(|=|\+=|-=)|"
                     r"print\(|sys\.)")


def py_mutants(line, masked, prev_end):
    """(operator, new line) for one line of Python."""
    table = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=",
             "!=": "==", "is": "is not", "is not": "is", "and": "or",
             "or": "and"}
    for op, regex in (("rel", PY_REL), ("eq", PY_EQ), ("logic", PY_LOGIC)):
        for start, end in occurrences(masked, regex):
            yield op, swap(line, start, end, table[line[start:end]])
    m = PY_IF.match(masked)
    if m:
        yield "neg", (line[:m.start(2)] + "not (" +
                      line[m.start(2):m.end(2)] + ")" + line[m.end(2):])
    for new in const_mutants(line, masked, PY_NUM):
        yield "const", new
    m = PY_RET.match(masked)
    if m:
        value = line[m.start(2):m.end(2)]
        new = {"True": "False", "False": "True", "None": "0"}.get(
            value, "None")
        yield "ret", line[:m.start(2)] + new + line[m.end(2):]
    if (prev_end and PY_STMT.match(masked) and
            masked.count("(") == masked.count(")") and
            masked.count("[") == masked.count("]") and
            not masked.rstrip().endswith(("\\", ",", ":"))):
        indent = line[:len(line) - len(line.lstrip())]
        yield "del", indent + "pass"
    new = string_mutant(line, masked)
    if new:
        yield "str", new


# ---- files ------------------------------------------------------------------

HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")


def sh_scope_lines(lines, functions):
    """The line numbers (from 1) inside the named shell functions."""
    keep = set()
    inside = False
    for num, line in enumerate(lines, 1):
        m = re.match(r"^([\w-]+)\s*\(\)", line)
        if m:
            inside = m.group(1) in functions
        elif inside and line.rstrip() == "}":
            inside = False
        elif inside:
            keep.add(num)
    return keep


def walk_c(lines):
    """(line number, line, masked, statement starts here) of C code."""
    state = {"comment": False}
    prev_end = True
    for num, line in enumerate(lines, 1):
        masked = mask_c(line, state)
        code = masked.strip()
        if not code:
            continue
        if code.startswith("#"):
            prev_end = True
            continue
        arid = bool(C_DECL.match(masked) or C_FUNC_HEAD.match(masked) or
                    code in ("{", "}", "};", "else", "} else {", "do"))
        if not arid:
            yield num, line, masked, prev_end
        prev_end = code[-1] in ";{}:)"


def walk_sh(lines):
    """(line number, line, masked, command starts here) of bash."""
    state = {}
    prev_end = True
    depth = 0
    heredoc = None
    for num, line in enumerate(lines, 1):
        if heredoc:
            if line.strip() == heredoc:
                heredoc = None
            continue
        was_quoted = state.get("quote")
        masked = mask_sh(line, state)
        code = masked.strip()
        m = HEREDOC.search(masked)
        if m and not was_quoted:
            heredoc = m.group(1)
        if not code or was_quoted or num == 1 and line.startswith("#!"):
            continue
        arid = (code in SH_CLOSERS or SH_FUNC.match(masked) or
                re.match(r"^(?:local|declare|readonly)\s+[\w\s-]*$", code))
        if not arid:
            yield num, line, masked, prev_end and depth == 0
        depth = max(0, depth + masked.count("(") - masked.count(")"))
        prev_end = not code.endswith(("\\", "|", "&&", "||"))


def walk_py(lines):
    """(line number, line, masked, statement starts here) of Python."""
    depth = 0
    prev_end = True
    triple = None
    for num, line in enumerate(lines, 1):
        if triple:
            if triple in line:
                triple = None
            continue
        stripped = line.strip()
        for q in ('"""', "\'\'\'"):
            if stripped.startswith(q) or (q in line and line.count(q) == 1):
                if line.count(q) == 1:
                    triple = q
                break
        else:
            q = None
        if q:
            continue
        masked = mask_py(line)
        code = masked.strip()
        if not code or num == 1 and line.startswith("#!"):
            continue
        if not PY_ARID.match(masked):
            yield num, line, masked, prev_end and depth == 0
        depth = max(0, depth + sum(masked.count(c) for c in "([{") -
                    sum(masked.count(c) for c in ")]}"))
        prev_end = not code.endswith("\\")


WALKERS = {"c": (walk_c, c_mutants), "sh": (walk_sh, sh_mutants),
           "py": (walk_py, py_mutants)}


def file_mutants(top, path, lang):
    """Every mutant of one file: dicts of file, line, from, to, op, id."""
    with open(os.path.join(top, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    walk, make = WALKERS[lang]
    scope = None
    if path in SCOPES:
        scope = sh_scope_lines(lines, SCOPES[path])
    for num, line, masked, starts in walk(lines):
        if scope is not None and num not in scope:
            continue
        seen = set()
        count = {}
        for op, new in make(line, masked, starts):
            if new == line or new in seen:
                continue
            seen.add(new)
            count[op] = count.get(op, 0) + 1
            yield {"file": path, "line": num, "from": line.strip(),
                   "to": new.strip(), "indent_to": new, "op": op,
                   "id": "%s:%d:%s%d" % (path, num, op, count[op]),
                   "group": group_of(path, lang)}


def targets(top, only):
    """(path, language) of every file to mutate that exists."""
    import glob
    for pattern, lang in TARGETS:
        for path in sorted(glob.glob(os.path.join(top, pattern))):
            rel = os.path.relpath(path, top)
            if only and rel not in only:
                continue
            yield rel, lang


def read_blocks(path):
    """The "key: value" blocks of a list in tests/mutants.txt's format."""
    blocks, cur = [], {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if line.startswith("#"):
                continue
            if not line.strip():
                if cur:
                    blocks.append(cur)
                cur = {}
                continue
            key, _, value = line.partition(":")
            cur[key.strip()] = value.lstrip(" \t")
    if cur:
        blocks.append(cur)
    return blocks


def read_coverage(directory):
    """{(file, line): [test...]} from DIR/lines.tsv, or None."""
    path = os.path.join(directory, "lines.tsv")
    if not os.path.exists(path):
        return None
    reached = {}
    with open(path, encoding="utf-8") as f:
        for row in f:
            parts = row.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[1].isdigit():
                reached[(parts[0], int(parts[1]))] = parts[2].split(",")
    return reached


def read_sums(path):
    """{file: sha1} from a sha1sum listing."""
    sums = {}
    with open(path, encoding="utf-8") as f:
        for row in f:
            digest, _, name = row.rstrip("\n").partition("  ")
            sums[name] = digest
    return sums


def sha1_of(top, name):
    """The sha1 of a file of the work tree, or None."""
    try:
        with open(os.path.join(top, name), "rb") as f:
            return hashlib.sha1(f.read()).hexdigest()
    except OSError:
        return None


def coverage_current(top, directory, files):
    """Whether DIR's map is of the whole suite, measured on each of FILES
    as the work tree has it and on the tests as they are (DIR/stamp,
    DIR/stamp.tests, no DIR/partial)."""
    stamp = os.path.join(directory, "stamp")
    tests = os.path.join(directory, "stamp.tests")
    if (not os.path.exists(stamp) or not os.path.exists(tests) or
            os.path.exists(os.path.join(directory, "partial"))):
        return False
    sums = read_sums(stamp)
    if any(sums.get(name) != sha1_of(top, name) for name in files):
        return False
    sums = read_sums(tests)
    now = subprocess.run(["git", "-C", top, "ls-files", "-c", "-o",
                          "--exclude-standard", "--", "tests"],
                         capture_output=True, text=True, check=False)
    if sorted(sums) != sorted(now.stdout.split("\n")[:-1]):
        return False
    return all(sums[name] == sha1_of(top, name) for name in sums)


def write_block(out, m):
    """One mutant as a block of the list."""
    out.write("id: %s\nfile: %s\nline: %d\nfrom: %s\nto: %s\n"
              "why: mechanical (%s)\n" % (m["id"], m["file"], m["line"],
                                           m["from"], m["to"], m["op"]))
    if m.get("tests") is not None:
        out.write("tests: %s\n" % " ".join(m["tests"]))
        first = SELF_TESTS.get(m["file"])
        if first and (not m["tests"] or first in m["tests"]):
            out.write("first: %s\n" % first)
    if m.get("equivalent"):
        out.write("equivalent: %s\n" % m["equivalent"])
    out.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--coverage", help="make coverage's directory")
    ap.add_argument("--equivalent", help="the list of equivalent mutants")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", default="0")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--groups", default="",
                    help="the groups to mutate, comma-separated: product C,"
                    " test C, harness (default: all)")
    ap.add_argument("--list", action="store_true",
                    help="count the mutants per file and operator only")
    ap.add_argument("--coverage-current", metavar="DIR",
                    help="exit 0 when DIR's map measured the files as they are")
    ap.add_argument("-o", "--out", default="-")
    args = ap.parse_args()
    files = list(targets(args.top, set(args.only)))
    if args.only and len(files) != len(set(args.only)):
        sys.exit("mutagen: not a file to mutate: %s" %
                 " ".join(sorted(set(args.only) - {f for f, _ in files})))
    if args.coverage_current:
        current = coverage_current(args.top, args.coverage_current,
                                   [f for f, _ in files])
        return 0 if current else 1
    if args.groups:
        groups = set(g.strip() for g in args.groups.split(","))
        unknown = groups - {"product C", "test C", "harness"}
        if unknown:
            sys.exit("mutagen: no group %s" % ", ".join(sorted(unknown)))
        files = [(f, lang) for f, lang in files
                 if group_of(f, lang) in groups]
    mutants = [m for path, lang in files
               for m in file_mutants(args.top, path, lang)]
    if args.list:
        counts = {}
        for m in mutants:
            counts.setdefault(m["file"], {}).setdefault(m["op"], 0)
            counts[m["file"]][m["op"]] += 1
        for name in sorted(counts):
            ops = counts[name]
            print("%-32s %5d  %s" % (name, sum(ops.values()), " ".join(
                "%s %d" % (op, n) for op, n in sorted(ops.items()))))
        print("%-32s %5d" % ("total", len(mutants)))
        return 0
    equivalent = {}
    if args.equivalent and os.path.exists(args.equivalent):
        for b in read_blocks(args.equivalent):
            if not all(b.get(k) for k in ("file", "from", "to", "equivalent")):
                sys.exit("mutagen: %s: a block needs file, from, to and "
                         "equivalent: %r" % (args.equivalent, b))
            equivalent[(b["file"], b["from"], b["to"])] = b["equivalent"]
    used = set()
    for m in mutants:
        key = (m["file"], m["from"], m["to"])
        if key in equivalent:
            m["equivalent"] = equivalent[key]
            used.add(key)
    # only the files mutated here can tell an argument stale
    mutated = {f for f, _ in files}
    stale = sorted(k for k in set(equivalent) - used if k[0] in mutated)
    for key in stale:
        print("mutagen: stale equivalent (no such mutant): %s: %s -> %s" %
              key, file=sys.stderr)
    if args.coverage:
        reached = read_coverage(args.coverage)
        if reached is None:
            sys.exit("mutagen: no %s/lines.tsv: run make coverage" %
                     args.coverage)
        for m in mutants:
            tests = reached.get((m["file"], m["line"]), [])
            m["tests"] = [] if "@suite" in tests else sorted(tests)
            m["reached"] = bool(tests)
    if args.sample and args.sample < len(mutants):
        mutants = random.Random(args.seed).sample(mutants, args.sample)
        mutants.sort(key=lambda m: (m["file"], m["line"], m["id"]))
    out = sys.stdout if args.out == "-" else open(args.out, "w",
                                                   encoding="utf-8")
    out.write("# mechanical mutants: scripts/mutagen.py %s\n\n" %
              " ".join(sys.argv[1:]))
    for m in mutants:
        write_block(out, m)
    if out is not sys.stdout:
        out.close()
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
