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

# table_lines [HEADER ALPHA BETA]...: the table matrix.py prints for the
# scratch document's rows, alpha and beta, whose host cells are ok and yes:
# after the host column, a column per HEADER holding ALPHA and BETA, as
# wide as the widest of the three.
table_lines()
{
	local head rule dashes cw alpha beta
	head="| row     | $(cell "host $series") |"
	alpha="| \`alpha\` | $(cell ok) |" beta="| \`beta\`  | $(cell yes) |"
	printf -v dashes "%*s" "$w" ""
	rule="|---------|-${dashes// /-}-|"
	while (($#)); do
		cw=${#1}
		((${#2} > cw)) && cw=${#2}
		((${#3} > cw)) && cw=${#3}
		printf -v dashes "%*s" "$cw" ""
		head+=$(printf " %-*s |" "$cw" "$1") rule+="-${dashes// /-}-|"
		alpha+=$(printf " %-*s |" "$cw" "$2") beta+=$(printf " %-*s |" "$cw" "$3")
		shift 3
	done
	printf "%s\n" "$head" "$rule" "$alpha" "$beta"
}

step "a run with no column of the document compares nothing, and passes; so does a host of another series" '
	matrix elsewhere check 6.1="$T/k510"
	expect_matrix elsewhere 0 "matrix: no column of this run is in $T/elsewhere.md; nothing compared"
	cp "$T/elsewhere.out" "$T/out"
	mapfile -t table < <(table_lines 5.10 EPERM - 6.1 EPERM -)
	expect_out "matrix: kernel 6.1 has no column in $T/elsewhere.md; not compared" "${table[@]}" \
		"matrix: no column of this run is in $T/elsewhere.md; nothing compared"
	cp "$T/doc.md" "$T/doc.saved"
	sed -i "s/| host $series /| host 0.1 /" "$T/doc.md"
	matrix old-host check host="$T/host-changed"
	mv "$T/doc.saved" "$T/doc.md"
	expect_matrix old-host 0 "matrix: no column of this run is in $T/old-host.md; nothing compared"
	cp "$T/old-host.out" "$T/out"
	mapfile -t table < <(table_lines 5.10 EPERM -)
	table[2]=${table[2]/"| $(cell ok) |"/"| $(cell EACCES) |"}
	expect_out "matrix: the host runs $series, the doc'"'"'s host column is 0.1; not compared" "${table[@]}" \
		"matrix: no column of this run is in $T/old-host.md; nothing compared"
'

# A run that recorded what a table cannot hold, or one row twice with two
# values, is a test's bug: each fails the run, a check and an update alike
# (which writes the table all the same).
step "rows a table cannot hold, and a row recorded twice, fail a check and an update" '
	results unusable "bad row=x" "-lead=x" "empty=" "pipe=a|b" "tick=a\`b" alpha=ok alpha=EACCES beta=yes
	matrix unusable check host="$T/unusable"
	matrix unusable-update update host="$T/unusable"
	rule="(a row is [A-Za-z0-9._-], a value has no | or \`)"
	problems=("kernel host: unusable row '"'"'bad row'"'"' = '"'"'x'"'"' $rule"
		"kernel host: unusable row '"'"'-lead'"'"' = '"'"'x'"'"' $rule"
		"kernel host: unusable row '"'"'empty'"'"' = '"''"' $rule"
		"kernel host: unusable row '"'"'pipe'"'"' = '"'"'a|b'"'"' $rule"
		"kernel host: unusable row '"'"'tick'"'"' = '"'"'a\`b'"'"' $rule"
		"row alpha, kernel host: recorded both ok and EACCES in one run")
	mapfile -t table < <(table_lines 5.10 EPERM -)
	expect_matrix unusable 1 "matrix: 6 difference(s) from $T/unusable.md; if intended: make matrix-update"
	cp "$T/unusable.out" "$T/out"
	expect_out "${table[@]}" "" "${problems[@]/#/matrix: FAIL: }" \
		"matrix: 6 difference(s) from $T/unusable.md; if intended: make matrix-update"
	expect_matrix unusable-update 1 "matrix: wrote $T/unusable-update.md"
	cp "$T/unusable-update.out" "$T/out"
	expect_out "${table[@]}" "" "${problems[@]/#/matrix: changed: }" "matrix: wrote $T/unusable-update.md"
	cmp "$T/doc.md" "$T/unusable-update.md"
'

# The first update, with no document yet, and a run that recorded no row.
step "an update with no document writes one, its two sections: an empty table, and the kernel" '
	results no-rows
	echo 5.10.0-1-test > "$T/no-rows/kernel"
	rc=0
	MATRIX_DOC=$T/first.md "$TOP/scripts/matrix.py" update 5.10="$T/no-rows" > "$T/out" 2>&1 || rc=$?
	((rc == 0)) || fail "exit $rc: $(<"$T/out")"
	expect_out "matrix: kernel 5.10 has no column in $T/first.md; not compared" \
		"| row | 5.10 |" "|-----|------|" "matrix: wrote $T/first.md"
	cp "$T/first.md" "$T/out"
	expect_out "" "## Matrix" "" "| row | 5.10 |" "|-----|------|" "" "" "## Kernels" "" \
		"- \`5.10\`: 5.10.0-1-test"
'

# matrix.py reads data/kernels beside it (its ../data): a scratch copy
# with comments, a blank line, an arm64 kernel and an amd64 one whose
# line leaves the arch out, listed against version order.
step "data/kernels: comments and blank lines skipped, ARCH-LABEL is the column \"ARCH LABEL\", columns in its order" '
	mkdir -p "$T/top/scripts" "$T/top/data"
	cp "$TOP/scripts/matrix.py" "$T/top/scripts/"
	printf "%s\n" "# label suite package arch" "#" "" "6.1 bookworm linux-image-cloud-arm64 arm64" \
		"5.10 bullseye linux-image-cloud-amd64" > "$T/top/data/kernels"
	results arm64 alpha=yes
	echo 6.1.0-1-test > "$T/arm64/kernel"
	cp "$T/doc.md" "$T/arm64.md"
	rc=0
	MATRIX_DOC=$T/arm64.md "$T/top/scripts/matrix.py" update arm64-6.1="$T/arm64" > "$T/out" 2>&1 || rc=$?
	((rc == 0)) || fail "exit $rc: $(<"$T/out")"
	mapfile -t table < <(table_lines "arm64 6.1" yes - 5.10 EPERM -)
	expect_out "matrix: kernel arm64 6.1 has no column in $T/arm64.md; not compared" "${table[@]}" \
		"matrix: wrote $T/arm64.md"
	sed -n "/^## Matrix/,\$p" "$T/arm64.md" > "$T/out"
	expect_out "## Matrix" "" "${table[@]}" "" "## Kernels" "" \
		"- \`arm64 6.1\`: 6.1.0-1-test" "- \`5.10\`: 5.10.0-1-test"
'
# The order of the columns: host first, then data/kernels' order (a
# scratch one, as above, against version order), then any other by
# version, numbers as numbers and before letters; the document's own
# columns and the run's come in mixed.
step "columns: host first, then data/kernels' order, then the others by version" '
	printf "%s\n" "sid unstable linux-image-cloud-amd64" "5.10 bullseye linux-image-cloud-amd64 amd64" \
		"6.1 bookworm linux-image-cloud-arm64 arm64" > "$T/top/data/kernels"
	printf "%s\n" "## Matrix" "" "| row | sid |" "|-----|-----|" "| \`alpha\` | yes |" > "$T/order.md"
	args=()
	for col in riscv64-6.10 6.20 riscv64-6.9 5.10 arm64-6.1 host; do
		results "order-$col" alpha=yes
		args+=("$col=$T/order-$col")
	done
	rc=0
	MATRIX_DOC=$T/order.md "$T/top/scripts/matrix.py" update "${args[@]}" > "$T/order.out" 2>&1 || rc=$?
	((rc == 0)) || fail "exit $rc: $(<"$T/order.out")"
	grep -qxF "| row     | $(cell "host $series") | sid | 5.10 | arm64 6.1 | 6.20 | riscv64-6.9 | riscv64-6.10 |" \
		"$T/order.md" || fail "$(<"$T/order.md")"
'

# A document edited by hand: a row recorded only in a later column (its
# first cell "-", as a rule line'"'"'s), and a row short of its last cells.
step "a row whose first cell is -, and a row short of cells, are read as rows" '
	sed -e "s/^| \`alpha\` | $(cell ok) |/| \`alpha\` | $(cell -) |/" \
		-e "s/^\(| \`beta\`  | $(cell yes) |\).*/\1/" "$T/doc.md" > "$T/edited.md"
	! cmp -s "$T/doc.md" "$T/edited.md" || fail "the edit changed nothing"
	cp "$T/doc.md" "$T/doc.saved"
	cp "$T/edited.md" "$T/doc.md"
	matrix edited check 5.10="$T/k510"
	mv "$T/doc.saved" "$T/doc.md"
	expect_matrix edited 0 "matrix: as committed in $T/edited.md"
	! grep -q "FAIL" "$T/edited.out" || fail "$(<"$T/edited.out")"
'

step "matrix.py refuses a mode or a COLUMN=DIR it cannot use, naming it" '
	for args in "" "check" "list host=$T/host"; do
		rc=0
		# shellcheck disable=SC2086 # split on purpose
		"$TOP/scripts/matrix.py" $args > "$T/out" 2> "$T/err" || rc=$?
		((rc == 1)) || fail "[$args]: exit $rc"
		expect_out
		[[ $(<"$T/err") == "usage: matrix.py check|update COLUMN=DIR..." ]] || fail "[$args]: $(<"$T/err")"
	done
	# from the directory of a readable matrix.tsv, whose path an argument
	# without "=" would name
	for arg in host "=$T/host" "host=$T/nowhere"; do
		rc=0
		(cd "$T/host" && MATRIX_DOC=$T/doc.md "$TOP/scripts/matrix.py" check "$arg") > "$T/out" 2> "$T/err" || rc=$?
		((rc == 1)) || fail "[$arg]: exit $rc"
		expect_out
		[[ $(<"$T/err") == "matrix.py: '"'"'$arg'"'"' is not COLUMN=DIR with a readable DIR/matrix.tsv" ]] ||
			fail "[$arg]: $(<"$T/err")"
	done
'
scenario_end
