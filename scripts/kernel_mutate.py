#!/usr/bin/env python3
"""make kernel-mutate: the suite against mutants of the kernel it guards.

Each mutant of tests/kernel-mutants.txt (the format of tests/mutants.txt:
id, file, from, to, why, and equivalent: for an argued one) changes one
line of the kernel's pinning code. It is applied alone to a scratch copy of
the kernel tree (build/kernel-mutate/src, hard links to the pristine tree
but for the file being changed), the copy is built incrementally by
vm/kernel-src.sh (its O= directory kept between mutants and runs), and
check-vm boots it and runs the whole guest suite. Killed: the run fails (a
test fails, the guest panics or hangs, or a matrix cell differs from the
committed column of the unmutated kernel, src-VERSION in
docs/kernel-matrix.md). A mutant that does not build is reported as such
and not counted.

A mutant may name in a "first:" line the test that killed it last time
(make mutate's way): that test alone runs first, in one guest, and the
whole suite only when it passes, so a kill costs one test's boot instead of
the suite's; a verdict cannot change, only come sooner (a first: that names
no test of the tree is stale).

Usage: kernel_mutate.py [--check] [ID...]
       kernel_mutate.py --rotate K N
       kernel_mutate.py --show ID
  --check   only whether every mutant's text is in its file exactly once
  --rotate  K mutants of the list, the N-th K of them in turn (CI passes
            its commit count as N, so that successive runs go round the
            whole list)
  --show    the mutant's file, from and to, a "KEY<TAB>VALUE" line each
            (make check-bisect commits it)
Environment:
  KERNEL_MUTANTS        the list (default tests/kernel-mutants.txt)
  KERNEL_MUTATE_SRC     the pristine tree (default: Debian's
                        linux-source-6.12, unpacked by vm/kernel-src.sh)
  KERNEL_MUTATE_DIR     scratch tree, build and logs (build/kernel-mutate)
  KERNEL_MUTATE_TARGET  percent of the counted mutants to kill (100)
  KERNEL_MUTATE_BASELINE=0  no run of the unmutated kernel first
  KERNEL_MUTATE_BUILD   the builder (vm/kernel-src.sh), KERNEL_MUTATE_BOOT
                        the judge (make check-vm): replaced by the tests
  KERNEL_MUTATE_TIMEOUT seconds a guest may take (300; check-vm's
                        VM_TIMEOUT)
Ends with the score; exit 0 when nothing is stale, the unmutated kernel
passes, and the target is reached (a target below 100 is a floor, as make
mutate-all's in CI, until every mutant of the list has been judged).
"""

import os
import shlex
import shutil
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ('id', 'file', 'from', 'to', 'why', 'equivalent', 'first')


def die(msg):
    print(f'kernel-mutate: {msg}', file=sys.stderr)
    sys.exit(1)


def parse(path):
    """The list's mutants, each a dict with its area (the last "# ----"
    heading before it)."""
    mutants, cur, area = [], {}, ''
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines + [''], 1):
        if line.startswith('# ----'):
            area = line.strip('# -')
            continue
        if line.startswith('#'):
            continue
        if not line:
            if cur:
                missing = [k for k in KEYS[:5] if k not in cur]
                if missing:
                    die(f'{path}:{n}: mutant {cur.get("id", "?")} lacks '
                        + ', '.join(missing))
                cur['area'] = area
                mutants.append(cur)
            cur = {}
            continue
        key, sep, value = line.partition(':')
        if not sep or key not in KEYS:
            die(f'{path}:{n}: not a "key: value" line of a mutant: {line}')
        if key in cur:
            die(f'{path}:{n}: a second {key}: line')
        cur[key] = value.lstrip(' \t')
    ids = [m['id'] for m in mutants]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        die(f'{path}: two mutants are called {dup[0]}')
    return mutants


def is_test(name):
    """Whether name is a test of the tree: a scenario, or a kselftest C
    test (a file with the harness's main)."""
    if os.path.isfile(os.path.join(TOP, 'tests', 'scenarios', name + '.sh')):
        return True
    path = os.path.join(TOP, 'tests', name + '.c')
    if not os.path.isfile(path):
        return False
    with open(path, encoding='utf-8', errors='replace') as f:
        return 'TEST_HARNESS_MAIN' in f.read()


def stale(m, tree):
    """Why mutant m cannot apply to tree, or None."""
    if m.get('first') and not is_test(m['first']):
        return f'first: {m["first"]} is not a test of this tree'
    path = os.path.join(tree, m['file'])
    if not os.path.isfile(path):
        return f'{m["file"]}: no such file'
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        n = f.read().count(m['from'])
    if n != 1:
        return f'{m["file"]}: the text is there {n} times, not once: {m["from"]}'
    if m['from'] == m['to']:
        return f'{m["file"]}: from and to are the same'
    return None


def fresh_copy(pristine, scratch, rel):
    """scratch's rel becomes a file of its own with pristine's bytes and a
    new time, so that the next build compiles it again."""
    dst = os.path.join(scratch, rel)
    os.unlink(dst)
    shutil.copyfile(os.path.join(pristine, rel), dst)


def prepare(pristine, scratch, mutants):
    """The scratch tree: hard links to the pristine one, made once; a file
    a run stopped in the middle of a mutant left changed is the pristine
    one again (run() copies each file before it changes it)."""
    if not os.path.isdir(scratch):
        os.makedirs(os.path.dirname(scratch), exist_ok=True)
        subprocess.run(['cp', '-al', pristine, scratch], check=True)
    for rel in sorted({m['file'] for m in mutants}):
        with open(os.path.join(pristine, rel), 'rb') as a, \
             open(os.path.join(scratch, rel), 'rb') as b:
            if a.read() != b.read():
                fresh_copy(pristine, scratch, rel)


def build(out, scratch, log):
    """0 and (label, image), or 125 (the tree does not build) and None."""
    cmd = shlex.split(os.environ.get('KERNEL_MUTATE_BUILD',
                                     f'{TOP}/vm/kernel-src.sh'))
    with open(log, 'w', encoding='utf-8') as f:
        p = subprocess.run(cmd + [scratch, out], stdout=subprocess.PIPE,
                           stderr=f, text=True, check=False)
    if p.returncode == 125:
        return 125, None
    if p.returncode != 0 or len(p.stdout.split()) != 2:
        with open(log, encoding='utf-8') as f:
            sys.stderr.write(f.read())
        die(f'the build failed (exit {p.returncode}), not for a mutant')
    return 0, tuple(p.stdout.split())


def boot(image, log, first=None):
    """check-vm's exit status on the image, its output in log; with first,
    that test alone, in one guest."""
    cmd = shlex.split(os.environ.get(
        'KERNEL_MUTATE_BOOT',
        f'make -s -C {TOP} check-vm KERNELS=none VM_SELFTEST=0 '
        f'VM_TIMEOUT={os.environ.get("KERNEL_MUTATE_TIMEOUT", "300")}'))
    env = dict(os.environ, KERNEL=image, QUIET_VM='1', KERNEL_SRC='')
    if first:
        env.update(VM_APPEND=f'FDS_TESTS={first}', VM_SHARDS='1')
    with open(log, 'w', encoding='utf-8') as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT,
                              env=env, check=False).returncode


def why_killed(log):
    """What check-vm said failed: the failing tests and steps, the matrix
    cells that differ, or else its first verdict of a failure."""
    with open(log, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')
    tests, cells, under = [], [], False
    for ln in lines:
        if ln == 'Failing tests and steps:':
            under = True
        elif under and ln.startswith('  '):
            tests.append(ln.strip())
        else:
            under = False
            if ln.startswith('matrix: ') and 'row ' in ln:
                cells.append(ln)
    said = tests + cells
    if not said:
        said = [ln.split('check-vm: ', 1)[1] for ln in lines
                if ln.startswith('check-vm: ') and 'FAIL' in ln][:1]
    return '; '.join(said[:2]) or 'check-vm failed'


def baseline(scratch, out, logs):
    """The unmutated kernel, built and judged as the mutants are: it must
    pass, or no verdict means anything (it is also the source kernel's
    column of the matrix)."""
    start = time.monotonic()
    rc, built = build(out, scratch, os.path.join(logs, 'baseline.build'))
    if rc == 125:
        die('the unmutated tree does not build: see '
            + os.path.join(logs, 'baseline.build'))
    if boot(built[1], os.path.join(logs, 'baseline.log')) != 0:
        die('the unmutated kernel fails the suite: '
            + why_killed(os.path.join(logs, 'baseline.log'))
            + '; see ' + os.path.join(logs, 'baseline.log'))
    print(f'{"baseline":<10} {built[0]:<24} '
          f'PASS ({time.monotonic() - start:.0f} s)', flush=True)


def run(mutants, pristine, work):
    """Each mutant's result: (mutant, result, detail, seconds)."""
    scratch, out = os.path.join(work, 'src'), os.path.join(work, 'out')
    logs = os.path.join(work, 'logs')
    os.makedirs(logs, exist_ok=True)
    prepare(pristine, scratch, mutants)
    if os.environ.get('KERNEL_MUTATE_BASELINE', '1') != '0':
        baseline(scratch, out, logs)
    results = []
    for m in mutants:
        start = time.monotonic()
        path = os.path.join(scratch, m['file'])
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            text = f.read()
        fresh_copy(pristine, scratch, m['file'])
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(text.replace(m['from'], m['to'], 1))
        try:
            rc, built = build(out, scratch,
                              os.path.join(logs, m['id'] + '.build'))
            log = os.path.join(logs, m['id'] + '.log')
            first = os.path.join(logs, m['id'] + '.first.log')
            if rc == 125:
                result, detail = 'not-built', 'does not compile; not counted'
            elif m.get('first') and \
                    boot(built[1], first, m['first']) != 0:
                result = 'killed'
                detail = why_killed(first) + ' (first)'
            elif boot(built[1], log) != 0:
                result = 'killed'
                detail = why_killed(log)
            else:
                result = 'equivalent' if m.get('equivalent') else 'SURVIVED'
                detail = m.get('equivalent') or f'{m["from"]} -> {m["to"]}'
        finally:
            fresh_copy(pristine, scratch, m['file'])
        secs = time.monotonic() - start
        print(f'{result:<10} {m["id"]:<24} {detail} ({secs:.0f} s)',
              flush=True)
        results.append((m, result, detail, secs))
    return results


def report(results, target):
    """The table per area, the score and the closing line; whether the
    target is reached."""
    areas = {}
    for m, result, _, _ in results:
        a = areas.setdefault(m['area'] or m['file'], [0, 0])
        if result in ('killed', 'SURVIVED'):
            a[1] += 1
            a[0] += result == 'killed'
    print('\nkilled / counted per area:')
    for name, (k, n) in areas.items():
        print(f'  {k:>3} / {n:<3} {name}')
    count = {r: sum(1 for _, res, _, _ in results if res == r)
             for r in ('killed', 'SURVIVED', 'equivalent', 'not-built')}
    counted = count['killed'] + count['SURVIVED']
    score = 100.0 * count['killed'] / counted if counted else 100.0
    print(f'kernel-mutate: {count["killed"]} of {counted} killed '
          f'({score:.1f} %, target {target:g} %); {count["equivalent"]} '
          f'equivalent, {count["not-built"]} not built')
    return score >= target


def rotate(mutants, argv):
    """--rotate K N: the ids of the N-th K mutants, going round the list."""
    if len(argv) != 3 or not all(a.isdigit() for a in argv[1:]) \
            or int(argv[1]) == 0:
        die('usage: kernel_mutate.py --rotate K N (K > 0, N >= 0 counts)')
    k = min(int(argv[1]), len(mutants))
    start = int(argv[2]) * k
    return [mutants[(start + i) % len(mutants)]['id'] for i in range(k)]


def main(argv):
    check = argv[:1] == ['--check']
    wanted = argv[1:] if check else argv
    listing = os.environ.get('KERNEL_MUTANTS',
                             os.path.join(TOP, 'tests', 'kernel-mutants.txt'))
    mutants = parse(listing)
    if argv[:1] == ['--rotate']:
        wanted = rotate(mutants, argv)
    if argv[:1] == ['--show']:
        wanted = argv[1:2]
        if len(argv) != 2:
            die('usage: kernel_mutate.py --show ID')
    known = {m['id'] for m in mutants}
    for i in wanted:
        if i not in known:
            die(f'no mutant {i} in {listing}')
    if wanted:
        mutants = [m for m in mutants if m['id'] in wanted]
    if argv[:1] == ['--show']:
        for key in ('file', 'from', 'to'):
            print(f'{key}\t{mutants[0][key]}')
        return 0
    pristine = os.environ.get('KERNEL_MUTATE_SRC', '')
    if not pristine:
        p = subprocess.run([f'{TOP}/vm/kernel-src.sh', '--unpack'],
                           stdout=subprocess.PIPE, text=True, check=False)
        if p.returncode != 0:
            die("cannot unpack Debian's linux-source-6.12")
        pristine = p.stdout.strip()
    stales = [(m, why) for m in mutants if (why := stale(m, pristine))]
    for m, why in stales:
        print(f'kernel-mutate: stale {m["id"]}: {why}')
    if check or stales:
        print(f'kernel-mutate: {len(mutants)} mutants, {len(stales)} stale')
        return 1 if stales else 0
    work = os.environ.get('KERNEL_MUTATE_DIR',
                          os.path.join(TOP, 'build', 'kernel-mutate'))
    target = float(os.environ.get('KERNEL_MUTATE_TARGET', '100'))
    return 0 if report(run(mutants, pristine, work), target) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
