#!/usr/bin/python3
"""Did the LAVA job report every case as make check-vm judged it?

  compare.py LAVA_LOG CASES LABEL

LAVA_LOG is lava-run's log (one {dt, lvl, msg} entry a line);
its "results" entries of the job's test definition are the LAVA test
cases. CASES is tests/run.sh's cases file of make check-vm's run of the
same kernel ("TEST<TAB>STEP<TAB>pass|fail|skip"), each case named as
vm/lava/fds-lava-cases names it for LAVA: "TEST.STEP", each character but
letters, digits, '.', '_' and '-' made '_'. Every case must be a LAVA test
case with the same result, and LAVA must have no other; the job itself
must have passed. Prints what differs, then "N passed, N failed, N
skipped" over LAVA's cases (a difference is one more failure).
"""

import re
import sys

import yaml

DEFINITION = re.compile(r'^[0-9]+_fds-example-kselftest$')


def lava_results(path):
    """LAVA's cases of the test definition, and the job's own result."""
    cases, job = {}, None
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            if '"lvl": "results"' not in line:
                continue
            entry = yaml.safe_load(line)
            msg = entry['msg']
            if msg.get('definition') == 'lava' and msg.get('case') == 'job':
                job = msg
            elif DEFINITION.match(str(msg.get('definition', ''))):
                cases[msg['case']] = msg['result']
    return cases, job


def vm_cases(path):
    cases = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            test, step, result = line.rstrip('\n').split('\t')
            name = re.sub(r'[^A-Za-z0-9._-]', '_', f'{test}.{step}')
            if name in cases:
                print(f'compare: two cases are named {name} for LAVA')
            cases[name] = result
    return cases


def main(argv):
    if len(argv) != 4:
        sys.exit('usage: compare.py LAVA_LOG CASES LABEL')
    lava, job = lava_results(argv[1])
    want = vm_cases(argv[2])
    label = argv[3]
    problems = []
    if job is None:
        problems.append('lava-run reported no job result')
    elif job.get('result') != 'pass':
        problems.append(f"the LAVA job failed: {job.get('error_type')}: "
                        f"{job.get('error_msg')}")
    for name, result in sorted(want.items()):
        got = lava.get(name)
        if got is None:
            problems.append(f'{name}: {result} in check-vm, no LAVA test case')
        elif got != result:
            problems.append(f'{name}: {result} in check-vm, {got} in LAVA')
    for name in sorted(set(lava) - set(want)):
        problems.append(f'{name}: a LAVA test case check-vm did not have')
    if want and not lava:
        problems = problems[:1] + [f'none of the {len(want)} cases of '
                                   f'check-vm is a LAVA test case']
    for p in problems[:40]:
        print(f'compare: {p}')
    if len(problems) > 40:
        print(f'compare: ... and {len(problems) - 40} more differences')
    counts = [sum(1 for r in lava.values() if r == k)
              for k in ('pass', 'fail', 'skip')]
    if not problems:
        print(f'compare: all {len(want)} cases of check-vm on {label} are '
              f'LAVA test cases with the same verdicts')
    print(f'{counts[0]} passed, {counts[1] + len(problems)} failed, '
          f'{counts[2]} skipped')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
