#!/usr/bin/env bash
# No judge judges only itself: scripts/judge.sh (make check runs
# tests/run.sh under it) and .ci/run's tally each fail a runner that exits
# 0 while its closing line counts failures, or while it prints no closing
# line (judge.sh), or a KTAP failure (judge.sh --ktap), and pass an honest
# one; and make check itself, on a scratch copy of the built tree whose
# runner lies so, fails. Made-up runners stand for the real ones. About the
# source tree's scripts, the same on every kernel: not installed by make
# kselftest-install, so left out of the QEMU guests too.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# The copy's make check must find everything built and fetched (make check
# does both before its tests): it would fetch into the tree's own .cache.
prereq BUILT "the tree built, its downloads fetched (make check does both)" \
	'[[ -x $TOP/fds_example && -f $TOP/tests/bin/tests.list &&
	    -f $TOP/.cache/kunit/kunit_parser.py && -f $TOP/.cache/checkpatch/checkpatch.pl &&
	    -f $TOP/.cache/kselftest-runner/kselftest/runner.sh ]]'
# make check ARCH=... has a recipe of its own, for an ARCH= tree
# (build/tree-ARCH); and ARCH, which it exports, would have the copy's make
# check build such a tree.
prereq NATIVE "make check ARCH=... runs another recipe" \
	'[[ -z ${ARCH:-} || $ARCH == amd64 ]]'

# fake NAME STATUS LINE...: $T/NAME, a made-up runner that prints LINE...
# on its stdout (kept in $T/NAME.want), a note on its stderr, and exits
# STATUS.
fake()
{
	local name=$1 status=$2
	shift 2
	if (($#)); then
		printf '%s\n' "$@" > "$T/$name.want"
	else
		: > "$T/$name.want"
	fi
	{
		echo '#!/usr/bin/env bash'
		if (($#)); then
			printf '%s' 'printf "%s\n"'
			printf ' %q' "$@"
			echo
		fi
		echo "echo 'a note from $name' >&2"
		echo "exit $status"
	} > "$T/$name"
	chmod +x "$T/$name"
}

fake honest 0 "KTAP version 1" "1..2" "  KTAP version 1" "  1..1" \
	"  not ok 1 case # SKIP not on this kernel" "ok 1 one # SKIP all cases skipped" \
	"ok 2 two" "1 passed, 0 failed, 1 skipped"
fake counts_liar 0 "KTAP version 1" "1..2" "ok 1 one" "not ok 2 two" \
	"1 passed, 1 failed, 0 skipped"
fake silent 0
fake ktap_liar 0 "KTAP version 1" "1..1" "  KTAP version 1" "  1..1" \
	"  not ok 1 case" "ok 1 one" "1 passed, 0 failed, 0 skipped"
# as make mutate prints: the suites it runs fail (each kills a mutant),
# and its own closing line comes last
fake last_passes 0 "1 passed, 1 failed, 0 skipped" "mutate: 2 passed, 0 failed"
fake last_fails 0 "mutate: 2 passed, 0 failed" "1 passed, 1 failed, 0 skipped"
fake exits_3 3 "ok 1 one" "1 passed, 0 failed, 0 skipped"
fake fails_silently 2
fake fails_at_length 1 "ok 1 one" "line 2" "line 3" "line 4" "line 5" "line 6" \
	"0 passed, 1 failed, 0 skipped"
# more than the 4 KiB of file a step below lets the judge write
lines=()
for i in {1..1000}; do
	lines+=("ok $i case $i")
done
fake big 0 "KTAP version 1" "1..1000" "${lines[@]}" "1000 passed, 0 failed, 0 skipped"
unset lines i

# judge FAKE [--ktap]: scripts/judge.sh on the made-up runner FAKE; its
# stdout in $T/out, stderr in $T/err, its exit status in $status.
judge()
{
	status=0
	scripts/judge.sh "${@:2}" "$T/$1" > "$T/out" 2> "$T/err" || status=$?
	{
		echo "\$ judge.sh ${*:2} $1 -> exit $status"
		show_file "  out: " "$T/out"
		show_file "  err: " "$T/err"
	} >&2
}

# passed_through FAKE: the judge printed FAKE's output, all of it, each
# stream on its own.
passed_through()
{
	cmp -s "$T/$1.want" "$T/out" || fail "stdout is not $1's output"
	grep -qx "a note from $1" "$T/err" || fail "$1's stderr was lost"
}

# judged REGEX: stderr has one judge's line, matching REGEX.
judged()
{
	local n
	n=$(grep -c '^judge: ' "$T/err") || true
	((n == 1)) || fail "$n lines \"judge: ...\" on stderr, expected one"
	expect_err "^judge: $1"
}

step "judge.sh passes an honest runner, its output passed through" '
	for opt in "" --ktap; do
		judge honest $opt
		expect_status 0
		passed_through honest
		! grep -q "^judge: " "$T/err" || fail "a judge line on a pass"
	done
	judge last_passes
	expect_status 0
'

step "judge.sh fails a runner that exits 0 though its closing line counts a failure" '
	judge counts_liar
	expect_status 1
	passed_through counts_liar
	judged ".*closing line says: 1 passed, 1 failed, 0 skipped$"
'

step "judge.sh reads the last closing line" '
	judge last_fails
	expect_status 1
	judged ".*closing line says: 1 passed, 1 failed, 0 skipped$"
'

step "judge.sh fails a runner that exits 0 and prints no closing line" '
	judge silent
	expect_status 1
	passed_through silent
	judged ".*no closing line"
'

step "judge.sh --ktap fails a runner that counts none of the KTAP failure it printed" '
	judge ktap_liar
	expect_status 0
	judge ktap_liar --ktap
	expect_status 1
	passed_through ktap_liar
	judged ".*KTAP failure:   not ok 1 case$"
'

step "judge.sh exits with a failing runner's own status" '
	judge exits_3
	expect_status 3
	passed_through exits_3
	judged ".*exited with status 3$"
'

step "judge.sh without a runner: its usage, exit 2" '
	for args in "" --ktap; do
		status=0
		# shellcheck disable=SC2086 # no argument, or one
		scripts/judge.sh $args > "$T/out" 2> "$T/err" || status=$?
		expect_status 2
		expect_out
		[[ $(<"$T/err") == "usage: judge.sh [--ktap] CMD [ARG...]" ]] || fail "[$args]: $(<"$T/err")"
	done
'

step "judge.sh with no file to keep the output in fails, and runs nothing" '
	TMPDIR=$T/nowhere judge honest
	expect_status 1
	expect_out
	mapfile -t err < "$T/err"
	[[ ${#err[@]} == 1 && ${err[0]} == "mktemp: failed to create file via template"*"$T/nowhere/judge.XXXXXX"*": No such file or directory" ]] ||
		fail "stderr: ${err[*]}"
'

# The judge keeps the runner's output in a file (under TMPDIR) to judge it;
# here that file is on a tmpfs of 4 KiB (the scenario's own mount
# namespace), full before the output is (tee gets ENOSPC), though the
# runner passes and its output all goes by. (A file size limit instead
# made the judge die of SIGXFSZ under some parents.)
step "judge.sh fails a passing runner whose output it could not keep whole, and removes its file" '
	mkdir "$T/small"
	mount -t tmpfs -o size=4k tmpfs "$T/small"
	when_finished umount "$T/small"
	status=0
	TMPDIR=$T/small scripts/judge.sh "$T/big" 2> "$T/err" > "$T/out" || status=$?
	show_file "  err: " "$T/err" >&2
	expect_status 1
	passed_through big
	judged "could not keep $T/big.s output in $T/small/judge\.[[:alnum:]]{6}$"
	grep -q "^tee: $T/small/judge\.[[:alnum:]]*: No space left on device$" "$T/err" ||
		fail "no ENOSPC from tee"
	! compgen -G "$T/small/judge.*" > /dev/null || fail "left behind: $(compgen -G "$T/small/judge.*")"
'

# ci FAKE: .ci/run --suite, the whole run's code for one suite, on FAKE;
# its output in $T/out, its exit status in $status.
ci()
{
	status=0
	bash .ci/run --suite "$1" "$T/$1" > "$T/out" 2>&1 || status=$?
	show_file "  " "$T/out" >&2
	echo "  exit $status" >&2
	# the seconds, in the total's line and the suite's, as N
	sed -i -E -e 's/^(=== every suite \(total )[0-9]+ s\)$/\1N s)/' \
		-e "/^$1 /s/ +[0-9]+s\$/ Ns/" "$T/out"
}

# expect_ci FAKE STATUS VERDICT PASSED FAILED [WHY]: the run of ci FAKE
# exited STATUS and printed exactly the suite's command line, FAKE's output
# (its stderr last), "=== FAKE failed (WHY)" when WHY is given, and the
# report: the suite's line saying VERDICT with those counts, for a failed
# suite the last 5 lines of its output under its name, then the totals,
# the last line.
expect_ci()
{
	local want line output
	expect_status "$2" || return 1
	mapfile -t output < "$T/$1.want"
	output+=("a note from $1")
	want=("=== $1: $T/$1" "${output[@]}")
	[[ -z ${6:-} ]] || want+=("=== $1 failed ($6)")
	printf -v line '%-58s %-4s %5d passed %3d failed Ns' "$1" "$3" "$4" "$5"
	want+=("=== every suite (total N s)" "$line")
	((${#output[@]} > 5)) && output=("${output[@]:${#output[@]}-5}")
	[[ -z ${6:-} ]] ||
		want+=("=== the end of each failed suite's log" "--- $1" "${output[@]}")
	want+=("$4 passed, $5 failed")
	expect_out "${want[@]}"
}

step ".ci/run fails a suite that exits 0 though its closing line counts a failure" '
	ci counts_liar
	expect_ci counts_liar 1 FAIL 1 1 "exit 0, but its closing line counts 1 failed"
'

step ".ci/run passes an honest suite" '
	ci honest
	expect_ci honest 0 ok 1 0
'

step ".ci/run reads the last closing line" '
	ci last_fails
	expect_ci last_fails 1 FAIL 1 1 "exit 0, but its closing line counts 1 failed"
	ci last_passes
	expect_ci last_passes 0 ok 2 0
'

step ".ci/run counts a suite without counts that exits 0 (the fuzzer) as one pass" '
	ci silent
	expect_ci silent 0 ok 1 0
'

step ".ci/run fails a suite on its exit status, its closing line counting no failure, and counts it as one failure" '
	ci exits_3
	expect_ci exits_3 1 FAIL 1 1 "exit 3"
'

step ".ci/run ends its report with the last five lines of a failed suite" '
	ci fails_at_length
	expect_ci fails_at_length 1 FAIL 0 1 "exit 1"
'

step ".ci/run counts a suite without counts that fails as one failure" '
	ci fails_silently
	expect_ci fails_silently 1 FAIL 0 1 "exit 2"
'

# copy_tree DIR: the tree as it is, built, each file's time kept to the
# nanosecond (posix format), so that make finds nothing to rebuild; no git
# (make mutate's copies have none). .cache, the downloads (150 MB), linked
# (-n: in a copy such as make mutate's it is a link itself); build/
# (results, the ARCH= trees) and the fuzzer's work left out.
copy_tree()
{
	mkdir "$1"
	tar -C "$TOP" --anchored --exclude=./.git --exclude=./.cache --exclude=./build \
		--exclude=./fuzz/work --exclude=./fuzz/bin --format=posix -cf - . |
		tar -xf - -C "$1"
	ln -sn "$TOP/.cache" "$1/.cache"
}

# make_check FAKE: make check in the copy, whose tests/run.sh is FAKE;
# output in $T/out, exit status in $status. The outer make's jobserver
# (whose descriptors lib.sh closed) is not the copy's; the flags it
# exported (SANITIZE=1, VALGRIND=1) are, so that it rebuilds nothing.
make_check()
{
	rm -f "$T/tree/tests/run.sh"
	cp "$T/$1" "$T/tree/tests/run.sh"
	status=0
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$T/tree" check > "$T/out" 2>&1 ||
		status=$?
	show_file "  " "$T/out" >&2
	echo "  exit $status" >&2
}

step "setup: a scratch copy of the built tree, with no lint" --needs BUILT,NATIVE '
	copy_tree "$T/tree"
	printf "#!/usr/bin/env bash\nexit 0\n" > "$T/tree/scripts/lint.sh"
'

step "make check fails when tests/run.sh exits 0 though it counts a failure" --needs BUILT,NATIVE '
	make_check counts_liar
	((status != 0)) || fail "make check passed"
	grep -q "^judge: tests/run.sh: .*closing line says: 1 passed, 1 failed" "$T/out" ||
		fail "make check failed, but not for the lie"
'

step "make check passes when tests/run.sh is honest" --needs BUILT,NATIVE '
	make_check honest
	expect_status 0
'

scenario_end
