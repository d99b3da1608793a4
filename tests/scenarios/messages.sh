#!/usr/bin/env bash
# Messages are part of the contract. Every line fds_example can print (the
# "bpf: ..." lines on stdout; its usage errors, failures and hints on
# stderr; the usage text; the loader's reasons, which end a "cannot load
# the program" line) is listed in the DIAGNOSTICS section of fds_example.8,
# with its placeholders and exit status. This scenario
#   - lists the messages of the code mechanically (messages.py below reads
#     the format strings of the printing calls of fds_example.c, hints.c,
#     the loader's bpf_object.c, tc_pinning.c, sha1.c and bpf_load.c, and
#     libbpf.c) and compares them with the man page's, both ways: a message
#     without a row fails, and so does a row without a message;
#   - prints each message with a concrete command on the private bpffs and
#     compares whole lines, stdout and stderr, byte for byte, with the exit
#     status;
#   - checks, last, that every message of the man page was printed by one
#     of those steps with an exit status the man page gives it, but for the
#     few listed in UNPROVOKABLE, each with the reason no command can print
#     it.
# Where no real cause can be set up from outside, a real syscall is made to
# fail: strace's fault injection (a get_info, an unlink), or an rlimit.
# It reads the sources, so make kselftest-install leaves it out:
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# A map an object asks to have pinned lands under the private bpffs.
export TC_BPF_MNT=$FS
# shellcheck disable=SC2034 # read in step bodies, which step() evals
MKCORRUPT=$TOP/tests/bin/mkcorrupt
# shellcheck disable=SC2034 # read in step bodies, which step() evals
REASONS="Why a program did not load"
MESSAGES=$T/messages.py

cat > "$MESSAGES" << 'PYTHON'
"""The messages fds_example can print, from its sources and its man page.

  messages.py sources TOP   one line per message the code can print:
                            GROUP<TAB>TEXT<TAB>WHERE; on stderr, each
                            printing call it cannot account for (exit 1)
  messages.py man FILE REASONS USAGE
                            one line per message DIAGNOSTICS lists:
                            GROUP<TAB>TEXT<TAB>EXIT-STATUSES (REASONS and
                            USAGE: the titles of those subsections)
  messages.py usage FILE REASONS USAGE
                            the usage DIAGNOSTICS shows, as printed
  messages.py cover MAN SEEN UNPROVOKABLE
                            one line per problem: a message of MAN (the
                            output of "man") that no line of SEEN
                            ("out|err<TAB>STATUS<TAB>LINE") printed and
                            UNPROVOKABLE does not list, or printed with an
                            exit status MAN does not give it
  messages.py grow OBJECT SECTION INSNS OUT
                            OBJECT with SECTION made INSNS instructions long

GROUP is "line" (a whole line on stdout or stderr), "reason" (why a program
did not load: the end of a "cannot load the program" line) or "usage" (a
line of the usage). TEXT is the message, each placeholder (a conversion of
the format, an italic word of the man page) written {} and a literal brace
doubled.
"""
import itertools
import re
import struct
import sys

# The calls that print a message, by file: name -> (index of the format
# argument, group, function whose fputs(LITERAL, ...) is the line's prefix).
WRAPPERS = {
    "fds_example.c": {
        "failure": (0, "line", "vsay"),
        "bad_usage": (0, "line", "vsay"),
        "report": (2, "line", "report"),
    },
    "hints.c": {"hint": (0, "line", "hint")},
    "bpf_object.c": {"spec_error": (1, "reason", None)},
    "tc_pinning.c": {"spec_error": (1, "reason", None)},
    "sha1.c": {},
    "bpf_load.c": {"spec_error": (1, "reason", None)},
    "libbpf.c": {},
}
# The functions that make the wrappers' lines: a printing call there with a
# format that is no literal prints a message made elsewhere.
MACHINERY = {"vsay", "failure", "bad_usage", "report", "hint", "spec_error"}
# The functions whose fputs(LITERAL, ...) starts their lines.
PREFIXED = {"vsay", "hint", "report"}
# bpf_load.c prints only in load_bpf_file(), the 2015 interface, which
# fds_example does not call (checked below).
NOT_REACHED = {"load_bpf_file"}
# Where a printing function's format or text is, if not its second argument.
FORMAT_INDEX = {"printf": 0, "vprintf": 0, "puts": 0, "fputs": 0,
                "perror": 0, "fwrite": 0}
PRINTING = {"printf", "fprintf", "dprintf", "vprintf", "vfprintf", "vdprintf",
            "puts", "fputs", "fputc", "putc", "putchar", "perror", "fwrite",
            "write", "err", "errx", "warn", "warnx", "verr", "verrx", "vwarn",
            "vwarnx", "psignal", "syslog", "error"}
# glibc's getopt() prints these itself, behind argv[0], unless opterr is 0.
GETOPT = ["{}: invalid option -- '{}'",
          "{}: option requires an argument -- '{}'"]
CONV = re.compile(r"%(%|[-+ #0]*(\*|\d+)?(\.(\*|\d+))?(hh|h|ll|l|z|j|t|L)?"
                  r"[diouxXcsfeEgGp])")
STRING = re.compile(r'"(\\.|[^"\\\n])*"')


def blank(src):
    """src without comments and preprocessor lines, the insides of its
    string and character literals blanked: as long, for finding calls."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.index("*/", i) + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + "x" * (j - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*",
                  lambda m: re.sub(r"[^\n]", " ", m.group(0)), "".join(out),
                  flags=re.M)


def unescape_c(s):
    table = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "0": "\0"}
    return re.sub(r"\\(.)", lambda m: table.get(m.group(1), m.group(0)), s)


def functions(code):
    """(start, end, name) of each function body of blanked code."""
    spans, depth, begin, last, name = [], 0, 0, 0, None
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                m = re.search(r"(\w+)\s*\(", code[last:i])
                begin, name = i, m.group(1) if m else None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if name:
                    spans.append((begin, i, name))
                last = i + 1
        elif c == ";" and depth == 0:
            last = i + 1
    return spans


def split_args(code, src, i):
    """The source texts of the arguments of the call whose "(" is at i."""
    args, depth, start = [], 0, i + 1
    for j in range(i, len(code)):
        c = code[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(src[start:j].strip())
                return args
        elif c == "," and depth == 1:
            args.append(src[start:j].strip())
            start = j + 1
    raise ValueError("a call without its closing parenthesis")


class Source:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.src = f.read()
        self.code = blank(self.src)
        self.macros = dict(re.findall(
            r"^#define\s+(\w+)\s+((?:\"(?:\\.|[^\"\\])*\"\s*)+)", self.src, re.M))
        self.spans = functions(self.code)

    def function_at(self, i):
        for begin, end, name in self.spans:
            if begin <= i <= end:
                return name
        return None

    def literal(self, expr):
        """expr's value if it is string literals and macros of them."""
        parts, rest = [], expr.strip()
        while rest:
            m = STRING.match(rest)
            if m:
                parts.append(unescape_c(m.group(0)[1:-1]))
            else:
                m = re.match(r"\w+", rest)
                if not m or m.group(0) not in self.macros:
                    return None
                parts.append(self.literal(self.macros[m.group(0)]))
            rest = rest[m.end():].lstrip()
        return "".join(parts) if parts else None

    def line_of(self, i):
        return self.src.count("\n", 0, i) + 1

    def calls(self, names):
        """(name, position, arguments) of each call of names, not the
        functions' own declarations."""
        for m in re.finditer(r"\b(\w+)\s*\(", self.code):
            if m.group(1) not in names:
                continue
            start = self.code.rfind("\n", 0, m.start()) + 1
            before = self.code[start:m.start()].strip()
            if (before and before not in ("return", "else") and
                    re.fullmatch(r"((static|extern|inline|const|enum|struct)"
                                 r"\s+)*\w+[\s*]*", before)):
                continue
            yield (m.group(1), m.start(),
                   split_args(self.code, self.src, m.end() - 1))


def ternary(expr):
    """(condition, if-true, if-false) when expr is c ? a : b at its top."""
    code = blank(expr)
    depth, q = 0, None
    for i, c in enumerate(code):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c == "?" and q is None:
            q = i
        elif depth == 0 and c == ":" and q is not None:
            return expr[:q].strip(), expr[q + 1:i].strip(), expr[i + 1:].strip()
    return None


def brace(text):
    return text.replace("{", "{{").replace("}", "}}")


def unbrace(text):
    return text.replace("{{", "{").replace("}}", "}")


def expand(source, fmt_expr, args):
    """The texts a format makes, a literal %s argument filled in. A choice
    between literals (c ? "a" : "b", as format or argument) makes one text
    per way; the arguments that test one condition go the same way, and an
    argument s is empty where s[0] is false."""
    t = ternary(fmt_expr)
    if t and source.literal(t[1]) is not None:
        fmts = [t[1], t[2]]
    else:
        fmts = [fmt_expr]
    conds = []
    for a in args:
        t = ternary(a)
        if t and t[0] not in conds and (source.literal(t[1]) is not None or
                                        source.literal(t[2]) is not None):
            conds.append(t[0])
    texts = []
    for fmt_e in fmts:
        fmt = source.literal(fmt_e)
        if fmt is None:
            return None
        for truth in itertools.product([True, False], repeat=len(conds)):
            chosen = dict(zip(conds, truth))
            empty = {c[:-3] for c, v in chosen.items()
                     if not v and c.endswith("[0]")}
            out, pos, k = [], 0, 0
            for m in CONV.finditer(fmt):
                out.append(brace(fmt[pos:m.start()]))
                pos = m.end()
                if m.group(1) == "%":
                    out.append("%")
                    continue
                k += (m.group(2) == "*") + (m.group(4) == "*")
                a = args[k] if k < len(args) else ""
                k += 1
                t = ternary(a)
                if t and t[0] in chosen:
                    a = t[1] if chosen[t[0]] else t[2]
                value = source.literal(a) if m.group(0)[-1] == "s" else None
                if a in empty:
                    value = ""
                out.append("{}" if value is None else brace(value))
            out.append(brace(fmt[pos:]))
            texts.append("".join(out))
    return texts


def prefix_of(source, function):
    for _, pos, args in source.calls({"fputs"}):
        if source.function_at(pos) == function:
            value = source.literal(args[0])
            if value is not None:
                return value
    return None


def message_calls(file, source, found, problems):
    wrappers = WRAPPERS[file]
    for name, pos, args in source.calls(set(wrappers) | PRINTING | {"snprintf"}):
        where = f"{file}:{source.line_of(pos)}"
        function = source.function_at(pos)
        if name in wrappers:
            index, group, prefixed_by = wrappers[name]
            prefix = prefix_of(source, prefixed_by) if prefixed_by else ""
            ends = [""]
            if name == "report":
                # report(ret, end, fmt, ...): fmt, then end with ret
                ends = expand(source, args[1], [args[0], "strerror(err)"])
            texts = expand(source, args[index], args[index + 1:])
            if texts is None or ends is None:
                if function not in MACHINERY:
                    problems.append(f"{where}: {name}() with a format that is no literal")
                continue
            for text, end in itertools.product(texts, ends):
                found.append((group, brace(prefix) + (text + end).rstrip("\n"), where))
        elif name == "snprintf":
            # the why of a program not loaded; other buffers print nothing
            if args[0] == "why":
                for text in expand(source, args[2], args[3:]) or []:
                    found.append(("reason", text, where))
        elif function in NOT_REACHED:
            continue
        elif function == "usage" and name == "fprintf":
            for line in source.literal(args[1]).rstrip("\n").split("\n"):
                found.append(("usage", brace(line), where))
        elif function in MACHINERY and (
                name in ("fputc", "putc", "putchar") or
                source.literal(args[FORMAT_INDEX.get(name, 1)]) is None or
                (name == "fputs" and function in PREFIXED)):
            continue
        else:
            problems.append(f"{where}: {name}() in {function}(), a printing call this list does not know")


def sources(top):
    found, problems = [], []
    parsed = {file: Source(f"{top}/{file}") for file in WRAPPERS}
    for file, source in parsed.items():
        message_calls(file, source, found, problems)
    fds = parsed["fds_example.c"]
    for name in NOT_REACHED:
        if re.search(rf"\b{name}\s*\(", fds.code):
            problems.append(f"fds_example.c calls {name}(), whose messages are not listed")
    if (re.search(r"\bgetopt\s*\(", fds.code) and
            not re.search(r"\bopterr\s*=\s*0\b", fds.code)):
        for text in GETOPT:
            found.append(("line", text, "glibc getopt()"))
    return found, problems


ROFF = [(r"\-", "-"), (r"\(aq", "'"), (r"\(dq", '"'), (r"\&", ""),
        (r"\ ", " "), (r"\fB", ""), (r"\fR", ""), (r"\fP", "")]


def roff_text(s):
    """A line of roff text as printed, each \\fI...\\fP a {}."""
    parts = re.split(r"\\fI(.*?)\\fP", s)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append("{}")
            continue
        text = part.replace(r"\e", "\0")
        for esc, plain in ROFF:
            text = text.replace(esc, plain)
        if "\\" in text:
            raise ValueError(f"an escape this reader does not know: {part}")
        out.append(brace(text.replace("\0", "\\")))
    return "".join(out)


def exit_statuses(text):
    m = re.search(r"[Ee]xit status ([0-9](?: or [0-9])*)\.", text)
    return ",".join(m.group(1).split(" or ")) if m else ""


def man(path, reasons_title, usage_title):
    """DIAGNOSTICS: (group, text, statuses) of each .TP entry, whose tag is
    the message (.B), and the .nf lines of the usage subsection. An entry's
    exit statuses are its own "Exit status N." or its subsection's."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = lines.index(".SH DIAGNOSTICS") + 1
    entries, usage, sub, default, nofill = [], [], None, "", False
    while i < len(lines) and not lines[i].startswith(".SH "):
        line = lines[i]
        i += 1
        if line.startswith(".SS "):
            sub, default = line[4:].strip('"'), ""
        elif line in (".nf", ".fi"):
            nofill = line == ".nf"
        elif nofill and sub == usage_title:
            usage.append(roff_text(line))
        elif line == ".TP":
            tag = lines[i]
            if not tag.startswith(".B "):
                raise ValueError(f"line {i + 1}: a tag that is not .B: {tag}")
            arg = tag[3:]
            if len(arg) > 1 and arg[0] == arg[-1] == '"':
                arg = arg[1:-1]
            body = []
            i += 1
            while i < len(lines) and not re.match(r"\.(TP|SS|SH|PP)\b", lines[i]):
                body.append(lines[i])
                i += 1
            group = "reason" if sub == reasons_title else "line"
            entries.append((group, roff_text(arg),
                            exit_statuses(" ".join(body)) or default))
        elif not line.startswith("."):
            default = exit_statuses(line) or default
    return entries, usage


def pattern(text):
    parts = re.split(r"(?<!\{)\{\}(?!\})", text)
    return re.compile("(.*)".join(re.escape(unbrace(p)) for p in parts), re.S)


def cover(man_list, seen_file, unprovokable_file):
    entries, usage, seen, problems, wrong = [], set(), {}, [], {}
    with open(man_list, encoding="utf-8") as f:
        for row in f.read().splitlines():
            group, text, statuses = row.split("\t")
            if group == "usage":
                usage.add(unbrace(text))
            else:
                entries.append((group, text, statuses.split(","), pattern(text)))
    with open(unprovokable_file, encoding="utf-8") as f:
        unprovokable = [u for u in f.read().splitlines() if u]

    def match(group, line, status):
        """The message that line is: of those it fits, the one with the
        most literal text."""
        best, most = [], -1
        for e in entries:
            if e[0] == group and e[3].fullmatch(line):
                n = len(e[1].replace("{}", ""))
                if n > most:
                    best, most = [e], n
                elif n == most:
                    best.append(e)
        if len(best) != 1:
            problems.append(f"{len(best)} messages of the man page fit the {group} [{line}]")
            return
        text, statuses = best[0][1], best[0][2]
        seen.setdefault(text, set()).add(status)
        if status not in statuses:
            wrong.setdefault((text, status, " or ".join(statuses)), line)

    with open(seen_file, encoding="utf-8") as f:
        for row in f.read().splitlines():
            kind, status, line = row.split("\t", 2)
            if line in usage:
                continue
            match("line", line, status)
            m = re.match(r"fds_example: cannot load the program(?: from .+?)?: (.*)$", line)
            if kind == "err" and m:
                match("reason", m.group(1), status)
    for (text, status, statuses), line in wrong.items():
        problems.append(f"[{text}] came with exit status {status} ([{line}]); the man page gives {statuses}")
    texts = {e[1] for e in entries}
    for group, text, _, _ in entries:
        if text not in seen and text not in unprovokable:
            problems.append(f"no step printed the {group} [{text}]")
    for text in unprovokable:
        if text not in texts:
            problems.append(f"listed as unprovokable, but the man page has no [{text}]")
        elif text in seen:
            problems.append(f"listed as unprovokable, but a step printed [{text}]")
    return problems


def grow(obj, section, insns, out):
    with open(obj, "rb") as f:
        data = bytearray(f.read())
    e = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(e + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3a)
    strings, = struct.unpack_from(e + "Q", data, shoff + shstrndx * shentsize + 0x18)
    for i in range(shnum):
        name, = struct.unpack_from(e + "I", data, shoff + i * shentsize)
        end = data.index(b"\0", strings + name)
        if data[strings + name:end].decode() == section:
            break
    else:
        raise SystemExit(f"{obj} has no section {section}")
    offset = (len(data) + 7) & ~7
    data += bytes(offset - len(data) + 8 * insns)
    struct.pack_into(e + "QQ", data, shoff + i * shentsize + 0x18, offset, 8 * insns)
    with open(out, "wb") as f:
        f.write(data)


def main():
    mode, args = sys.argv[1], sys.argv[2:]
    if mode == "sources":
        found, problems = sources(args[0])
        for group, text, where in found:
            print(f"{group}\t{text}\t{where}")
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    if mode == "man":
        entries, usage = man(*args)
        for group, text, statuses in entries:
            print(f"{group}\t{text}\t{statuses}")
        for text in usage:
            print(f"usage\t{text}\t-")
        return 0
    if mode == "usage":
        for text in man(*args)[1]:
            print(unbrace(text))
        return 0
    if mode == "cover":
        problems = cover(*args)
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    if mode == "grow":
        grow(args[0], args[1], int(args[2]), args[3])
        return 0
    return 2


sys.exit(main())
PYTHON

# shellcheck disable=SC2034 # read in step bodies, which step() evals
Q="'"	# a quote, for the messages that quote a name

# The messages no command can make fds_example print, each with the reason.
# The last step fails when one of them is printed after all (it then
# belongs with the others), or is no longer in the man page.
# shellcheck disable=SC2034 # read in step bodies, which step() evals
UNPROVOKABLE=(
	# The default program, r0 = 1; exit, passes the verifier of every
	# kernel, and a load refused before the verifier (EPERM, EMFILE) leaves
	# no log to quote.
	"{}; the verifier: {}"
	# A file under 16 bytes is refused before libelf sees it, and libelf
	# has the whole identification of any file it calls ELF.
	"truncated ELF identification"
	# gelf_getehdr() cannot fail on a 64-bit ELF file elf_memory() took:
	# libelf read the header then (shorter files: "libelf: ...").
	"bad ELF header: {}"
	# libelf read each section header below e_shnum when it took the file.
	"section {}: bad header"
	# Symbols and relocations are read only below the counts the checked
	# sizes of their sections give.
	"symbol {}: cannot read it"
	"relocation {} of '{}': cannot read it"
	# The fallback of a refusal that gave no reason: every check gives one.
	"malformed ELF: {}"
	# (Nor did mkcorrupt's 4095 damaged copies of every object of
	# tests/bin, loaded by tests/bin/helpers/load_refusals on 2026-12-07,
	# make any of these six.)
	# Always cut at 255 bytes (BPF_OBJECT_ERR_LEN - 1) before its end: the
	# root it names is over 400 bytes long. The step "reason: pin paths too
	# long" checks the line as printed, cut.
	"pin paths under '{}' longer than {} bytes"
)
# The refusal of the other byte order, which only the other machines print.
if ((BIG_ENDIAN)); then
	UNPROVOKABLE+=("not little-endian like this machine")
else
	UNPROVOKABLE+=("not big-endian like this machine")
fi

prereq BPF_PRELOAD "no maps.debug in a new bpffs: the kernel has no bpf_preload" \
	'[[ -e $FS/maps.debug ]]'
prereq CAP_BPF "CAP_BPF came in Linux 5.8" \
	'setpriv --inh-caps=-all,+bpf --ambient-caps=+bpf true'
prereq UNPRIVILEGED_BPF_OFF "kernel.unprivileged_bpf_disabled is 0: users without CAP_BPF create maps" \
	'[[ $(< /proc/sys/kernel/unprivileged_bpf_disabled) != 0 ]]'
# (A kernel whose optmem_max is global has it in the first network
# namespace only: a new one has no file to write.)
prereq OPTMEM_PER_NETNS "net.core.optmem_max is not per network namespace in this kernel" \
	'unshare --net test -w /proc/sys/net/core/optmem_max'

# expect_err_lines LINE...: stderr is exactly these lines (as expect_out
# for stdout).
expect_err_lines()
{
	expect_lines_of "$T/err" stderr "$@"
}

# seen: each line of the run just checked, as "out|err<TAB>STATUS<TAB>LINE"
# in $T/seen.tsv, which the last step accounts for.
seen()
{
	local kind line
	for kind in out err; do
		while IFS= read -r line; do
			# shellcheck disable=SC2154 # status: set by fds (lib.sh)
			printf '%s\t%s\t%s\n' "$kind" "$status" "$line"
		done < "$T/$kind"
	done >> "$T/seen.tsv"
}

# expect STATUS [OUT-LINE...] -- [ERR-LINE...]: the fds_example run just
# made exited STATUS and printed exactly these lines; they count as seen.
expect()
{
	local want=$1 out=()
	shift
	while (($#)) && [[ $1 != -- ]]; do
		out+=("$1")
		shift
	done
	(($#)) && shift
	expect_status "$want"
	expect_out "${out[@]}"
	expect_err_lines "$@"
	seen
}

# quiet_sanitizer: in a step whose fds_example ASan (SANITIZE=1) cannot
# watch whole: its notes go to $T/asan.* (shown if the step fails), not to
# the stderr the step compares, and LeakSanitizer, which does not work
# under ptrace (strace), is off. Nothing changes without ASan.
quiet_sanitizer()
{
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0:log_path=$T/asan"
	when_finished 'cat "$T"/asan.* 2> /dev/null || true'
}

# usage_error MESSAGE ARG...: a step: fds_example ARG... exits 2, with
# MESSAGE and then the usage the man page shows on stderr, and nothing on
# stdout.
usage_error()
{
	step "usage error: $1" '
		msg=$1
		shift
		mapfile -t usage < "$T/usage"
		fds "$@"
		expect 2 -- "$msg" "${usage[@]}"
	' "$@"
}

# refused OBJECT ERRNO-TEXT REASON [LINE...]: fds_example -P -p -o OBJECT
# exits 1 with "bpf: prog fd:-1 (ERRNO-TEXT)" on stdout and, on stderr, the
# line that gives REASON, then LINE...; nothing is pinned.
refused()
{
	local object=$1 errno_text=$2 reason=$3
	shift 3
	fds -F "$FS/o" -P -p -o "$object"
	expect 1 "bpf: prog fd:-1 ($errno_text)" -- \
		"fds_example: cannot load the program from $object: $reason" "$@"
	[[ ! -e $FS/o ]] || fail "$FS/o was pinned"
}

# mk_want SET NAME: the refusal mkcorrupt wrote down for its file NAME of SET.
mk_want()
{
	local name msg
	while IFS=$'\t' read -r name msg; do
		[[ $name == "$2" ]] && { echo "$msg"; return 0; }
	done < "$T/bad/$1.want"
	fail "mkcorrupt wrote no $1/$2"
}

# mk_refused SET NAME [REASON]: a step: mkcorrupt's file NAME of SET is
# refused for REASON, or where its values depend on how clang laid out the
# object (section and symbol numbers, offsets), for the reason mkcorrupt
# computed from the layout.
mk_refused()
{
	step "reason: $1/$2 (mkcorrupt)" '
		want=${3:-}
		[[ -n $want ]] || want=$(mk_want "$1" "$2")
		refused "$T/bad/$1/$2" "Exec format error" "$want"
	' "$@"
}

# report_rows FILE WHAT: a line for each "GROUP<TAB>TEXT" row of FILE,
# saying WHAT, and where the code prints it if it does.
report_rows()
{
	local group text where
	while IFS=$'\t' read -r group text; do
		where=$(awk -F '\t' -v g="$group" -v t="$text" \
			'$1 == g && $2 == t { printf "%s%s", sep, $3; sep = ", " }' "$T/code.tsv")
		echo "$2: $group [$text]${where:+ (printed at $where)}"
	done < "$1"
}

step "the messages of the code: each printing call's format strings" --needs python3 '
	python3 "$MESSAGES" sources "$TOP" > "$T/code.tsv" 2> "$T/code.err" ||
		fail "$(< "$T/code.err")"
	(($(line_count "$T/code.tsv") > 100)) || fail "only $(line_count "$T/code.tsv") messages"
'

step "the messages of the man page: the rows of DIAGNOSTICS" --needs python3 '
	python3 "$MESSAGES" man fds_example.8 "$REASONS" Usage > "$T/man.tsv"
	python3 "$MESSAGES" usage fds_example.8 "$REASONS" Usage > "$T/usage"
	(($(line_count "$T/usage") > 3)) || fail "no usage in DIAGNOSTICS"
'

step "every message of the code has its row in the man page, every row a message" --needs python3 '
	cut -f1,2 "$T/code.tsv" | sort -u > "$T/code.set"
	cut -f1,2 "$T/man.tsv" | sort > "$T/man.rows"
	sort -u "$T/man.rows" > "$T/man.set"
	comm -23 "$T/code.set" "$T/man.set" > "$T/missing"
	comm -13 "$T/code.set" "$T/man.set" > "$T/extra"
	uniq -d "$T/man.rows" > "$T/twice"
	report_rows "$T/missing" "printed by the code, no row in fds_example.8"
	report_rows "$T/extra" "a row of fds_example.8 that no code prints"
	report_rows "$T/twice" "two rows in fds_example.8"
	[[ ! -s $T/missing && ! -s $T/extra && ! -s $T/twice ]] ||
		fail "DIAGNOSTICS in fds_example.8 and the code differ"
'

step "the man page shows the usage of the code, line for line" --needs python3 '
	grep "^usage" "$T/code.tsv" | cut -f2 > "$T/usage.code"
	grep "^usage" "$T/man.tsv" | cut -f2 > "$T/usage.man"
	diff -u --label code --label fds_example.8 "$T/usage.code" "$T/usage.man"
'

# Standard output: the 2015 sample's successful lines.
step "setup: a map holding 1:42 and a program, pinned, then got" '
	fds -F "$FS/m" -P -m -k 1 -v 42
	expect 0 "bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: fd:3 u->(1:42) ret:(0,Success)" --
	fds -F "$FS/m" -G -m -k 1
	expect 0 "bpf: get fd:3 (Success)" "bpf: fd:3 l->(1):42 ret:(0,Success)" --
	fds -F "$FS/p" -P -p
	expect 0 "bpf: prog fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: sock:4 <- fd:3 attached ret:(0,Success)" --
	fds -F "$FS/p" -G -p
	expect 0 "bpf: get fd:3 (Success)" "bpf: sock:4 <- fd:3 attached ret:(0,Success)" --
'

step "-h: the usage on stdout" '
	mapfile -t usage < "$T/usage"
	fds -h
	expect 0 "${usage[@]}" --
'

usage_error "fds_example: -k 1x: not a whole number in 0..4294967295" -F "$FS/m" -G -m -k 1x
usage_error "fds_example: -v -24: not a whole number in 0..4294967295" \
	-F "$FS/m" -G -m -k 1 -v -24
usage_error "fds_example: -F <file> is needed" -P -m
usage_error "fds_example: -P and -G exclude each other" -F "$FS/m" -P -G -m
usage_error "fds_example: one of -P (pin) or -G (get) is needed" -F "$FS/m" -m -k 1
usage_error "fds_example: one of -m (map) or -p (program) is needed" -F "$FS/m" -G
usage_error "fds_example: -m and -p exclude each other" -F "$FS/m" -G -m -p
usage_error "fds_example: -v needs -k" -F "$FS/m" -G -m -v 7
usage_error "fds_example: -k and -v are for map mode (-m)" -F "$FS/p" -G -p -k 1
usage_error "fds_example: -o is for pinning a program (-P -p)" -F "$FS/p" -G -p -o "$SOCKEX1"
usage_error "fds_example: unexpected argument 'first'" -F "$FS/m" -G -m first second
# getopt's own two, behind the name the program was run by
usage_error "$FDS_EXAMPLE: invalid option -- 'x'" -F "$FS/m" -G -m -x
usage_error "$FDS_EXAMPLE: option requires an argument -- 'F'" -F

step "failure: pin a map over a pin" '
	fds -F "$FS/m" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,File exists)" -- \
		"fds_example: cannot pin the map at $FS/m: File exists" \
		"fds_example: hint: something is pinned at $FS/m already: -G gets it; rm $FS/m removes it"
'

step "failure: pin a program over a pin" '
	fds -F "$FS/p" -P -p
	expect 1 "bpf: prog fd:3 (Success)" "bpf: pin ret:(-1,File exists)" -- \
		"fds_example: cannot pin the program at $FS/p: File exists" \
		"fds_example: hint: something is pinned at $FS/p already: -G gets it; rm $FS/p removes it"
'

step "failure: get where nothing is pinned" '
	fds -F "$FS/none" -G -m
	expect 1 "bpf: get fd:-1 (No such file or directory)" -- \
		"fds_example: cannot get $FS/none: No such file or directory" \
		"fds_example: hint: nothing is pinned at $FS/none (ls $FS shows what is)"
'

step "failure: get a directory" '
	mkdir "$FS/dir"
	when_finished rmdir "$FS/dir"
	fds -F "$FS/dir" -G -p
	expect 1 "bpf: get fd:-1 (Permission denied)" -- \
		"fds_example: cannot get $FS/dir: Permission denied" \
		"fds_example: hint: $FS/dir is a directory: -G wants a pinned map or program in it"
'

step "failure: get maps.debug, a file of the kernel" --needs BPF_PRELOAD '
	fds -F "$FS/maps.debug" -G -m
	expect 1 "bpf: get fd:-1 (No such file or directory)" -- \
		"fds_example: cannot get $FS/maps.debug: No such file or directory" \
		"fds_example: hint: $FS/maps.debug is one of the kernel${Q}s own files, not a pinned map or program (a name with a dot is never yours)"
'

step "failure: a map got as a program, a program as a map" '
	fds -F "$FS/m" -G -p
	expect 1 "bpf: get fd:3 (Success)" -- "fds_example: $FS/m holds a map, not a program" \
		"fds_example: hint: $FS/m holds a map: use -m for it (fds_example -F $FS/m -G -m)"
	fds -F "$FS/p" -G -m -k 1
	expect 1 "bpf: get fd:3 (Success)" -- "fds_example: $FS/p holds a program, not a map" \
		"fds_example: hint: $FS/p holds a program: use -p for it (fds_example -F $FS/p -G -p)"
'

# A link (pinctl xdp pins one, in a network namespace that goes when it
# exits: the link stays, detached) is neither a map nor a program.
step "failure: a link got as a map or as a program" --needs unshare '
	when_finished rm -f "$FS/link" "$FS/count"
	unshare --net tests/bin/helpers/pinctl xdp "$FS/link" "$FS/count" > /dev/null
	fds -F "$FS/link" -G -m
	expect 1 "bpf: get fd:3 (Success)" -- "fds_example: $FS/link holds a link, not a map"
	fds -F "$FS/link" -G -p
	expect 1 "bpf: get fd:3 (Success)" -- "fds_example: $FS/link holds a link, not a program"
'

# A tmpfs on /proc/PID/fd, in a mount namespace of its own, before the
# shell that mounts it becomes fds_example (the same PID): no
# /proc/self/fd/N link says what the fd got is.
step "failure: with /proc/self/fd hidden the kind of the pin is unknown" --needs unshare '
	FDS_RUN=(unshare --mount sh -c "mount -t tmpfs none /proc/\$\$/fd && exec \"\$0\" \"\$@\""
		 "${FDS_RUN[@]}")
	fds -F "$FS/m" -G -m
	expect 1 "bpf: get fd:3 (Success)" -- \
		"fds_example: cannot tell what $FS/m holds: No such file or directory"
'

# BPF_OBJ_GET_INFO_BY_FD on a map fails on no kernel for its own reasons:
# strace makes the second bpf(2) call, the one after BPF_OBJ_GET, fail.
step "failure: the sizes of the map got cannot be read (fault injected)" --needs strace '
	quiet_sanitizer
	FDS_RUN=(strace -o /dev/null -e trace=bpf -e inject=bpf:error=ENOMEM:when=2
		 "$FDS_EXAMPLE")
	fds -F "$FS/m" -G -m -k 1
	expect 1 "bpf: get fd:3 (Success)" -- \
		"fds_example: cannot read what map $FS/m is: Cannot allocate memory"
'

step "failure: a map with 8-byte values" --needs bpftool '
	when_finished rm -f "$FS/m8"
	bpftool map create "$FS/m8" type array key 4 value 8 entries 4 name m8
	fds -F "$FS/m8" -G -m -k 1
	expect 1 "bpf: get fd:3 (Success)" -- \
		"fds_example: $FS/m8 has 4-byte keys and 8-byte values; -k and -v need 4 and 4"
'

step "failure: a per-CPU map" --needs bpftool '
	when_finished rm -f "$FS/pcpu"
	bpftool map create "$FS/pcpu" type percpu_array key 4 value 4 entries 4 name pcpu
	fds -F "$FS/pcpu" -G -m -k 1 -v 2
	expect 1 "bpf: get fd:3 (Success)" -- \
		"fds_example: $FS/pcpu is a per-CPU map (type 6): a lookup returns one value per CPU, -k and -v need a single 4-byte value"
'

step "failure: a key past the end, looked up and updated" '
	fds -F "$FS/m" -G -m -k 1024
	expect 1 "bpf: get fd:3 (Success)" \
		"bpf: fd:3 l->(1024):0 ret:(-1,No such file or directory)" -- \
		"fds_example: cannot look up key 1024 in $FS/m: No such file or directory" \
		"fds_example: hint: the map has 1024 entries: keys 0..1023 exist, 1024 is past the end"
	fds -F "$FS/m" -G -m -k 4000000000 -v 5
	expect 1 "bpf: get fd:3 (Success)" \
		"bpf: fd:3 u->(4000000000:5) ret:(-1,Argument list too long)" -- \
		"fds_example: cannot update key 4000000000 in $FS/m: Argument list too long" \
		"fds_example: hint: the map has 1024 entries: keys 0..1023 exist, 4000000000 is past the end"
'

# A hash map (bpftool makes one) holds only the keys stored in it.
step "failure: a key never stored in a hash map, looked up" --needs bpftool '
	when_finished rm -f "$FS/hash"
	bpftool map create "$FS/hash" type hash key 4 value 4 entries 4 name hash
	fds -F "$FS/hash" -G -m -k 7
	expect 1 "bpf: get fd:3 (Success)" \
		"bpf: fd:3 l->(7):0 ret:(-1,No such file or directory)" -- \
		"fds_example: cannot look up key 7 in $FS/hash: No such file or directory" \
		"fds_example: hint: key 7 is not in this hash map, which holds only the keys stored in it: -k 7 -v VALUE stores one"
'

step "failure: -P, then an update fails: the new pin is removed" '
	fds -F "$FS/new" -P -m -k 1024 -v 5
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: fd:3 u->(1024:5) ret:(-1,Argument list too long)" -- \
		"fds_example: cannot update key 1024 in $FS/new: Argument list too long" \
		"fds_example: hint: the map has 1024 entries: keys 0..1023 exist, 1024 is past the end" \
		"fds_example: removed the new pin at $FS/new"
	[[ ! -e $FS/new ]] || fail "$FS/new is still there"
'

# Nothing outside can stop root unlinking the pin it has just made: strace
# makes the unlink fail.
step "failure: -P, then an update fails and the new pin stays (fault injected)" --needs strace '
	quiet_sanitizer
	when_finished rm -f "$FS/kept"
	FDS_RUN=(strace -o /dev/null -e trace=unlink,unlinkat
		 -e inject=unlink,unlinkat:error=EPERM "$FDS_EXAMPLE")
	fds -F "$FS/kept" -P -m -k 1024 -v 5
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: fd:3 u->(1024:5) ret:(-1,Argument list too long)" -- \
		"fds_example: cannot update key 1024 in $FS/kept: Argument list too long" \
		"fds_example: hint: the map has 1024 entries: keys 0..1023 exist, 1024 is past the end" \
		"fds_example: cannot remove the new pin at $FS/kept: Operation not permitted"
	[[ -e $FS/kept ]] || fail "$FS/kept is gone"
'

step "failure: no lo in the network namespace" --needs unshare,ip '
	FDS_RUN=(unshare --net sh -c "ip link set lo name notlo && exec \"\$0\" \"\$@\""
		 "${FDS_RUN[@]}")
	fds -F "$FS/p" -G -p
	expect 1 "bpf: get fd:3 (Success)" -- \
		"fds_example: cannot open a raw socket on lo: No such device"
'

# A new network namespace of its own, whose net.core.optmem_max of 0 leaves
# a socket no memory for a filter.
step "failure: no option memory to attach, the new pin is removed" \
	--needs unshare,OPTMEM_PER_NETNS '
	FDS_RUN=(unshare --net sh -c "echo 0 > /proc/sys/net/core/optmem_max && exec \"\$0\" \"\$@\""
		 "${FDS_RUN[@]}")
	fds -F "$FS/q" -P -p
	expect 1 "bpf: prog fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: sock:4 <- fd:3 attached ret:(-1,Cannot allocate memory)" -- \
		"fds_example: cannot attach the program to the socket: Cannot allocate memory" \
		"fds_example: removed the new pin at $FS/q"
	[[ ! -e $FS/q ]] || fail "$FS/q is still there"
'

step "hint: a missing directory in the bpffs" '
	fds -F "$FS/nodir/x" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)" -- \
		"fds_example: cannot pin the map at $FS/nodir/x: No such file or directory" \
		"fds_example: hint: $FS/nodir does not exist: make it first (mkdir -p $FS/nodir); a BPF filesystem holds directories"
'

step "hint: a missing directory in an empty directory of another filesystem" '
	mkdir "$T/empty"
	fds -F "$T/empty/sub/x" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)" -- \
		"fds_example: cannot pin the map at $T/empty/sub/x: No such file or directory" \
		"fds_example: hint: $T/empty/sub does not exist and $T/empty is no BPF filesystem but an empty directory on another: mount one on it first (mount -t bpf bpf $T/empty; mkdir -p $T/empty/sub)"
'

step "hint: a missing directory and no bpffs above it" '
	fds -F "$T/nomount/sub/x" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,No such file or directory)" -- \
		"fds_example: cannot pin the map at $T/nomount/sub/x: No such file or directory" \
		"fds_example: hint: $T/nomount/sub does not exist and $T is no BPF filesystem: mount one first (mkdir -p $T/nomount/sub; mount -t bpf bpf $T/nomount/sub)"
'

step "hint: an empty directory of another filesystem" '
	mkdir "$T/plain"
	fds -F "$T/plain/x" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Operation not permitted)" -- \
		"fds_example: cannot pin the map at $T/plain/x: Operation not permitted" \
		"fds_example: hint: $T/plain is no BPF filesystem but an empty directory on another (stat -f -c %T $T/plain): mount one on it first (mount -t bpf bpf $T/plain)"
'

step "hint: a directory with files, of another filesystem" '
	mkdir "$T/full"
	: > "$T/full/file"
	fds -F "$T/full/x" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Operation not permitted)" -- \
		"fds_example: cannot pin the map at $T/full/x: Operation not permitted" \
		"fds_example: hint: $T/full/x is not on a BPF filesystem (stat -f -c %T $T/full): pins live only under a bpffs mount (mount -t bpf bpf DIR, DIR an empty directory)"
'

step "hint: a name with a dot" '
	fds -F "$FS/a.b" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Operation not permitted)" -- \
		"fds_example: cannot pin the map at $FS/a.b: Operation not permitted" \
		"fds_example: hint: ${Q}a.b$Q has a dot: bpffs keeps dotted names for the kernel${Q}s own files (maps.debug, progs.debug); pick a name without one"
'

# nobody, without capabilities, runs a copy it can read.
step "hint: another user gets a pin of mode 0644" --needs setpriv '
	chmod 0755 "$T" "$FS"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	when_finished rm -f "$FS/mode"
	fds -F "$FS/mode" -P -m
	expect 0 "bpf: map fd:3 (Success)" "bpf: pin ret:(0,Success)" --
	chmod 0644 "$FS/mode"
	FDS_RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all
		 "$T/fds_example")
	fds -F "$FS/mode" -G -m -k 1
	expect 1 "bpf: get fd:-1 (Permission denied)" -- \
		"fds_example: cannot get $FS/mode: Permission denied" \
		"fds_example: hint: $FS/mode is mode 0644: -G asks to read and write the object and the pin does not grant both to you; its owner can (chmod o+rw $FS/mode)"
'

# nobody with CAP_BPF (ambient, so the program keeps it) makes the map;
# the root-owned directory refuses the pin's name.
step "hint: another user pins in a directory it may not write to" --needs setpriv,CAP_BPF '
	chmod 0755 "$T" "$FS"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	FDS_RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups
		 --inh-caps=-all,+bpf --ambient-caps=+bpf "$T/fds_example")
	fds -F "$FS/theirs" -P -m
	expect 1 "bpf: map fd:3 (Success)" "bpf: pin ret:(-1,Permission denied)" -- \
		"fds_example: cannot pin the map at $FS/theirs: Permission denied" \
		"fds_example: hint: $FS is mode 0755, owned by uid 0: a pin adds a name to it, which needs write permission there; pin in a directory you may write to"
	[[ ! -e $FS/theirs ]] || fail "$FS/theirs was made"
'

step "hint: another user creates a map, loads a program" --needs setpriv,UNPRIVILEGED_BPF_OFF '
	chmod 0755 "$T" "$FS"
	install -m 0755 "$FDS_EXAMPLE" "$T/fds_example"
	sysctl=$(< /proc/sys/kernel/unprivileged_bpf_disabled)
	FDS_RUN=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all
		 "$T/fds_example")
	fds -F "$FS/n" -P -m
	expect 1 "bpf: map fd:-1 (Operation not permitted)" -- \
		"fds_example: cannot create the map: Operation not permitted" \
		"fds_example: hint: this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; for other users kernel.unprivileged_bpf_disabled decides: it is $sysctl, and only 0 lets them create maps and programs"
	fds -F "$FS/n" -P -p
	expect 1 "bpf: prog fd:-1 (Operation not permitted)" -- \
		"fds_example: cannot load the program: Operation not permitted" \
		"fds_example: hint: this needs CAP_BPF (CAP_SYS_ADMIN before Linux 5.8), which root has; for other users kernel.unprivileged_bpf_disabled decides: it is $sysctl, and only 0 lets them create maps and programs"
'

# Root's EPERM on this kernel, which charges no map to ulimit -l: root
# without its capabilities. (memlock.sh sees the real cause on old kernels.)
step "hint: root without capabilities creates a map" --needs setpriv,UNPRIVILEGED_BPF_OFF '
	FDS_RUN=(setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all
		 "${FDS_RUN[@]}")
	fds -F "$FS/n" -P -m
	expect 1 "bpf: map fd:-1 (Operation not permitted)" -- \
		"fds_example: cannot create the map: Operation not permitted" \
		"fds_example: hint: kernels before 5.11 charge each map to ulimit -l; try ${Q}ulimit -l unlimited$Q"
'

# Why a program did not load: the file...
step "reason: no such object file" '
	refused "$T/missing.o" "No such file or directory" "No such file or directory" \
		"fds_example: hint: the object file $T/missing.o could not be opened (No such file or directory), so the kernel was never asked: check the path given to -o"
'

step "reason: an empty file" '
	: > "$T/empty.o"
	refused "$T/empty.o" "Exec format error" "empty file"
'

step "reason: a character device" '
	refused /dev/null "Exec format error" "not a regular file"
'

step "reason: a file over 64 MiB" '
	truncate -s 65M "$T/huge.o"
	refused "$T/huge.o" "File too large" "larger than 64 MiB, not a BPF object"
'

# A file of a sysfs of the scenario's own says it has 4096 bytes and has a
# line.
step "reason: a file shorter than its size" '
	mkdir "$T/sys"
	mount -t sysfs sysfs "$T/sys"
	when_finished umount "$T/sys"
	refused "$T/sys/kernel/uevent_seqnum" "Input/output error" "file shrank while read"
'

# (ASan maps its shadow memory first, which no small address space lets
# it do: its own allocator refuses more than 32 MiB instead.)
step "reason: no memory for a 60 MiB file in a 32 MiB address space" --needs prlimit '
	truncate -s 60M "$T/big.o"
	FDS_RUN=(prlimit --as=$((32 << 20)) "$FDS_EXAMPLE")
	if grep -qa __asan_init "$FDS_EXAMPLE"; then
		quiet_sanitizer
		ASAN_OPTIONS+=:max_allocation_size_mb=32:allocator_may_return_null=1
		FDS_RUN=("$FDS_EXAMPLE")
	fi
	refused "$T/big.o" "Cannot allocate memory" "out of memory"
'

# ...its ELF...
step "reason: five bytes" '
	printf "\177ELF\002" > "$T/short.o"
	refused "$T/short.o" "Exec format error" "too short for an ELF file (5 bytes)"
'

step "reason: an ELF identification and nothing more" '
	head -c 16 "$SOCKEX1" > "$T/ident.o"
	refused "$T/ident.o" "Exec format error" "libelf: invalid ELF file data"
'

step "reason: built for the other byte order" '
	order=little
	((BIG_ENDIAN)) && order=big
	refused tests/bin/other-order/sockex1_kern.o "Exec format error" \
		"not $order-endian like this machine"
'

step "reason: a program of a million and one instructions" --needs python3 '
	python3 "$MESSAGES" grow "$SOCKEX1" socket1 1000001 "$T/long.o"
	refused "$T/long.o" "Exec format error" \
		"section ${Q}socket1$Q: more than 1000000 instructions"
'

step "reason: 33 programs" '
	refused tests/bin/many_progs_kern.o "Exec format error" "more than 32 programs"
'

step "reason: 33 maps" '
	refused tests/bin/many_maps_kern.o "Exec format error" "33 maps, at most 32"
'

step "mkcorrupt writes its damaged objects" '
	mk()
	{
		mkdir -p "$T/bad/$1"
		"$MKCORRUPT" "$2" "$T/bad/$1" > "$T/bad/$1.want"
	}
	mk sockex1 "$SOCKEX1"
	mk two_progs tests/bin/two_progs_kern.o
	mk tc_legacy tests/bin/tc_legacy_kern.o
	mk tc_legacy36 tests/bin/tc_legacy36_kern.o
'

mk_refused sockex1 bad-magic "not an ELF file"
mk_refused sockex1 class-32 "ELF class 1, BPF objects are 64-bit"
step "reason: sockex1/machine-x86-64 (mkcorrupt), with its hint" '
	refused "$T/bad/sockex1/machine-x86-64" "Exec format error" \
		"machine 62 is not BPF (247)" \
		"fds_example: hint: $T/bad/sockex1/machine-x86-64 is an ELF file for x86-64, not a BPF object: -o wants one compiled with clang -target bpf, like sockex1_kern.o"
'
mk_refused sockex1 shentsize-small "section header entry size 32, expected 64"
mk_refused sockex1 type-exec "ELF type 2 is not a relocatable object"
mk_refused sockex1 shoff-past-end "no section headers"
mk_refused sockex1 shstrndx-out-of-range "section name table index out of range"
mk_refused sockex1 sec1-offset-past-end
mk_refused sockex1 sec1-name-out-of-range "section 1: name offset 1048575 out of range"
mk_refused sockex1 prog-nobits
mk_refused sockex1 second-symbol-table "more than one symbol table"
mk_refused sockex1 prog-not-named-socket
mk_refused sockex1 prog-not-progbits "section 'socket1': type 7 is not PROGBITS"
mk_refused sockex1 prog-size-not-whole-instructions
mk_refused sockex1 no-program-section "no program section (socket*)"
mk_refused sockex1 license-empty "license section: cannot read it"
mk_refused sockex1 license-unterminated "license is not NUL-terminated"
mk_refused sockex1 license-too-long "license longer than 127 bytes"
mk_refused two_progs version-size-wrong "version section is not one 32-bit word"
mk_refused sockex1 symtab-entsize-wrong "symbol table: bad size or entry size"
mk_refused sockex1 symtab-link-out-of-range "symbol table: string table index 65535 out of range"
mk_refused sockex1 maps-without-map-symbols "maps section has no map symbols"
mk_refused sockex1 maps-size-fits-no-definition \
	"maps section of 12 bytes fits no definition size for 1 maps (16, 20, 28 or 36 bytes each)"
mk_refused tc_legacy pinning-3 \
	"map 'tc_count': pinning 3 is none of PIN_NONE (0), PIN_OBJECT_NS (1), PIN_GLOBAL_NS (2)"
mk_refused tc_legacy36 inner-id "map 'tc_count': inner map (inner_id 1, inner_idx 0) not supported"
mk_refused tc_legacy pinned-name-slash "map '/c_count': a pinned map's name must be a file name"
mk_refused sockex1 map-symbol-size-wrong
mk_refused two_progs map-symbols-at-one-offset "two map symbols at offset 0"
mk_refused sockex1 symtab-link-not-strings
mk_refused sockex1 maps-nobits "maps section: cannot read it"
mk_refused sockex1 symtab-not-a-symbol-table "maps section but no symbol table"
mk_refused sockex1 rel-target-out-of-range
mk_refused sockex1 rel-is-rela "section 'socket1': RELA relocations are not supported"
mk_refused sockex1 rel-second-section-for-one-program \
	"section 'socket1': more than one relocation section"
mk_refused sockex1 rel-link-out-of-range
mk_refused sockex1 rel-entsize-wrong
mk_refused sockex1 rel-size-zero
mk_refused sockex1 rel-type-not-64-64 "relocation 0 of 'socket1': type 10 is not R_BPF_64_64"
mk_refused sockex1 rel-offset-huge \
	"relocation 0 of 'socket1': offset 18446744073709551608 is not an instruction with room for LD_IMM64"
mk_refused sockex1 rel-not-on-ld-imm64
mk_refused sockex1 rel-symbol-out-of-range
mk_refused sockex1 rel-symbol-not-a-map

# ...and what the kernel makes of it.
step "reason: a map type no kernel knows" '
	refused tests/bin/bad_map_kern.o "Invalid argument" \
		"cannot create map 0 ${Q}unknown$Q: Invalid argument"
'

# The object is fd 3, its map fd 4: the program would be fd 5.
step "reason: no file descriptor for the program" --needs prlimit '
	FDS_RUN=(prlimit --nofile=5 "$FDS_EXAMPLE")
	refused "$SOCKEX1" "Too many open files" \
		"program ${Q}socket1$Q was not loaded: Too many open files"
'

# (The verifier's words are this kernel's.)
step "reason: a program the verifier refuses" '
	refused tests/bin/rejected_kern.o "Permission denied" \
		"program ${Q}socket_bad$Q was not loaded: Permission denied; the verifier: invalid bpf_context access off=1000 size=4"
'

# The pinned maps of iproute2's layout, each step under a root of its own.
step "reason: a directory where the map is to be pinned" '
	export TC_BPF_MNT=$FS/tc1
	mkdir -p "$TC_BPF_MNT/tc/globals/tc_count"
	when_finished rm -r "$FS/tc1"
	refused tests/bin/tc_legacy_kern.o "Permission denied" \
		"map ${Q}tc_count$Q: cannot get $FS/tc1/tc/globals/tc_count: Permission denied"
'

step "reason: a program where the map is to be pinned" '
	export TC_BPF_MNT=$FS/tc2
	mkdir -p "$TC_BPF_MNT/tc/globals"
	when_finished rm -r "$FS/tc2"
	fds -F "$TC_BPF_MNT/tc/globals/tc_count" -P -p
	expect 0 "bpf: prog fd:3 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: sock:4 <- fd:3 attached ret:(0,Success)" --
	refused tests/bin/tc_legacy_kern.o "Invalid argument" \
		"map ${Q}tc_count$Q: what is pinned at $FS/tc2/tc/globals/tc_count is not a map"
'

step "reason: a pinned map of another type" '
	export TC_BPF_MNT=$FS/tc3
	mkdir "$TC_BPF_MNT"
	when_finished rm -r "$FS/tc3"
	fds -F "$FS/tc3/p" -P -p -o tests/bin/tc_legacy_kern.o
	expect 0 "bpf: prog fd:5 (Success)" "bpf: pin ret:(0,Success)" \
		"bpf: sock:3 <- fd:5 attached ret:(0,Success)" --
	refused tests/bin/tc_diff_type_kern.o "Invalid argument" \
		"map ${Q}tc_count$Q pinned at $FS/tc3/tc/globals/tc_count has type 2, the object 1"
'

# (Root's EPERM brings the ulimit -l hint, which has nothing to do with it.)
step "reason: a map to be pinned outside any bpffs" '
	mkdir "$T/plain2"
	export TC_BPF_MNT=$T/plain2
	refused tests/bin/tc_legacy_kern.o "Operation not permitted" \
		"map ${Q}tc_count$Q: cannot pin it at $T/plain2/tc/globals/tc_count: Operation not permitted" \
		"fds_example: hint: kernels before 5.11 charge each map to ulimit -l; try ${Q}ulimit -l unlimited$Q"
	[[ ! -e $T/plain2/tc ]] || fail "the directories made for the pin are left"
'

step "reason: a map to be pinned under a missing directory" '
	export TC_BPF_MNT=$T/nothere
	refused tests/bin/tc_legacy_kern.o "No such file or directory" \
		"cannot create a directory for $T/nothere/tc/globals/tc_count: No such file or directory"
'

# The whole line as printed, its reason cut at 255 bytes; not counted as
# the man page's message, which it never shows whole (see UNPROVOKABLE).
step "reason: pin paths too long, cut at 255 bytes" '
	root=$FS/$(printf "d%.0s" {1..500})
	export TC_BPF_MNT=$root
	reason="pin paths under ${Q}$root$Q longer than 511 bytes"
	fds -F "$FS/o" -P -p -o tests/bin/tc_legacy_kern.o
	expect_status 1
	expect_out "bpf: prog fd:-1 (File name too long)"
	expect_err_lines "fds_example: cannot load the program from tests/bin/tc_legacy_kern.o: ${reason:0:255}"
'

step "every message of the man page was printed whole above, with its exit status" \
	--needs python3 '
	printf "%s\n" "${UNPROVOKABLE[@]}" > "$T/unprovokable"
	[[ -s $T/seen.tsv ]] || fail "no step recorded a line"
	python3 "$MESSAGES" cover "$T/man.tsv" "$T/seen.tsv" "$T/unprovokable"
'
scenario_end
