#!/usr/bin/python3
"""The kernel matrix: what each kernel's test run recorded, as a table of
rows x kernels, compared with or written into docs/kernel-matrix.md.

  matrix.py check  COLUMN=DIR...   print; fail on any difference from the doc
  matrix.py update COLUMN=DIR...   print; rewrite the doc's matrix

COLUMN is "host" (this machine, natively) or a kernel of data/kernels: its
label for amd64, "ARCH LABEL" for another architecture ("arm64 6.1", which
may be given as "arm64-6.1", the name of its results directory).
DIR is a run's results directory: matrix.tsv holds one "ROW<TAB>VALUE" line
per observation (matrix_record in tests/lib.sh and tests/bpffs_fixture.h),
and a file "kernel", if any, names the kernel's release. Only the doc's
"## Matrix" and "## Kernels" sections are written; its prose, the row
explanations included, is the people's.
"""

import os
import platform
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROW_NAME = re.compile(r'^[A-Za-z0-9][A-Za-z0-9._-]*$')
EXPLANATION = re.compile(r'^- `([^`]+)`: ')
RELEASE = re.compile(r'^- `([^`]+)`: (.*)$')
NONE = '-'


def rel(path):
    return os.path.relpath(path, TOP) if path.startswith(TOP + '/') else path


def kernel_columns():
    """The columns of data/kernels' kernels, in the matrix's order."""
    columns = []
    with open(os.path.join(TOP, 'data', 'kernels'), encoding='utf-8') as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith('#'):
                continue
            arch = fields[3] if len(fields) > 3 else 'amd64'
            columns.append(fields[0] if arch == 'amd64'
                           else f'{arch} {fields[0]}')
    return columns


def column_name(col):
    """COLUMN as the matrix names it: "arm64-6.1" is "arm64 6.1"."""
    arch, sep, label = col.partition('-')
    if sep and f'{arch} {label}' in kernel_columns():
        return f'{arch} {label}'
    return col


def host_series():
    m = re.match(r'^([0-9]+\.[0-9]+)', platform.release())
    return m.group(1) if m else platform.release()


def split_sections(text):
    """[(heading or None, [lines])]: the doc cut at its "## " headings."""
    sections = [(None, [])]
    for line in text.splitlines(keepends=True):
        if line.startswith('## '):
            sections.append((line.rstrip('\n')[3:], []))
        else:
            sections[-1][1].append(line)
    return sections


class Doc:
    """What docs/kernel-matrix.md commits: cells, columns, releases."""

    def __init__(self, path):
        self.path = path
        self.text = ''
        self.cols = []          # column labels, "host" for "host X.Y"
        self.rows = []
        self.cell = {}          # (row, col) -> value
        self.release = {}       # col -> release
        self.explained = set()
        self.host_series = ''
        if os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                self.text = f.read()
        for heading, lines in split_sections(self.text):
            if heading == 'Rows':
                self.read_rows(lines)
            elif heading == 'Matrix':
                self.read_table(lines)
            elif heading == 'Kernels':
                self.read_releases(lines)

    def read_rows(self, lines):
        for line in lines:
            m = EXPLANATION.match(line)
            if m:
                self.explained.add(m.group(1))

    def read_table(self, lines):
        header = None
        for line in lines:
            if not line.startswith('|'):
                continue
            cells = [c.strip() for c in line.rstrip('\n').strip('|').split('|')]
            if header is None:
                header = cells
                for i in range(1, len(header)):
                    if header[i].startswith('host '):
                        self.host_series = header[i][len('host '):]
                        header[i] = 'host'
                    self.cols.append(header[i])
            elif not cells[0].startswith('-'):
                row = cells[0].replace('`', '')
                self.rows.append(row)
                for i in range(1, len(header)):
                    value = cells[i] if i < len(cells) else ''
                    self.cell[row, header[i]] = value or NONE

    def read_releases(self, lines):
        for line in lines:
            m = RELEASE.match(line.rstrip('\n'))
            if m:
                self.release[m.group(1)] = m.group(2)


class Run:
    """The observations of this run's columns."""

    def __init__(self, args):
        self.cols = []
        self.seen = {}          # (row, col) -> value
        self.rows = set()
        self.release = {}
        self.problems = []
        for arg in args:
            col, sep, path = arg.partition('=')
            tsv = os.path.join(path, 'matrix.tsv')
            if not sep or not col or not os.access(tsv, os.R_OK):
                sys.exit(f"matrix.py: '{arg}' is not COLUMN=DIR with a "
                         f"readable DIR/matrix.tsv")
            col = column_name(col)
            self.cols.append(col)
            self.read(col, tsv)
            kernel = os.path.join(path, 'kernel')
            if os.path.exists(kernel):
                with open(kernel, encoding='utf-8') as f:
                    self.release[col] = f.read().strip()

    def read(self, col, tsv):
        with open(tsv, encoding='utf-8') as f:
            for line in f:
                row, _, value = line.rstrip('\n').partition('\t')
                if not row:
                    continue
                if (not ROW_NAME.match(row) or not value or '|' in value
                        or '`' in value):
                    self.problems.append(
                        f"kernel {col}: unusable row '{row}' = '{value}' (a "
                        f"row is [A-Za-z0-9._-], a value has no | or `)")
                    continue
                old = self.seen.get((row, col))
                if old is not None and old != value:
                    self.problems.append(
                        f'row {row}, kernel {col}: recorded both {old} and '
                        f'{value} in one run')
                    continue
                self.seen[row, col] = value
                self.rows.add(row)


def compare(doc, run, series):
    """Differences between the run and the doc; how many columns compared."""
    problems, compared = [], 0
    for col in run.cols:
        if col not in doc.cols:
            print(f'matrix: kernel {col} has no column in {rel(doc.path)}; '
                  f'not compared')
            continue
        if col == 'host' and doc.host_series != series:
            print(f"matrix: the host runs {series}, the doc's host column "
                  f"is {doc.host_series}; not compared")
            continue
        compared += 1
        for row in sorted(run.rows):
            value = run.seen.get((row, col))
            if value is None:
                continue
            if row not in doc.rows:
                problems.append(f'new row {row} (kernel {col}: {value}), '
                                f'not in {rel(doc.path)}')
            elif doc.cell.get((row, col), NONE) != value:
                problems.append(f'row {row}, kernel {col}: observed {value}, '
                                f'committed {doc.cell.get((row, col), NONE)}')
        for row in doc.rows:
            committed = doc.cell.get((row, col), NONE)
            if committed != NONE and (row, col) not in run.seen:
                problems.append(f'row {row}, kernel {col}: committed '
                                f'{committed}, not observed')
    return problems, compared


def column_key(col, order):
    """host first, then data/kernels' order, then others by version."""
    if col == 'host':
        return (0, 0, [])
    if col in order:
        return (1, order.index(col), [])
    parts = [(0, int(p), '') if p.isdigit() else (1, 0, p)
             for p in re.findall(r'\d+|\D+', col)]
    return (2, 0, parts)


def merge(doc, run):
    """The doc's table with this run's columns replacing the doc's; rows
    observed nowhere are dropped."""
    cols = list(doc.cols)
    cell = dict(doc.cell)
    for col in run.cols:
        if col not in cols:
            cols.append(col)
        for row in set(doc.rows) | run.rows:
            cell[row, col] = run.seen.get((row, col), NONE)
    order = kernel_columns()
    cols.sort(key=lambda c: column_key(c, order))
    rows = sorted(set(doc.rows) | run.rows)
    rows = [r for r in rows if any(cell.get((r, c), NONE) != NONE
                                    for c in cols)]
    return cols, rows, cell


def table(cols, rows, cell, headers):
    """The Markdown table, columns padded so it reads as plain text too."""
    w0 = max([3] + [len(r) + 2 for r in rows])
    widths = [max([len(headers[c])] + [len(cell.get((r, c), NONE))
                                        for r in rows]) for c in cols]
    lines = ['| ' + 'row'.ljust(w0) + ' |' +
             ''.join(f' {headers[c].ljust(w)} |' for c, w in zip(cols, widths)),
             '|-' + '-' * w0 + '-|' + ''.join('-' * (w + 2) + '|'
                                                for w in widths)]
    for r in rows:
        lines.append('| ' + f'`{r}`'.ljust(w0) + ' |' +
                     ''.join(f' {cell.get((r, c), NONE).ljust(w)} |'
                             for c, w in zip(cols, widths)))
    return '\n'.join(lines) + '\n'


def rewrite(doc, matrix, kernels):
    """The doc's text with its Matrix and Kernels sections replaced."""
    sections = split_sections(doc.text)
    wanted = {'Matrix': '\n' + matrix + '\n', 'Kernels': '\n' + kernels}
    out = []
    for heading, lines in sections:
        if heading is not None:
            out.append(f'## {heading}\n')
        if heading in wanted:
            out.append(wanted.pop(heading))
        else:
            out.extend(lines)
    for heading, body in wanted.items():
        out.append(f'\n## {heading}\n{body}')
    return ''.join(out)


def main(argv):
    if len(argv) < 3 or argv[1] not in ('check', 'update'):
        sys.exit('usage: matrix.py check|update COLUMN=DIR...')
    mode = argv[1]
    doc = Doc(os.environ.get('MATRIX_DOC') or
              os.path.join(TOP, 'docs', 'kernel-matrix.md'))
    run = Run(argv[2:])
    series = host_series()
    problems, compared = compare(doc, run, series)
    problems = run.problems + problems
    cols, rows, cell = merge(doc, run)
    host = series if 'host' in run.cols else doc.host_series
    headers = {c: f'host {host}' if c == 'host' else c for c in cols}
    matrix = table(cols, rows, cell, headers)
    release = dict(doc.release, **run.release)
    kernels = ''.join(f'- `{c}`: {release[c]}\n' for c in cols
                      if release.get(c))

    sys.stdout.write(matrix)
    if problems:
        print()
        what = 'FAIL' if mode == 'check' else 'changed'
        for p in problems:
            print(f'matrix: {what}: {p}')
    if mode == 'update':
        text = rewrite(doc, matrix, kernels)
        with open(doc.path + '.tmp', 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(doc.path + '.tmp', doc.path)
        print(f'matrix: wrote {rel(doc.path)}')
        for r in rows:
            if r not in doc.explained:
                print(f'matrix: row {r} has no explanation under "## Rows" '
                      f'in {rel(doc.path)}; write one')
        # a row recorded twice with different values is a test bug
        return 1 if run.problems else 0
    if problems:
        print(f'matrix: {len(problems)} difference(s) from {rel(doc.path)}; '
              f'if intended: make matrix-update')
        return 1
    if compared:
        print(f'matrix: as committed in {rel(doc.path)}')
    else:
        print(f'matrix: no column of this run is in {rel(doc.path)}; '
              f'nothing compared')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
