#!/usr/bin/python3
"""Does a run's KTAP follow Documentation/dev-tools/ktap.rst, and does the
kernel's own parser read it as the runner counted it?

  ktap_check.py RESULTS_DIR [KUNIT_DIR]

RESULTS_DIR is what tests/run.sh leaves (natively, or from a QEMU guest):
"ktap", the whole KTAP printed, and "counts", "PASSED FAILED SKIPPED".
KUNIT_DIR (default .cache/kunit, filled by scripts/fetch-kselftest.sh)
holds tools/testing/kunit from Debian's linux-source package: its
kunit_parser, the parser behind `kunit.py parse`, must read the whole
output with no error, within a time and memory limit, to the same totals.
The rules checked first, each naming its line:
  - a version line begins every level, its plan is the next result-like
    line (before any result), and each level has as many results as planned;
  - a nested level is indented two spaces more than its parent, and ends
    with the parent's result line;
  - results are numbered 1, 2, ... within a level; names are unique within
    a level and hold no '#'; the only directives are SKIP and TIMEOUT, and
    a TIMEOUT is "not ok".
When the tests ran through the kernel's runner (tests/run.sh whose plan
has kselftest=), RESULTS_DIR also has "kselftest.ktap", what
run_kselftest.sh printed, and "kselftest.counts", the runner's verdicts
(one per test); with lanes (tests/run.sh's plan's lanes=N) lane K's output,
K > 1, is kselftest.K.ktap, each a KTAP document of its own, whose totals
add up to those counts. Its top level must follow the same rules, but that a
failing test's line may end in the runner's " # exit=N" (ktap.rst's
diagnostic data), and the kernel's parser must read one result per test
to those counts: the runner prefixes each test's own KTAP with "# ", so
the parser sees it as diagnostic lines, which "ktap" has re-nested.
Exit 0 when all holds, 1 with one line per problem otherwise.
"""

import io
import os
import re
import resource
import signal
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = re.compile(r'^(KTAP version 1|TAP version 1[34])$')
PLAN = re.compile(r'^1\.\.([0-9]+)$')
RESULT = re.compile(r'^(ok|not ok) ([0-9]+)(?: (.*))?$')
RUNNER_EXIT = re.compile(r' # exit=-?[0-9]+$')
DIRECTIVE = re.compile(r'^(.*?) # (SKIP|TIMEOUT)(?: .*)?$')
# On malformed KTAP the parser has looped until killed at 8 GB.
PARSE_SECONDS = int(os.environ.get('KTAP_PARSE_SECONDS', '60'))
PARSE_BYTES = 1 << 30


class Level:
    def __init__(self, indent, line):
        self.indent = indent
        self.line = line
        self.plan = None
        self.count = 0
        self.names = set()


class Lint:
    """The rules of ktap.rst that the kernel's parser forgives."""

    def __init__(self, runner=False):
        self.stack = []
        self.problems = []
        self.runner = runner

    def problem(self, n, what):
        self.problems.append(f'line {n}: {what}')

    def close(self, n):
        """The innermost level ends: as many results as planned?"""
        level = self.stack.pop()
        if level.plan is not None and level.count != level.plan:
            self.problem(n, f'the level begun on line {level.line} planned '
                            f'{level.plan} results and has {level.count}')

    def version(self, n, indent):
        if not self.stack:
            if indent:
                self.problem(n, 'the top level is indented')
        elif indent <= self.stack[-1].indent:
            self.problem(n, 'a version line inside a level that has not '
                            'ended: a nested test without its result line')
            while self.stack and self.stack[-1].indent >= indent:
                self.close(n)
        elif indent != self.stack[-1].indent + 2:
            self.problem(n, f'a nested level indented {indent} spaces, '
                            f'not {self.stack[-1].indent + 2}')
        self.stack.append(Level(indent, n))

    def plan(self, n, indent, count):
        level = self.stack[-1] if self.stack else None
        if not level or indent != level.indent:
            self.problem(n, 'a plan outside its level')
        elif level.plan is not None or level.count:
            self.problem(n, 'the plan is not right after the version line')
        else:
            level.plan = count

    def result(self, n, indent, m):
        while self.stack and indent < self.stack[-1].indent:
            self.close(n)
        if not self.stack or indent != self.stack[-1].indent:
            self.problem(n, 'a result line outside any level')
            return
        level = self.stack[-1]
        if level.plan is None and not level.count:
            self.problem(n, 'a result before the plan')
        level.count += 1
        if int(m.group(2)) != level.count:
            self.problem(n, f'numbered {m.group(2)}, expected {level.count}')
        rest = m.group(3) or ''
        if self.runner and m.group(1) == 'not ok' and not indent:
            rest = RUNNER_EXIT.sub('', rest)
        d = DIRECTIVE.match(rest)
        name = d.group(1) if d else rest
        if '#' in name:
            self.problem(n, f"the name '{name}' has a '#' or an unknown "
                            f"directive")
        if d and d.group(2) == 'TIMEOUT' and m.group(1) == 'ok':
            self.problem(n, 'a TIMEOUT result is "ok"')
        if name in level.names:
            self.problem(n, f"the name '{name}' is used twice in its level")
        level.names.add(name)

    def feed(self, lines):
        for n, raw in enumerate(lines, 1):
            text = raw.lstrip(' ')
            indent = len(raw) - len(text)
            text = text.rstrip()
            m = RESULT.match(text)
            p = PLAN.match(text)
            if VERSION.match(text):
                self.version(n, indent)
            elif p:
                self.plan(n, indent, int(p.group(1)))
            elif m:
                self.result(n, indent, m)
        while self.stack:
            self.close(len(lines))
        return self.problems


def kunit_totals(kunit_dir, lines):
    """The kernel parser's (passed, failed, skipped, errors), in a time and
    memory limit."""
    sys.path.insert(0, kunit_dir)
    try:
        import kunit_parser
        import kunit_printer
    except ImportError as e:
        return None, f'cannot load the kernel parser from {kunit_dir}: {e} ' \
                     f'(scripts/fetch-kselftest.sh .cache fetches it)'
    kunit_printer.stdout._output = io.StringIO()
    resource.setrlimit(resource.RLIMIT_AS, (PARSE_BYTES, PARSE_BYTES))
    signal.alarm(PARSE_SECONDS)
    try:
        test = kunit_parser.parse_run_tests(lines)
    except ParseTimeout:
        return None, f'the kernel parser did not finish in {PARSE_SECONDS} s'
    except MemoryError:
        return None, f'the kernel parser needed more than {PARSE_BYTES >> 20} MiB'
    except Exception as e:  # its own failures are findings, not our crash
        return None, f'the kernel parser failed: {type(e).__name__}: {e}'
    finally:
        signal.alarm(0)
    c = test.counts
    return (c.passed, c.failed + c.crashed, c.skipped, c.errors), None


class ParseTimeout(Exception):
    pass


def on_alarm(signum, frame):
    raise ParseTimeout()


def check(paths, want, kunit_dir, runner=False):
    """The problems with the KTAP in paths, each a whole KTAP document,
    whose totals added up must be want."""
    problems = []
    got = [0, 0, 0]
    parsed = True
    for path in paths:
        with open(path, encoding='utf-8', errors='backslashreplace') as f:
            lines = f.read().splitlines()
        mine = Lint(runner).feed(lines)
        counts, why = kunit_totals(kunit_dir, lines)
        if why:
            mine.append(why)
        elif counts[3]:
            mine.append(f'the kernel parser found {counts[3]} error(s) '
                        f'(run: kunit.py parse {path})')
        if why or counts[3]:
            parsed = False
        else:
            got = [a + b for a, b in zip(got, counts)]
        problems += [f'ktap: {path}: {p}' for p in mine]
    if parsed and tuple(got) != want:
        where = paths[0] if len(paths) == 1 else \
            f'{os.path.dirname(paths[0])}: its {len(paths)} lanes'
        problems.append(f'ktap: {where}: the kernel parser counts {got[0]} '
                        f'passed, {got[1]} failed, {got[2]} skipped; the '
                        f'runner {want[0]}, {want[1]}, {want[2]}')
    return problems, got


def lanes(results):
    """What run_kselftest.sh printed: kselftest.ktap, and with lanes
    (tests/run.sh's plan's lanes=) kselftest.K.ktap for lane K, in lane order."""
    found = []
    for name in os.listdir(results):
        m = re.match(r'^kselftest\.([0-9]+)\.ktap$', name)
        if m:
            found.append((int(m.group(1)), name))
    return [os.path.join(results, 'kselftest.ktap')] + \
        [os.path.join(results, name) for _, name in sorted(found)]


def read_counts(path):
    with open(path, encoding='utf-8') as f:
        return tuple(int(x) for x in f.read().split())


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit('usage: ktap_check.py RESULTS_DIR [KUNIT_DIR]')
    results = argv[1]
    kunit_dir = argv[2] if len(argv) == 3 else os.path.join(TOP, '.cache',
                                                              'kunit')
    signal.signal(signal.SIGALRM, on_alarm)
    problems, got = check([os.path.join(results, 'ktap')],
                          read_counts(os.path.join(results, 'counts')),
                          kunit_dir)
    said = []
    if not problems:
        said.append(f'ktap: KTAP v1, read by the kernel parser as {got[0]} '
                    f'passed, {got[1]} failed, {got[2]} skipped, as counted')
    if os.path.exists(os.path.join(results, 'kselftest.ktap')):
        runner = lanes(results)
        more, got = check(runner, read_counts(os.path.join(
            results, 'kselftest.counts')), kunit_dir, runner=True)
        problems += more
        if not more:
            said.append(f'ktap: run_kselftest.sh\'s output'
                        f'{f" in {len(runner)} lanes" if len(runner) > 1 else ""}'
                        f', read by the kernel parser as {got[0]} passed, '
                        f'{got[1]} failed, {got[2]} skipped tests, as the '
                        f'runner judged them')
    for p in problems:
        print(p)
    if problems:
        return 1
    print('\n'.join(said))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
