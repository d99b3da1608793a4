#!/usr/bin/env bash
# scripts/matrix.py itself, on a scratch kernel-matrix document (MATRIX_DOC)
# with a host column and a 5.10 column: the run that matches passes and
# rewrites nothing; a changed cell, a new row and a vanished row each fail,
# in either column, naming row and kernel; an update rewrites only the
# table and the kernels, never the prose. The same on every kernel, and
# Python: not installed by make kselftest-install, so left out of the QEMU
# guests too.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# The host's series as matrix.py names it ("6.18"), and the width of the
# host column, which is its header's.
read -r series < /proc/sys/kernel/osrelease
series=${series%%-*}
series=${series%.*}
w=$((${#series} + 5))
cell() { printf "%-*s" "$w" "$1"; }

# write_doc: a scratch document as matrix.py writes it, prose around the
# two sections.
write_doc()
{
	local dashes
	printf -v dashes "%*s" "$w" ""
	cat > "$T/doc.md" <<- EOF
	# A scratch matrix

	Prose that no update may touch.

	## Rows

	- \`alpha\`: first
	- \`beta\`: second

	## Matrix

	| row     | $(cell "host $series") | 5.10  |
	|---------|-${dashes// /-}-|-------|
	| \`alpha\` | $(cell ok) | EPERM |
	| \`beta\`  | $(cell yes) | -     |

	## Kernels

	- \`5.10\`: 5.10.0-1-test
	EOF
}

# results NAME ROW=VALUE...: a results directory whose matrix.tsv has these.
results()
{
	local dir=$T/$1 rv
	shift
	mkdir -p "$dir"
	: > "$dir/matrix.tsv"
	for rv in "$@"; do
		printf '%s\t%s\n' "${rv%%=*}" "${rv#*=}" >> "$dir/matrix.tsv"
	done
}

# matrix NAME MODE COLUMN=DIR...: matrix.py on a copy of the document;
# output in $T/NAME.out, status in $T/NAME.rc, the copy in $T/NAME.md.
matrix()
{
	local name=$1 rc=0
	shift
	cp "$T/doc.md" "$T/$name.md"
	MATRIX_DOC=$T/$name.md "$TOP/scripts/matrix.py" "$@" > "$T/$name.out" 2>&1 || rc=$?
	echo "$rc" > "$T/$name.rc"
}

# expect_matrix NAME RC LINE: how the run ended, and a line it printed.
expect_matrix()
{
	[[ $(<"$T/$1.rc") == "$2" ]] || fail "$1: exit $(<"$T/$1.rc"), expected $2: $(<"$T/$1.out")"
	grep -qxF "$3" "$T/$1.out" || fail "$1: no line [$3] in: $(<"$T/$1.out")"
}

step "setup: matrix.py compares and updates scratch runs" '
	write_doc
	results host alpha=ok beta=yes
	results k510 alpha=EPERM
	echo 5.10.0-1-test > "$T/k510/kernel"
	results host-changed alpha=EACCES beta=yes
	results k510-changed alpha=ok
	results host-new alpha=ok beta=yes gamma=1
	results k510-new alpha=EPERM gamma=2
	results host-vanished alpha=ok
	results k510-vanished
	matrix same check host="$T/host" 5.10="$T/k510"
	matrix same-update update host="$T/host" 5.10="$T/k510"
	matrix host-changed check host="$T/host-changed"
	matrix k510-changed check 5.10="$T/k510-changed"
	matrix host-new check host="$T/host-new"
	matrix k510-new check 5.10="$T/k510-new"
	matrix host-vanished check host="$T/host-vanished"
	matrix k510-vanished check 5.10="$T/k510-vanished"
	matrix new-update update host="$T/host-new" 5.10="$T/k510-new"
'

step "the run that matches the document passes, and an update leaves it byte for byte" '
	expect_matrix same 0 "matrix: as committed in $T/same.md"
	expect_matrix same-update 0 "matrix: wrote $T/same-update.md"
	cmp "$T/doc.md" "$T/same-update.md"
'

step "a changed cell fails, naming row and kernel, in the host column and a kernel column" '
	expect_matrix host-changed 1 "matrix: FAIL: row alpha, kernel host: observed EACCES, committed ok"
	expect_matrix k510-changed 1 "matrix: FAIL: row alpha, kernel 5.10: observed ok, committed EPERM"
'

step "a new row fails, in the host column and a kernel column" '
	expect_matrix host-new 1 "matrix: FAIL: new row gamma (kernel host: 1), not in $T/host-new.md"
	expect_matrix k510-new 1 "matrix: FAIL: new row gamma (kernel 5.10: 2), not in $T/k510-new.md"
'

step "a vanished row fails, in the host column and a kernel column" '
	expect_matrix host-vanished 1 "matrix: FAIL: row beta, kernel host: committed yes, not observed"
	expect_matrix k510-vanished 1 "matrix: FAIL: row alpha, kernel 5.10: committed EPERM, not observed"
'

step "an update writes the new row into the table, and the prose stays as written" '
	expect_matrix new-update 0 "matrix: row gamma has no explanation under \"## Rows\" in $T/new-update.md; write one"
	grep -qxF "| \`gamma\` | $(cell 1) | 2     |" "$T/new-update.md" ||
		fail "no gamma row: $(<"$T/new-update.md")"
	diff <(sed -n "1,/^## Matrix/p" "$T/doc.md") <(sed -n "1,/^## Matrix/p" "$T/new-update.md")
'
scenario_end
