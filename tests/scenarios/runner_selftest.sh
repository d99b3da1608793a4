#!/usr/bin/env bash
# tests/run.sh and scripts/ktap_check.py themselves: the runner, copied
# into a scratch tree with a few made-up scenarios (passing, failing,
# skipping, hanging), must say in its exit status and closing line what
# happened, plan as many tests as it runs, and print KTAP that the checker
# passes; the checker must refuse KTAP that breaks ktap.rst's rules. The
# same on every kernel: not installed by make kselftest-install, so left
# out of the QEMU guests too.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

prereq KUNIT "the kernel's KTAP parser (make check fetches it into .cache/kunit)" \
	'[[ -f $TOP/.cache/kunit/kunit_parser.py ]] && command -v python3'

# scenario NAME STEPS [HEADER...]: a made-up scenario of the scratch tree,
# its header's comment lines first.
scenario()
{
	printf '%s\n' "${@:3}" '. "$(dirname "$0")/../lib.sh"' scenario_begin "$2" scenario_end \
		> "$tree/tests/scenarios/$1.sh"
}

# new_tree DIR: the scratch tree is DIR, with the runner and lib.sh as
# they are and no test yet.
new_tree()
{
	tree=$1
	mkdir -p "$tree/tests/scenarios" "$tree/tests/bin"
	cp tests/run.sh tests/lib.sh "$tree/tests/"
	: > "$tree/tests/bin/tests.list"
}

# make_tree: the scratch tree with four made-up scenarios.
make_tree()
{
	new_tree "$T/tree"
	scenario passes "step one true; step two 'true'"
	scenario fails "step good true; step bad 'false'"
	scenario skips "prereq NEVER never false; step good true; step needy --needs NEVER true"
	scenario hangs "step sleeper 'sleep 60'"
}

# run NAME [VAR=VALUE...] [PATTERN]: the scratch runner, its stdout in
# $T/NAME.out, exit status in $T/NAME.rc, results in $T/NAME.res/ (and
# not in this run's matrix rows, which $FDS_MATRIX_OUT names). What the
# outer run was given (make mutate's CI, FDS_FAIL_FAST, TEST_TIMEOUT) is
# not the scratch runner's.
run()
{
	local name=$1 rc=0 vars=()
	shift
	while [[ ${1:-} == *=* ]]; do
		vars+=("$1")
		shift
	done
	env -u CI -u FDS_IN_VM -u FDS_ARCH_ONCE -u FDS_MATRIX_OUT -u FDS_FAIL_FAST -u TEST_TIMEOUT -u VALGRIND FDS_RESULTS="$T/$name.res" "${vars[@]}" bash "$tree/tests/run.sh" "$@" \
		> "$T/$name.out" 2> "$T/$name.err" || rc=$?
	echo "$rc" > "$T/$name.rc"
}

# expect_run NAME RC CLOSING: how the run ended, last line and status.
expect_run()
{
	local lines
	mapfile -t lines < "$T/$1.out"
	[[ $(<"$T/$1.rc") == "$2" ]] || fail "$1: exit $(<"$T/$1.rc"), expected $2"
	[[ ${lines[-1]:-} == "$3" ]] || fail "$1: closing line [${lines[-1]:-}], expected [$3]"
}

step "setup: the scratch runner runs each made-up scenario, and all of them" '
	make_tree
	run passes passes &
	run fails fails &
	run skips skips &
	run skips-ci CI=true skips &
	run hangs TEST_TIMEOUT=1 hangs &
	run all TEST_TIMEOUT=3 &
	wait
'

step "a passing test: exit 0, its cases counted" '
	expect_run passes 0 "2 passed, 0 failed, 0 skipped"
'

step "a failing case: exit 1, and the closing line says so" '
	expect_run fails 1 "1 passed, 1 failed, 0 skipped"
	grep -qx "not ok 1 fails" "$T/fails.out" || fail "no not ok line for the test"
'

step "a skipped case passes the run, and is counted as skipped" '
	expect_run skips 0 "1 passed, 0 failed, 1 skipped"
'

step "under CI=true a skipped case fails the run" '
	expect_run skips-ci 1 "0 passed, 1 failed, 0 skipped"
	grep -qx "not ok 1 skips" "$T/skips-ci.out" || fail "the test is not failed"
'

step "a test that does not end in time is not ok, with the TIMEOUT directive" '
	expect_run hangs 1 "0 passed, 1 failed, 0 skipped"
	grep -qx "not ok 1 hangs # TIMEOUT 1s" "$T/hangs.out" || fail "no TIMEOUT line"
'

step "the plan equals the tests run, numbered in order" '
	mapfile -t lines < "$T/all.out"
	[[ ${lines[0]} == "KTAP version 1" && ${lines[1]} == "1..4" ]] ||
		fail "begins [${lines[0]}] [${lines[1]}]"
	n=0
	for line in "${lines[@]}"; do
		[[ $line =~ ^(not\ )?ok\ ([0-9]+)\  ]] || continue
		n=$((n + 1))
		((BASH_REMATCH[2] == n)) || fail "result $n is numbered ${BASH_REMATCH[2]}"
	done
	((n == 4)) || fail "4 planned, $n results"
	expect_run all 1 "4 passed, 2 failed, 1 skipped"
'

step "the results are files: counts, failures, KTAP as printed" '
	[[ $(<"$T/all.res/counts") == "4 2 1" ]] || fail "counts: $(<"$T/all.res/counts")"
	grep -qx "fails: bad" "$T/all.res/failures" || fail "no fails: bad"
	grep -qx "hangs: TIMEOUT 3s" "$T/all.res/failures" || fail "no hangs: TIMEOUT 3s"
	grep -qx "skips: needy (skipped: missing NEVER: never)" "$T/all.res/failures" ||
		fail "no skips: needy: $(<"$T/all.res/failures")"
	mapfile -t printed < "$T/all.out"
	mapfile -t kept < "$T/all.res/ktap"
	[[ ${kept[*]} == "${printed[*]:0:${#printed[@]}-1}" ]] || fail "the kept KTAP differs"
'

step "a test is picked by its whole name alone, by part of a name with others, and by several names; a name that picks none stops the run" '
	new_tree "$T/names"
	scenario walk "step one true"
	scenario walk_beyond "step one true"
	scenario other "step one true"
	run exact walk &
	run part alk &
	run several walk other &
	run none walk nosuch &
	wait
	expect_run exact 0 "1 passed, 0 failed, 0 skipped"
	grep -qx "ok 1 walk" "$T/exact.out" || fail "walk is not the test run"
	expect_run part 0 "2 passed, 0 failed, 0 skipped"
	expect_run several 0 "2 passed, 0 failed, 0 skipped"
	grep -qx "ok 2 walk" "$T/several.out" || fail "walk is not the second test run"
	[[ $(<"$T/none.rc") == 1 && ! -s $T/none.out ]] || fail "a name that picks nothing ran: $(<"$T/none.out")"
	grep -qx "run.sh: no test is called nosuch or has it in its name" "$T/none.err" ||
		fail "the name that picks nothing is not named: $(<"$T/none.err")"
'

step "a guest leaves the kernel-independent tests out, and says which; an architecture's first keeps them" '
	new_tree "$T/ki"
	scenario independent "step alone true" "# a made-up scenario" \
		"# kernel-independent: user space only"
	scenario mixed "step \"any kernel\" --kernel-independent true; step \"this kernel\" true"
	run native &
	run guest FDS_IN_VM=1 &
	run first FDS_IN_VM=1 FDS_ARCH_ONCE=1 &
	wait
	expect_run native 0 "3 passed, 0 failed, 0 skipped"
	expect_run first 0 "3 passed, 0 failed, 0 skipped"
	expect_run guest 0 "1 passed, 0 failed, 0 skipped"
	mapfile -t lines < "$T/guest.out"
	[[ ${lines[1]} == "# kernel-independent, left out in this guest (make check runs them): independent.sh" ]] ||
		fail "guest: no # line naming independent.sh: [${lines[1]}]"
	[[ ${lines[2]} == "1..1" ]] || fail "guest: plan [${lines[2]}], expected 1..1"
	grep -qx "ok 1 mixed" "$T/guest.out" || fail "guest: mixed is not test 1"
	grep -q "any kernel" "$T/guest.out" && fail "guest: ran the kernel-independent step"
	grep -q "kernel-independent, left out" "$T/first.out" "$T/native.out" &&
		fail "a run that keeps them says they are left out"
	grep -qx "ok 1 independent" "$T/first.out" || fail "first guest: no independent"
	grep -qx "  ok 1 any kernel" "$T/first.out" || fail "first guest: no kernel-independent step"
	grep -qx "  ok 1 any kernel" "$T/native.out" || fail "native: no kernel-independent step"
'

# ktap_check DIR: the checker on a copy of the passing run's results whose
# KTAP went through EDIT (a sed script); its output in DIR.check.
ktap_check()
{
	local dir=$T/$1 rc=0
	mkdir -p "$dir"
	cp "$T/passes.res/counts" "$dir/"
	sed -e "$2" "$T/passes.res/ktap" > "$dir/ktap"
	[[ -z ${3:-} ]] || echo "$3" > "$dir/counts"
	KTAP_PARSE_SECONDS=3 "$TOP/scripts/ktap_check.py" "$dir" > "$dir.check" 2>&1 || rc=$?
	return "$rc"
}

step "the checker passes the runner's KTAP, read by the kernel's parser" --host-only --needs KUNIT '
	ktap_check as-printed "" || fail "$(<"$T/as-printed.check")"
	grep -q "read by the kernel parser as 2 passed, 0 failed, 0 skipped" "$T/as-printed.check"
'

# Each rule, broken once in a copy of the passing run's KTAP.
step "the checker fails a plan moved after the results, and the kernel parser is stopped" --host-only --needs KUNIT '
	! ktap_check plan-late "/^  1\.\.2$/d; /^  ok 2 two$/a\  1..2"
	grep -q "the plan is not right after the version line" "$T/plan-late.check" ||
		fail "$(<"$T/plan-late.check")"
	grep -qE "kernel parser (needed more than|did not finish in)" "$T/plan-late.check" ||
		fail "$(<"$T/plan-late.check")"
'

step "the checker fails nesting by four spaces" --host-only --needs KUNIT '
	! ktap_check four-spaces "s/^  /    /"
	grep -q "a nested level indented 4 spaces, not 2" "$T/four-spaces.check" ||
		fail "$(<"$T/four-spaces.check")"
'

step "the checker fails a name used twice in a level, and a hash sign in a name" --host-only --needs KUNIT '
	! ktap_check twice "s/^  ok 2 two$/  ok 2 one/"
	grep -q "the name .one. is used twice in its level" "$T/twice.check" ||
		fail "$(<"$T/twice.check")"
	! ktap_check hash "s/^  ok 2 two$/  ok 2 step #2/"
	grep -q "has a .#. or an unknown directive" "$T/hash.check" || fail "$(<"$T/hash.check")"
'

step "the checker fails a TIMEOUT that is ok, and counts that differ from the runner's" --host-only --needs KUNIT '
	! ktap_check ok-timeout "s/^ok 1 passes$/ok 1 passes # TIMEOUT 1s/"
	grep -q "a TIMEOUT result is \"ok\"" "$T/ok-timeout.check" ||
		fail "$(<"$T/ok-timeout.check")"
	! ktap_check miscounted "" "3 0 0"
	grep -q "the kernel parser counts 2 passed, 0 failed, 0 skipped; the runner 3, 0, 0" \
		"$T/miscounted.check" || fail "$(<"$T/miscounted.check")"
'
scenario_end
