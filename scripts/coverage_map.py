#!/usr/bin/python3
"""make coverage's bookkeeping (scripts/coverage.sh runs it): which lines
each test reached, from the suite's gcov counts, bash traces and
python3-coverage data, mapped back to the files git knows.

  coverage_map.py prepare --tree T --out O NAME...
        an empty, world-writable .gcda under O/gcov/NAME for every .gcno of
        T, so that a program a test runs as another user (nobody) adds its
        counts as root's do
  coverage_map.py gcov --tree T --out O
        gcov's JSON: of T's .gcno files alone (every executable C line,
        O/gcov-executable.json) and of each O/gcov/NAME (O/gcov-json/NAME.json);
        counts of another build of a file than T's (a test's make clean and
        make in a copy) are reported and dropped
  coverage_map.py map --tree T --out O --files LIST [--tests LIST] [-v]
        O/lines.tsv and O/executable.tsv (formats below); --no-python
        leaves Python out (no python3-coverage needed then)
  coverage_map.py summary --out O [--gcovr JSON]
        O/summary.txt (and stdout): per file and per group, branches from
        gcovr's --json-summary

LIST: the repository's files, one a line (git ls-files in the tree the
suite ran in); --tests: the test names the run had (any other owner of
data is reported and dropped).

Inputs under O, each named by its test (run.sh's name, or "@suite" for
the runner's own process):
  trace/TEST~PID~RANDOM  bash's xtrace of one bash process, PS4 being
                         "+<TAB>${BASH_SOURCE[0]}<TAB>${LINENO}<TAB>${FUNCNAME[0]}<TAB>"
  gcov-json/TEST.json    gcov -t -j of the test's .gcda files
  python/TEST/cov.*      python3-coverage data files (parallel mode)
A traced, measured or counted file is the repository's file whose path is
the longest suffix of it that git knows: a copy of tests/run.sh in a
scratch tree is tests/run.sh. A traced bash file counts as that copy only
when most of its traced commands show their first word on the lines they
map to: a test's own made-up tests/run.sh (a stand-in runner) is no copy.

Outputs:
  lines.tsv       FILE<TAB>LINE<TAB>TEST[,TEST...]: each line some test
                  reached, sorted by file then line; tests sorted
  executable.tsv  FILE<TAB>LINE: each line counted as executable
                  (lines.tsv only holds lines of this file)
What is executable:
  C       the lines gcov counts (lines of code that compiled to blocks)
  Python  coverage.py's statements (the first line of each)
  bash    the first line of each command line that runs something: a
          command line being the physical lines one command, pipeline or
          list spans (continued by a backslash, a trailing && || or |, an
          open quote, $(...), [[ ]], (( )), an array, a here-document);
          it runs something unless it is blank, a comment, or only
          keywords and braces (then, else, do, fi, done, esac, ;;, {, },
          a subshell's parentheses, with their redirections), a case
          pattern, or a function header. bash may trace a command at any
          line of its command line; each trace counts for the first.
          The body of a step (lib.sh: step NAME ... 'BODY', quotes with
          nothing to expand) is code too: its command lines are executable,
          and what lib.sh's step_run evals of it (bash traces it as
          lib.sh's lines after that eval) counts for the body's own lines.
          Other eval'd text (a line outside the function bash names) is
          not counted anywhere.
"""

import argparse
import bisect
import collections
import glob
import json
import os
import re
import subprocess
import sys

SUITE = "@suite"
# A trace line: PS4's "+<TAB>SOURCE<TAB>LINENO<TAB>FUNCNAME<TAB>", then the
# command (the leading "+" repeated for each level of indirection).
TRACE_RE = re.compile(r"^\++\t([^\t\n]+)\t(\d+)\t([^\t\n]*)\t(.*)$")


def die(msg):
    print("coverage_map: " + msg, file=sys.stderr)
    sys.exit(1)


class Repo:
    """The repository's files, and the suffix rule mapping a path to one."""

    def __init__(self, files):
        self.files = set(files)
        self._memo = {}

    def map(self, path):
        if path in self._memo:
            return self._memo[path]
        parts = os.path.normpath(path).split("/") if path else []
        # nothing above a "..": a relative path's top is unknown
        while ".." in parts:
            parts = parts[parts.index("..") + 1:]
        parts = [p for p in parts if p not in ("", ".")]
        found = None
        for k in range(len(parts)):
            cand = "/".join(parts[k:])
            if cand in self.files:
                found = cand
                break
        self._memo[path] = found
        return found


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def first_line(path):
    try:
        with open(path, "rb") as f:
            return f.readline(200).decode("utf-8", "replace")
    except OSError:
        return ""


def is_shell(tree, name):
    """lint.sh's rule: *.sh, or a first line that runs a shell."""
    if name.endswith(".sh"):
        return True
    return re.match(r"^#!.*(/|env )(ba|da|busybox )?sh", first_line(os.path.join(tree, name))) is not None


def is_python(tree, name):
    if name.endswith(".py"):
        return True
    return re.match(r"^#!.*python", first_line(os.path.join(tree, name))) is not None


# ---- bash: command lines, functions, step bodies ---------------------------

class Tok:
    __slots__ = ("kind", "text", "l0", "l1")

    def __init__(self, kind, text, l0, l1):
        self.kind, self.text, self.l0, self.l1 = kind, text, l0, l1


REDIRS = ("&>>", "<<<", "<<-", "&>", "<<", "<>", "<&", ">&", ">>", ">|", "<", ">")
OPS = (";;&", ";;", ";&", "&&", "||", "|&", ";", "&", "|", "(", ")")
ARRAY_ASSIGN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
REDIR_PREFIX = re.compile(r"[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\}")


class Lexer:
    """Just enough of bash's grammar to tell where a command line ends."""

    def __init__(self, text, base):
        self.t = text
        self.n = len(text)
        self.base = base
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, off):
        return self.base + bisect.bisect_right(self.starts, off) - 1

    def squote(self, i):
        j = self.t.find("'", i + 1)
        return self.n if j < 0 else j + 1

    def ansi(self, i):
        """$'...' from its quote at i."""
        i += 1
        while i < self.n and self.t[i] != "'":
            i += 2 if self.t[i] == "\\" else 1
        return min(i + 1, self.n)

    def backtick(self, i):
        i += 1
        while i < self.n and self.t[i] != "`":
            i += 2 if self.t[i] == "\\" else 1
        return min(i + 1, self.n)

    def dquote(self, i):
        i += 1
        while i < self.n:
            c = self.t[i]
            if c == "\\":
                i += 2
            elif c == '"':
                return i + 1
            elif c == "$":
                i = self.dollar(i)
            elif c == "`":
                i = self.backtick(i)
            else:
                i += 1
        return self.n

    def dollar(self, i):
        nxt = self.t[i + 1:i + 2]
        if nxt == "(":
            return self.balanced(i + 1, "(", ")")
        if nxt == "{":
            return self.balanced(i + 1, "{", "}")
        if nxt == "'":
            return self.ansi(i + 1)
        if nxt == '"':
            return self.dquote(i + 1)
        return i + 1

    def balanced(self, i, op, cl):
        """From the opening op at i to after its closing cl."""
        depth = 0
        while i < self.n:
            c = self.t[i]
            if c == "\\":
                i += 2
                continue
            if c == "'" and op == "(":
                i = self.squote(i)
                continue
            if c == "#" and op == "(" and self.t[i - 1] in " \t\n(;|&":
                # a comment (an array's, a $( )'s), quotes and all
                j = self.t.find("\n", i)
                i = self.n if j < 0 else j
                continue
            if c == '"':
                i = self.dquote(i)
                continue
            if c == "`":
                i = self.backtick(i)
                continue
            if c == "$" and self.t[i + 1:i + 2] in ("(", "{", "'"):
                i = self.dollar(i)
                continue
            if c == op:
                depth += 1
            elif c == cl:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        return self.n

    def word(self, i, dbl):
        start = i
        if dbl and self.t.startswith("]]", i):
            return i + 2
        while i < self.n:
            c = self.t[i]
            if c in " \t\n":
                break
            if not dbl and c in ";&|()<>":
                if c == "(" and i > start and self.t[i - 1] in "?*+@!":
                    i = self.balanced(i, "(", ")")
                    continue
                if c == "(" and ARRAY_ASSIGN.fullmatch(self.t[start:i]):
                    i = self.balanced(i, "(", ")")
                    continue
                if c in "<>" and i == start and self.t[i + 1:i + 2] == "(":
                    i = self.balanced(i + 1, "(", ")")
                    continue
                break
            if c == "\\":
                i += 2
            elif c == "'":
                i = self.squote(i)
            elif c == '"':
                i = self.dquote(i)
            elif c == "$":
                i = self.dollar(i)
            elif c == "`":
                i = self.backtick(i)
            else:
                i += 1
        return min(i, self.n)

    def heredoc(self, i, delim, strip):
        """The body from offset i (a line's start): offset after its last line."""
        while i < self.n:
            j = self.t.find("\n", i)
            end = self.n if j < 0 else j
            row = self.t[i:end]
            i = end + 1
            if (row.lstrip("\t") if strip else row) == delim:
                break
        return min(i, self.n)

    def tokens(self):
        toks = []
        i = 0
        dbl = False
        pending = []        # here-documents to read after this line
        want_delim = None   # the next word is a here-document's delimiter
        while i < self.n:
            c = self.t[i]
            if c in " \t":
                i += 1
                continue
            if c == "\\" and self.t[i + 1:i + 2] == "\n":
                i += 2
                continue
            if c == "\n":
                i += 1
                if dbl:
                    continue
                toks.append(Tok("NL", "\n", self.line(i - 1), self.line(i - 1)))
                for delim, strip in pending:
                    end = self.heredoc(i, delim, strip)
                    toks.append(Tok("HEREDOC", "", self.line(i), self.line(max(end - 1, i))))
                    i = end
                pending = []
                continue
            if c == "#":
                j = self.t.find("\n", i)
                i = self.n if j < 0 else j
                continue
            if not dbl:
                if self.t.startswith("((", i):
                    end = self.balanced(i, "(", ")")
                    toks.append(Tok("WORD", self.t[i:end], self.line(i), self.line(end - 1)))
                    i = end
                    continue
                op = next((r for r in REDIRS if self.t.startswith(r, i)), None)
                if op and not self.t.startswith("(", i + 1):
                    toks.append(Tok("REDIR", op, self.line(i), self.line(i)))
                    if op in ("<<", "<<-"):
                        want_delim = op == "<<-"
                    i += len(op)
                    continue
                op = next((o for o in OPS if self.t.startswith(o, i)), None)
                if op:
                    toks.append(Tok("OP", op, self.line(i), self.line(i)))
                    i += len(op)
                    continue
            end = self.word(i, dbl)
            if end == i:
                end = i + 1
            text = self.t[i:end]
            # 2>, {fd}>&-: a redirection's descriptor
            if not dbl and end < self.n and self.t[end] in "<>" and REDIR_PREFIX.fullmatch(text):
                op = next(r for r in REDIRS if self.t.startswith(r, end))
                toks.append(Tok("REDIR", text + op, self.line(i), self.line(end)))
                if op in ("<<", "<<-"):
                    want_delim = op == "<<-"
                i = end + len(op)
                continue
            toks.append(Tok("WORD", text, self.line(i), self.line(end - 1)))
            i = end
            if want_delim is not None:
                pending.append((re.sub(r"[\"'\\]", "", text), want_delim))
                want_delim = None
            elif text == "[[" and not dbl:
                dbl = True
            elif text == "]]" and dbl:
                dbl = False
        return toks


QUOTED = re.compile(r"'[^']*'|\"[^\"$`\\]*\"")


def literal(word):
    """A word's value when it is quotes only, with nothing to expand
    ('...'"'"'...': a body with a quote in it), else None."""
    pieces = QUOTED.findall(word)
    if not pieces or "".join(pieces) != word:
        return None
    return "".join(p[1:-1] for p in pieces)


STEP_FLAGS_WITH_ARG = ("--needs", "--findings")
STEP_FLAGS = ("--host-only", "--kernel-independent")
OPENERS = ("then", "do", "else", "{", "!", "time", "if", "elif", "while", "until")
CLOSERS = ("fi", "done", "esac", "}")


class Script:
    """One bash file: its command lines, functions, evals and step bodies.

    commands: [first, last, runs] per command line; functions: name ->
    [(first, last)]; evals: (line, function) of each eval command; steps:
    (first, last, body_line, body) of each step call with a literal body;
    body_commands: the body's command lines, in the file's numbering.
    """

    def __init__(self, text, base=1, bodies=True):
        self.lines = text.split("\n")
        self.commands = []
        self.functions = collections.defaultdict(list)
        self.evals = []
        self.steps = []
        self.body_commands = []
        self._parse(Lexer(text, base).tokens())
        if bodies:
            for _first, _last, line, body in self.steps:
                inner = Script(body, line, bodies=False)
                self.body_commands.extend(inner.commands)
        self.direct = self._index(self.commands)
        self.inner = self._index(self.body_commands)
        self.span = {}
        for first, last, _runs in self.commands + self.body_commands:
            self.span[first] = max(last, self.span.get(first, first))
        self.step_at = {}
        for step in self.steps:
            for line in range(step[0], step[1] + 1):
                self.step_at[line] = step

    @staticmethod
    def _index(commands):
        index = {}
        for first, last, runs in commands:
            for line in range(first, last + 1):
                index[line] = first if runs else None
        return index

    def executable(self):
        return sorted({c[0] for c in self.commands + self.body_commands if c[2]})

    def _parse(self, toks):
        cur = None              # the command line being read
        cmd_pos = True          # the next word starts a command
        redir_target = False    # the next word is a redirection's target
        cont = False            # the line ended in && || | |&
        stack = []              # open { ( case: [kind, function, first line, in pattern]
        pending_func = None     # (name, line) of a header awaiting its body
        case_subject = 0        # words until case's "in"
        args = None             # the words of a step call
        func_kw = False         # after "function"

        def in_pattern():
            return bool(stack) and stack[-1][0] == "case" and stack[-1][3]

        def enclosing():
            for frame in reversed(stack):
                if frame[1]:
                    return frame[1]
            return ""

        def end_command():
            nonlocal args
            if args is not None:
                self._step(args)
            args = None

        def close(frame_kind, line):
            while stack:
                frame = stack.pop()
                if frame[1]:
                    self.functions[frame[1][0]].append((frame[1][1], line))
                if frame[0] == frame_kind:
                    return

        k = 0
        while k < len(toks):
            t = toks[k]
            k += 1
            if t.kind == "HEREDOC":
                target = cur if cur is not None else (self.commands[-1] if self.commands else None)
                if target is not None:
                    target[1] = max(target[1], t.l1)
                continue
            if t.kind == "NL":
                if cur is not None and not cont:
                    end_command()
                    self.commands.append(cur)
                    cur = None
                    cmd_pos, redir_target = True, False
                cont = False
                continue
            if cur is None:
                cur = [t.l0, t.l1, False]
            cur[1] = max(cur[1], t.l1)
            cont = t.kind == "OP" and t.text in ("&&", "||", "|", "|&")
            if t.kind == "REDIR":
                redir_target = True
                continue
            if t.kind == "OP":
                if t.text in ("&&", "||", "|", "|&", ";", "&"):
                    if not in_pattern():
                        end_command()
                        cmd_pos = True
                elif t.text in (";;", ";&", ";;&"):
                    end_command()
                    if stack and stack[-1][0] == "case":
                        stack[-1][3] = True
                    cmd_pos = False
                elif t.text == "(":
                    if in_pattern():
                        continue
                    if cmd_pos:
                        stack.append(["(", pending_func, t.l0, False])
                        pending_func = None
                elif t.text == ")":
                    if in_pattern():
                        stack[-1][3] = False
                        cmd_pos = True
                        continue
                    end_command()
                    close("(", t.l1)
                    cmd_pos = False
                continue
            # a word
            if redir_target:
                redir_target = False
                continue
            if in_pattern():
                if t.text == "esac":
                    close("case", t.l1)
                    cmd_pos = False
                continue
            if case_subject:
                case_subject -= 1
                if case_subject == 0:
                    stack.append(["case", None, t.l0, True])
                continue
            if func_kw:
                func_kw = False
                pending_func = (t.text, cur[0])
                if k + 1 < len(toks) and toks[k].text == "(" and toks[k + 1].text == ")":
                    k += 2
                cmd_pos = True
                continue
            if not cmd_pos:
                if args is not None:
                    args.append(t)
                continue
            w = t.text
            if w in CLOSERS:
                end_command()
                if w == "}":
                    close("{", t.l1)
                elif w == "esac":
                    close("case", t.l1)
                cmd_pos = False
                continue
            if w in OPENERS:
                if w == "{":
                    stack.append(["{", pending_func, t.l0, False])
                    pending_func = None
                continue
            if w == "function":
                func_kw = True
                continue
            if k + 1 < len(toks) and toks[k].kind == "OP" and toks[k].text == "(" \
                    and toks[k + 1].kind == "OP" and toks[k + 1].text == ")":
                pending_func = (w, cur[0])
                k += 2
                continue
            cur[2] = True
            cmd_pos = False
            if w == "case":
                case_subject = 2
            elif w == "eval":
                self.evals.append((cur[0], enclosing()))
            elif w == "step":
                args = [t]
        if cur is not None:
            end_command()
            self.commands.append(cur)

    def _step(self, args):
        """A step call (args: its words, "step" first): its literal body."""
        i = 2
        while i < len(args):
            a = args[i].text
            if a == "--findings":
                return
            if a in STEP_FLAGS_WITH_ARG:
                i += 2
            elif a in STEP_FLAGS:
                i += 1
            else:
                break
        if i >= len(args):
            return
        body = args[i]
        value = literal(body.text)
        if value is not None:
            self.steps.append((args[0].l0, args[-1].l1, body.l0, value))

    def text_of(self, first):
        """The text of the command line that begins at line first."""
        return "\n".join(self.lines[first - 1:self.span.get(first, first)])

    def function_has(self, name, line):
        return any(a <= line <= b for a, b in self.functions.get(name, ()))


class ShellFiles:
    """The repository's bash files, parsed when first needed."""

    def __init__(self, tree):
        self.tree = tree
        self.parsed = {}

    def get(self, name):
        if name not in self.parsed:
            try:
                with open(os.path.join(self.tree, name), encoding="utf-8", errors="replace") as f:
                    self.parsed[name] = Script(f.read())
            except OSError:
                self.parsed[name] = None
        return self.parsed[name]


LIB = "tests/lib.sh"


def step_eval_line(lib):
    """The line of step_run's eval of a step's body in lib.sh, or None."""
    if lib is None:
        return None
    for line, func in lib.evals:
        if func and func[0] == "step_run":
            return line
    return None


ASSIGN_WORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^]]*\])?\+?=")


def command_word(cmd):
    """What of a traced command its source must show: its first word (an
    assignment's name)."""
    words = cmd.split(None, 1)
    if not words:
        return ""
    m = ASSIGN_WORD.match(words[0])
    return m.group(1) if m else words[0].strip("'\"")


def read_trace(path, repo, shells, hits, stats):
    """One bash process's trace: hits.add((file, line)) for each line it
    ran. A traced file is taken for a copy of the repository's file its
    path ends as only when at least half of its commands show their first
    word in the lines they map to: a test's made-up tests/run.sh is not."""
    by_source = collections.defaultdict(list)
    for src, target, cmd in trace_records(path, repo, shells, stats):
        by_source[src].append((target, command_word(cmd)))
    for src, records in by_source.items():
        shown = sum(1 for (name, line), word in records
                    if word and word in shells.get(name).text_of(line))
        if shown == 0 or 2 * shown < len(records):
            stats["foreign"] += len(records)
            stats["foreign:" + src] += len(records)
            continue
        hits.update(target for target, _word in records)


def trace_records(path, repo, shells, stats):
    """(traced path, (file, line), command) of each traced command that maps
    to a command line of a repository file."""
    lib = shells.get(LIB) if LIB in repo.files else None
    eval_line = step_eval_line(lib)
    step = None     # the last step call traced: (file, (first, last, body_line, body))
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = TRACE_RE.match(raw)
            if not m:
                continue
            stats["records"] += 1
            src, line, func, cmd = m.group(1), int(m.group(2)), m.group(3), m.group(4)
            name = repo.map(src)
            if name is None:
                continue
            script = shells.get(name)
            if script is None:
                continue
            if name == LIB and func == "step_run" and eval_line and \
                    (line > eval_line or (line == eval_line and not cmd.startswith("eval "))):
                # a step's body, which step_run evals: its own lines
                if step is None:
                    stats["eval"] += 1
                    continue
                body_file, body = step
                target = (body_file, shells.get(body_file).inner.get(body[2] + line - eval_line))
            elif func and func not in ("source", "main") and not script.function_has(func, line):
                # other eval'd text (or a trap's action): no line of its own
                stats["eval"] += 1
                continue
            else:
                target = (name, script.direct.get(line))
                if cmd.startswith("step ") and line in script.step_at:
                    step = (name, script.step_at[line])
            if target[1] is None:
                stats["unmapped"] += 1
                continue
            yield src, target, cmd


# ---- C and Python ---------------------------------------------------------

def gcov_docs(path):
    """The JSON documents of a file of gcov -t -j output."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    dec = json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            return
        doc, i = dec.raw_decode(text, i)
        yield doc


def gcov_lines(path, tree, repo, covered_only):
    """(file, line) gcov lists in a file of its JSON: all, or those run."""
    out = set()
    for doc in gcov_docs(path):
        cwd = doc.get("current_working_directory", tree)
        for f in doc.get("files", []):
            src = os.path.normpath(os.path.join(cwd, f["file"]))
            # the build's own sources only: a system header may end as ours do
            name = src[len(tree) + 1:] if src.startswith(tree + "/") else None
            if name not in repo.files:
                continue
            for ln in f.get("lines", []):
                if not covered_only or ln.get("count", 0) > 0:
                    out.add((name, ln["line_number"]))
    return out


class PythonFiles:
    """The repository's Python files as coverage.py parses them: their
    statements, and the statement each line a run recorded belongs to (a
    line of a statement spanning several counts for its first, as in
    coverage.py's own reports). python3-coverage is needed only here."""

    def __init__(self, tree):
        self.tree = tree
        self.parsers = {}

    def parser(self, name):
        if name not in self.parsers:
            from coverage.config import DEFAULT_EXCLUDE
            from coverage.misc import join_regex
            from coverage.parser import PythonParser
            try:
                p = PythonParser(filename=os.path.join(self.tree, name),
                                 exclude=join_regex(DEFAULT_EXCLUDE))
                p.parse_source()
            except Exception as e:  # not Python after all
                print("coverage_map: %s: %s" % (name, e), file=sys.stderr)
                p = None
            self.parsers[name] = p
        return self.parsers[name]

    def statements(self, names):
        out = set()
        for name in names:
            p = self.parser(name)
            if p is not None:
                out.update((name, line) for line in p.statements)
        return out

    def reached(self, pydir, repo):
        """(file, line) of the statements a test's data files recorded."""
        from coverage import CoverageData
        lines = collections.defaultdict(set)
        for path in sorted(glob.glob(os.path.join(pydir, "cov*"))):
            data = CoverageData(basename=path)
            try:
                data.read()
            except Exception as e:  # a process killed while writing it
                print("coverage_map: unreadable %s: %s" % (path, e), file=sys.stderr)
                continue
            for measured in data.measured_files():
                name = repo.map(measured)
                if name is not None:
                    lines[name].update(data.lines(measured) or ())
        out = set()
        for name, found in lines.items():
            p = self.parser(name)
            if p is not None:
                found = p.translate_lines(found)
            out.update((name, line) for line in found)
        return out


# ---- the subcommands ------------------------------------------------------

def build_files(tree, ext):
    """The tree's files ending in ext, relative; not under .cache (a link to
    the download cache) nor build/."""
    out = []
    for root, dirs, files in os.walk(tree):
        rel = os.path.relpath(root, tree)
        if rel == ".":
            dirs[:] = [d for d in dirs if d not in (".cache", "build", ".git")]
        out.extend(os.path.normpath(os.path.join(rel, f)) for f in files if f.endswith(ext))
    return sorted(out)


def cmd_prepare(a):
    tree = os.path.abspath(a.tree)
    gcnos = build_files(tree, ".gcno")
    old = os.umask(0)
    try:
        for name in a.names:
            for rel in gcnos:
                gcda = os.path.join(a.out, "gcov", name) + os.path.join(tree, rel[:-5] + ".gcda")
                os.makedirs(os.path.dirname(gcda), mode=0o755, exist_ok=True)
                fd = os.open(gcda, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
                os.close(fd)
    finally:
        os.umask(old)


def stamp(path):
    """The build stamp of a .gcno or .gcda file (bytes 8 to 12 of its
    header: the same in the counts as in the notes of one compilation)."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return None
    return head[8:12] if len(head) == 12 else None


def run_gcov(files, out_path, cwd):
    """gcov -t -j over files, into out_path (in batches: the command line)."""
    with open(out_path, "w", encoding="utf-8") as out:
        for i in range(0, len(files), 200):
            r = subprocess.run(["gcov", "-t", "-j"] + files[i:i + 200], cwd=cwd,
                               stdout=out, stderr=subprocess.PIPE, text=True, check=False)
            if r.returncode != 0:
                die("gcov failed in %s: %s" % (cwd, r.stderr.strip()[-500:]))


def cmd_gcov(a):
    tree = os.path.abspath(a.tree)
    gcnos = build_files(tree, ".gcno")
    for stray in build_files(tree, ".gcda"):   # counted outside any test's prefix
        os.unlink(os.path.join(tree, stray))
    run_gcov(gcnos, os.path.join(a.out, "gcov-executable.json"), tree)
    gcno_set = set(gcnos)
    jdir = os.path.join(a.out, "gcov-json")
    os.makedirs(jdir, exist_ok=True)
    for old in glob.glob(os.path.join(jdir, "*.json")):
        os.unlink(old)
    for tdir in sorted(glob.glob(os.path.join(a.out, "gcov", "*"))):
        name = os.path.basename(tdir)
        gcdas = []
        for root, _dirs, files in os.walk(tdir):
            for f in files:
                if not f.endswith(".gcda"):
                    continue
                gcda = os.path.join(root, f)
                if os.path.getsize(gcda) == 0:   # prepared, never written
                    os.unlink(gcda)
                    continue
                orig = gcda[len(tdir):]
                if orig.startswith(tree + "/"):
                    rel = orig[len(tree) + 1:-5] + ".gcno"
                else:   # a copy's object: the suffix rule, on the .gcno files
                    rel = Repo(gcno_set).map(orig[:-5] + ".gcno")
                if rel not in gcno_set:
                    print("coverage_map: %s: no .gcno for %s" % (name, orig), file=sys.stderr)
                    continue
                if stamp(gcda) != stamp(os.path.join(tree, rel)):
                    # a test's own build of the sources (make clean, then
                    # make, in a copy): its notes are gone with its copy
                    print("coverage_map: %s: %s is of another build than %s, not counted"
                          % (name, orig, rel), file=sys.stderr)
                    continue
                link = gcda[:-5] + ".gcno"
                if not os.path.lexists(link):
                    os.symlink(os.path.join(tree, rel), link)
                gcdas.append(gcda)
        if gcdas:
            run_gcov(sorted(gcdas), os.path.join(jdir, name + ".json"), tree)


def owners_of(out):
    """Each test's data: {test: {"trace": [...], "gcov": path, "python": dir}}."""
    found = collections.defaultdict(dict)
    for path in glob.glob(os.path.join(out, "trace", "*")):
        found[os.path.basename(path).split("~")[0]].setdefault("trace", []).append(path)
    for path in glob.glob(os.path.join(out, "gcov-json", "*.json")):
        found[os.path.basename(path)[:-5]]["gcov"] = path
    for path in glob.glob(os.path.join(out, "python", "*")):
        if os.path.isdir(path):
            found[os.path.basename(path)]["python"] = path
    return found


def cmd_map(a):
    tree = os.path.abspath(a.tree)
    files = read_list(a.files)
    repo = Repo(files)
    tests = set(read_list(a.tests)) | {SUITE} if a.tests else None
    shells = ShellFiles(tree)
    stats = collections.Counter()

    executable = set()
    gexec = os.path.join(a.out, "gcov-executable.json")
    if os.path.exists(gexec):
        executable |= gcov_lines(gexec, tree, repo, covered_only=False)
    shell_names = [f for f in files if is_shell(tree, f)]
    for name in shell_names:
        script = shells.get(name)
        if script is not None:
            executable.update((name, line) for line in script.executable())
    py_names = [f for f in files if is_python(tree, f) and not is_shell(tree, f)]
    if a.no_python:
        py_names = []
    pyfiles = PythonFiles(tree)
    executable |= pyfiles.statements(py_names)

    reached = collections.defaultdict(set)
    for owner, data in sorted(owners_of(a.out).items()):
        if tests is not None and owner not in tests:
            print("coverage_map: data of %s, which is no test of this run: dropped" % owner,
                  file=sys.stderr)
            continue
        hits = set()
        for path in data.get("trace", []):
            read_trace(path, repo, shells, hits, stats)
        if "gcov" in data:
            hits |= gcov_lines(data["gcov"], tree, repo, covered_only=True)
        if "python" in data and not a.no_python:
            hits |= pyfiles.reached(data["python"], repo)
        for key in hits:
            if key in executable:
                reached[key].add(owner)
            else:
                stats["not executable"] += 1

    with open(os.path.join(a.out, "executable.tsv"), "w", encoding="utf-8") as f:
        for name, line in sorted(executable):
            f.write("%s\t%d\n" % (name, line))
    with open(os.path.join(a.out, "lines.tsv"), "w", encoding="utf-8") as f:
        for (name, line), owners in sorted(reached.items()):
            f.write("%s\t%d\t%s\n" % (name, line, ",".join(sorted(owners))))
    if a.verbose:
        print("coverage_map: %d trace records; %d of eval'd text, %d on no command, "
              "%d of files that are no copies, %d on no executable line"
              % (stats["records"], stats["eval"], stats["unmapped"], stats["foreign"],
                 stats["not executable"]), file=sys.stderr)
        for key, n in sorted(stats.items()):
            if key.startswith("foreign:"):
                print("coverage_map:   no copy: %s (%d commands)" % (key[8:], n), file=sys.stderr)


# ---- summary --------------------------------------------------------------

PRODUCT = ["fds_example.c", "libbpf.c", "bpf_object.c", "tc_pinning.c", "sha1.c", "bpf_load.c",
           "hints.c", "lo_net.c", "examples/lo_watch.c"]


def groups(names):
    """The summary's groups: (title, files, listed file by file)."""
    names = sorted(names)
    product = [n for n in PRODUCT if n in names]
    test_c = [n for n in names if re.fullmatch(r"tests/(helpers/|compat/)?[^/]+\.c", n)]
    harness = [n for n in names if n in ("tests/run.sh", "tests/lib.sh", "vm/check-vm.sh",
                                         "vm/verdict.sh", ".ci/run",
                                         "bench/gate.sh", "bench/reference.sh")
               or re.fullmatch(r"scripts/[^/]+\.(sh|py)", n)]
    scenarios = [n for n in names if re.fullmatch(r"tests/scenarios/[^/]+\.sh", n)]
    taken = set(product + test_c + harness + scenarios)
    other = [n for n in names if n not in taken]
    return [("product C", product, True),
            ("test programs, helpers and fixture (C)", test_c, True),
            ("harness (shell and Python)", harness, True),
            ("scenarios (tests/scenarios/*.sh)", scenarios, False),
            ("other files (headers, vm/, bench/, fuzz/...)", other, False)]


def pct(a, b):
    return "%5.1f%%" % (100.0 * a / b) if b else "-"


def cmd_summary(a):
    exe = collections.Counter()
    with open(os.path.join(a.out, "executable.tsv"), encoding="utf-8") as f:
        for line in f:
            exe[line.split("\t")[0]] += 1
    cov = collections.Counter()
    tests = set()
    with open(os.path.join(a.out, "lines.tsv"), encoding="utf-8") as f:
        for line in f:
            name, _ln, owners = line.rstrip("\n").split("\t")
            cov[name] += 1
            tests.update(owners.split(","))
    branches = {}
    if a.gcovr and os.path.exists(a.gcovr):
        with open(a.gcovr, encoding="utf-8") as f:
            for entry in json.load(f).get("files", []):
                branches[entry["filename"]] = (entry.get("branch_covered", 0),
                                               entry.get("branch_total", 0))
    rows = []       # (label, lines covered, executable, branches or None); str: a title
    totals = []
    for title, names, listed in groups(exe):
        b = [branches[n] for n in names if n in branches]
        total = (sum(x[0] for x in b), sum(x[1] for x in b)) if b else None
        totals.append(("%s: %d files" % (title, len(names)),
                       sum(cov[n] for n in names), sum(exe[n] for n in names), total))
        if listed:
            rows.append(title)
            rows.extend((n, cov[n], exe[n], branches.get(n)) for n in names)
    rows.append("totals per group")
    rows.extend(totals)
    width = max(len(r[0]) for r in rows if not isinstance(r, str)) + 2
    out = ["%-*s %20s %20s" % (width, "", "lines", "branches")]
    for r in rows:
        if isinstance(r, str):
            out.append(r)
            continue
        label, lc, le, b = r
        bcol = "%13s %6s" % ("%d/%d" % b, pct(*b)) if b else "%13s" % "-"
        out.append("  %-*s %13s %6s %s" % (width - 2, label, "%d/%d" % (lc, le), pct(lc, le), bcol))
    out.append("%d tests and @suite (the runner's own process) reached %d of %d executable lines"
               % (len(tests - {SUITE}), sum(cov.values()), sum(exe.values())))
    text = "\n".join(out) + "\n"
    with open(os.path.join(a.out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    sys.stdout.write(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("prepare")
    s.add_argument("--tree", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("names", nargs="+")
    s = sub.add_parser("gcov")
    s.add_argument("--tree", required=True)
    s.add_argument("--out", required=True)
    s = sub.add_parser("map")
    s.add_argument("--tree", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--files", required=True)
    s.add_argument("--tests")
    s.add_argument("--no-python", action="store_true",
                   help="leave Python out (no python3-coverage needed)")
    s.add_argument("-v", "--verbose", action="store_true")
    s = sub.add_parser("summary")
    s.add_argument("--out", required=True)
    s.add_argument("--gcovr")
    a = p.parse_args()
    {"prepare": cmd_prepare, "gcov": cmd_gcov, "map": cmd_map, "summary": cmd_summary}[a.cmd](a)


if __name__ == "__main__":
    main()
