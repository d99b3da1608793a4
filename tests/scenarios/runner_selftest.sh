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
	cp -r tests/runner "$tree/tests/"
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

# run NAME [KEY=VALUE...] [VAR=VALUE...] [PATTERN]: the scratch runner,
# its stdout in $T/NAME.out, exit status in $T/NAME.rc, results in
# $T/NAME.res/ (and not in this run's matrix rows). Each KEY=VALUE (a
# lower-case KEY) is a line of its plan, $T/NAME.plan (tests/runner/plan.sh);
# each VAR=VALUE is in its environment. What the outer run was given (make
# mutate's CI, TEST_TIMEOUT) is not the scratch runner's, nor its VALGRIND,
# MATRIX_UPDATE or MATRIX_DOC. With RUN_IN_TREE=1 (whole, below) the
# results go to the tree's build/results.
run()
{
	local name=$1 rc=0 vars=() plan=("results=$T/$1.res")
	[[ -n ${RUN_IN_TREE:-} ]] && plan=()
	shift
	while [[ ${1:-} == *=* ]]; do
		if [[ $1 == [a-z]*=* ]]; then
			plan+=("$1")
		else
			vars+=("$1")
		fi
		shift
	done
	printf '%s\n' "# run $name" "${plan[@]}" > "$T/$name.plan"
	env -u CI -u TEST_TIMEOUT -u VALGRIND -u MATRIX_UPDATE -u MATRIX_DOC "${vars[@]}" \
		bash "$tree/tests/run.sh" --plan "$T/$name.plan" "$@" > "$T/$name.out" 2> "$T/$name.err" || rc=$?
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
	# in a tree of its own: deaf to timeout'"'"'s TERM (its sleep too), so
	# killed 10 s later, leaving its scratch files (in $T here)
	new_tree "$T/deaf"
	scenario stubborn "step sleeper '"'"'sleep 30'"'"'" '"'"'trap "" TERM'"'"'
	mkdir "$T/stubborn.tmp"
	run stubborn TEST_TIMEOUT=1 TMPDIR="$T/stubborn.tmp" stubborn &
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

step "a test that does not end in time is not ok, with the TIMEOUT directive, its output a diagnostic" '
	sed -E "s/^# hangs: [0-9]+\.[0-9]s$/# hangs: N.Ns/" "$T/hangs.out" > "$T/out"
	expect_out "KTAP version 1" "1..1" "# KTAP version 1" "# 1..1" "# hangs: N.Ns" \
		"not ok 1 hangs # TIMEOUT 1s" "0 passed, 1 failed, 0 skipped"
	[[ $(<"$T/hangs.rc") == 1 ]] || fail "exit $(<"$T/hangs.rc")"
'

step "a test deaf to the timeout is killed 10 s later, and is a TIMEOUT too" '
	[[ $(<"$T/stubborn.out") =~ "# stubborn: "([0-9]+)\.[0-9]s ]] || fail "no seconds"
	((BASH_REMATCH[1] >= 11)) || fail "ended after ${BASH_REMATCH[1]} s, not killed 10 s after the timeout"
	sed -E "s/^# stubborn: [0-9]+\.[0-9]s$/# stubborn: N.Ns/" "$T/stubborn.out" > "$T/out"
	expect_out "KTAP version 1" "1..1" "# stubborn: N.Ns" "not ok 1 stubborn # TIMEOUT 1s" \
		"0 passed, 1 failed, 0 skipped"
	[[ $(<"$T/stubborn.rc") == 1 ]] || fail "exit $(<"$T/stubborn.rc")"
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
	# a test that broke (the timeout) is one failing case named after it
	grep -qx "hangs	hangs	fail" "$T/all.res/cases" ||
		fail "no case line for hangs: $(<"$T/all.res/cases")"
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

# refused NAME MESSAGE: the run NAME stopped before any test, exit 1,
# its last line on stderr MESSAGE (a glob).
refused()
{
	local err
	mapfile -t err < "$T/$1.err"
	[[ $(<"$T/$1.rc") == 1 && ! -s $T/$1.out ]] || fail "$1: exit $(<"$T/$1.rc"): $(<"$T/$1.out")"
	# shellcheck disable=SC2053 # a glob on purpose
	[[ ${err[-1]:-} == $2 ]] || fail "$1: stderr ends [${err[-1]:-}], not [$2]"
}

step "the runner refuses to run without tests.list, a scratch directory, or a guest-seconds file it can read" '
	new_tree "$T/refusals"
	scenario passes "step one true"
	rm "$tree/tests/bin/tests.list"
	run no-list
	refused no-list "run.sh: no $tree/tests/bin/tests.list (run make check)"
	: > "$tree/tests/bin/tests.list"
	run no-tmp TMPDIR="$T/nowhere"
	refused no-tmp "mktemp: failed to create directory via template *$T/nowhere/fds-run.XXXXXX*: No such file or directory"
	printf "%s\n" "passes 1.0" "test x" > "$T/early"
	run early shard=1/2 guest_seconds="$T/early"
	refused early "run.sh: $T/early: passes comes before the header line \"test LABEL...\""
	printf "%s\n" "# a comment" "" "test x y" "passes 1.0 2" > "$T/whole-seconds"
	run whole-seconds shard=1/2 guest_seconds="$T/whole-seconds"
	refused whole-seconds "run.sh: $T/whole-seconds: passes: not N.N seconds: 2"
'

# fail_fast=1 (make mutate's runs): the run stops at the first test that
# fails, not before it.
step "fail_fast=1 stops after the first failing test, and runs every test before it" '
	new_tree "$T/ff"
	scenario a1 "step one true"
	scenario b2 "step bad false"
	scenario c3 "step one true"
	run ff fail_fast=1
	[[ $(<"$T/ff.rc") == 1 ]] || fail "exit $(<"$T/ff.rc"): $(<"$T/ff.out")"
	grep -qx "ok 1 a1" "$T/ff.out" || fail "a1 not run: $(<"$T/ff.out")"
	grep -qx "not ok 2 b2" "$T/ff.out" || fail "b2 not run: $(<"$T/ff.out")"
	! grep -q "c3" "$T/ff.out" || fail "c3 ran after the failure: $(<"$T/ff.out")"
'

# Each of the runner's parts missing: the runner stops, exit 1, before
# any test (bash names the file it could not read).
step "the runner refuses to run without any one of its parts" '
	for part in plan test kselftest judge results; do
		new_tree "$T/no-$part"
		scenario passes "step one true"
		rm "$tree/tests/runner/$part.sh"
		run "no-$part"
		refused "no-$part" "*$tree/tests/runner/$part.sh: No such file or directory"
	done
'

# shard=K/N plans by tests/data/guest-seconds' figures (here a
# scratch one): a test with no column of this kernel weighs its mean over
# the columns, one with no figure at all 1 s. p1, 1.6 s on average, alone
# outweighs q and r together on one shard.
step "shard=K/N plans by each test's mean guest-seconds, 1 s for a test with none" '
	new_tree "$T/plan"
	for t in p1 q r; do
		scenario "$t" "step one true"
	done
	printf "%s\n" "test x y" "p1.sh 1.0 2.2" > "$T/plan.seconds"
	for k in 1 2; do
		run "plan$k" shard=$k/2 label= guest_seconds="$T/plan.seconds" &
	done
	wait
	expect_run plan1 0 "1 passed, 0 failed, 0 skipped"
	grep -qx "ok 1 p1" "$T/plan1.out" || fail "shard 1: $(<"$T/plan1.out")"
	expect_run plan2 0 "2 passed, 0 failed, 0 skipped"
	grep -qx "ok 2 r" "$T/plan2.out" || fail "shard 2: $(<"$T/plan2.out")"
'

# The kernel's runner prefixes each line of a test's output with "# ";
# an empty line, its blank stripped (as a console or a log may), is "#".
# fake_runner DIR: DIR, a kselftest tree whose made-up run_kselftest.sh
# prints one test's output, with an empty line in both forms.
fake_runner()
{
	mkdir -p "$1/fds_example"
	echo timeout=45 > "$1/fds_example/settings"
	echo fds_example:blank > "$1/kselftest-list.txt"
	cat > "$1/run_kselftest.sh" <<- 'EOF'
	#!/bin/sh
	printf '%s\n' 'TAP version 13' 1..1 '# selftests: fds_example: blank' '# KTAP version 1' \
		'# 1..2' '# ok 1 one' '#' '# ' '# ok 2 two' 'ok 1 selftests: fds_example: blank'
	EOF
	chmod +x "$1/run_kselftest.sh"
}

step "the runner's bare comment lines, with or without their blank, are a test's empty lines" '
	new_tree "$T/fake-tree"
	fake_runner "$T/fake"
	run fake kselftest="$T/fake" blank
	expect_run fake 0 "2 passed, 0 failed, 0 skipped"
	sed -E "s/^  # blank: .*/  # blank: N.Ns/" "$T/fake.res/ktap" > "$T/out"
	expect_out "KTAP version 1" "1..1" "  KTAP version 1" "  1..2" "  ok 1 one" "  " "  " "  ok 2 two" \
		"  # blank: N.Ns" "ok 1 blank"
'

step "a guest leaves the kernel-independent tests out, and says which; an architecture's first keeps them" '
	new_tree "$T/ki"
	scenario independent "step alone true" "# a made-up scenario" \
		"# kernel-independent: user space only"
	scenario mixed "step \"any kernel\" --kernel-independent true; step \"this kernel\" true"
	run native &
	run guest guest=1 &
	run first guest=1 arch_once=1 &
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

# The runner's parts (tests/runner/), each driven alone: sourced into a
# shell of its own with only the variables it reads, as tests/run.sh
# leaves them.
# part FILE SCRIPT: SCRIPT run by bash after sourcing tests/runner/FILE.sh
# (and plan.sh, whose die every part may call), its stdout and stderr in
# $T/out, its status in $status.
# shellcheck disable=SC2034 # status: read by lib.sh's expect_status
part()
{
	status=0
	env -u CI -u TEST_TIMEOUT -u VALGRIND -u MATRIX_UPDATE \
		bash -c '. tests/runner/plan.sh && . "tests/runner/$1.sh" && eval "$2"' part "$1" "$2" \
		> "$T/out" 2>&1 || status=$?
}

step "plan.sh alone: a plan file read into its keys, the user's knobs as defaults, a bad line or key refused" '
	printf "%s\n" "# a comment" "" "tests=one two" "results=$T/r" "shard=1/2" "timeout=7" "ci=" \
		"guest=1" > "$T/good.plan"
	part plan "CI=true; VALGRIND=1; MATRIX_UPDATE=1; plan_load $T/good.plan; plan_use three
		printf \"%s\n\" \"\${patterns[*]}|\$pattern|\$results|\$shard|\$TIMEOUT|\$ci|\$guest|\$matrix_update|\$lanes\""
	expect_status 0
	expect_out "one two three|one two three|$T/r|1/2|7||1|1|1"
	part plan "CI=true; VALGRIND=1; plan_load; plan_use; echo \"\$ci \$TIMEOUT \${#patterns[@]}\""
	expect_out "true 900 0"
	part plan "TEST_TIMEOUT=5; plan_load; plan_use; echo \$TIMEOUT; unset TEST_TIMEOUT; plan_load; plan_use; echo \$TIMEOUT"
	expect_out 5 120
	printf "%s\n" "tests=a" "# fine" "shard 1/2" > "$T/bad.plan"
	part plan "plan_load $T/bad.plan"
	expect_status 1
	expect_out "run.sh: $T/bad.plan:3: not KEY=VALUE: shard 1/2"
	printf "%s\n" "FDS_SHARD=1/2" > "$T/bad.plan"
	part plan "plan_load $T/bad.plan"
	expect_status 1
	expect_out "run.sh: $T/bad.plan:1: no such key in a plan: FDS_SHARD"
	part plan "plan_load $T/nosuch.plan"
	expect_status 1
	expect_out "run.sh: no plan $T/nosuch.plan"
'

step "plan.sh alone: shards share the tests out by weight (a 3 s, b 2 s, c 1.5 s, d none: 1 s), each test once" '
	printf "%s\n" "test k" "a.sh 3.0" "b.sh 2.0" "c.sh 1.5" > "$T/w"
	part plan "tests=(x/a.sh x/b.sh x/c.sh x/d.sh) label=k guest_seconds=$T/w TOP=.
		for shard in 1/2 2/2; do plan_shard; echo \"\${tests[*]}|\${shard_note[*]}\"; tests=(x/a.sh x/b.sh x/c.sh x/d.sh); done"
	expect_status 0
	expect_out "x/a.sh x/d.sh|# shard 1 of 2: the other tests run in other guests" \
		"x/b.sh x/c.sh|# shard 2 of 2: the other tests run in other guests"
	part plan "tests=(x/a.sh) shard=2/1; plan_shard"
	expect_status 1
	expect_out "run.sh: shard=2/1: not K/N with 1 <= K <= N"
'

# The weights themselves, in tenths of a second: the label's own column,
# else the mean of the others (a leading zero is no octal), else none
# (plan_shard then counts 1 s).
step "plan.sh alone: a weight is in tenths of a second, the kernel column or the mean" '
	printf "%s\n" "test k m" "a.sh 1.6 -" "b.sh - 09.9" "c.sh - -" "d.sh 2.0 3.0" > "$T/w"
	part plan "declare -A weight=(); label=k guest_seconds=$T/w TOP=.; read_weights
		for t in a.sh b.sh c.sh d.sh; do echo \"\$t \${weight[\$t]:-none}\"; done"
	expect_status 0
	expect_out "a.sh 16" "b.sh 99" "c.sh none" "d.sh 20"
'

step "judge.sh alone: a test's cases counted from its own KTAP, its exit status weighed against them" '
	printf "%s\n" "KTAP version 1" "1..4" "  ok 1 nested" "ok 1 one" "not ok 2 two # why" "ok 3 three # SKIP no disk" \
		"ok 4 four" > "$T/case.log"
	part judge "ci=; TIMEOUT=9; count_cases $T/case.log; echo \$p \$f \$s
		printf \"%s\n\" \"\${cases[@]}\" \"\${verdicts[@]}\"
		for rc in 0 1 4 2 124 137; do judge \$rc; echo \"\$rc:\$broken\"; done
		f=0; judge 2; echo \"\$broken\"; f=0 p=0 s=0; judge 0; echo \"\$broken\"
		ci=true s=1; judge 0; echo \"\$broken\""
	expect_status 0
	expect_out "2 1 1" "two # why" "three (skipped: no disk)" "one	pass" "two	fail" "three	skip" "four	pass" \
		"0:" "1:" "4:" "2:" "124:TIMEOUT 9s" "137:TIMEOUT 9s" "exited 2 without a failing case" \
		"ran no test case" "1 skipped; in CI a skip is a failure"
'

step "results.sh alone: a judged test into the KTAP, failures, cases and counts; a broken one as one failing case" '
	printf "%s\n" "KTAP version 1" "1..2" "ok 1 one" "ok 2 two # SKIP no" > "$T/ok.log"
	part results "results=$T/res kselftest= secs=1.0s; results_open
		echo \$FDS_MATRIX_OUT
		p=1 s=1 f=0 broken= cases=(\"two (skipped: no)\") verdicts=(\"one	pass\" \"two	skip\")
		report 1 good $T/ok.log
		p=0 s=0 f=0 broken=\"TIMEOUT 3s\" cases=() verdicts=()
		report 2 slow $T/ok.log
		results_close"
	expect_status 0
	expect_out "$T/res/matrix.tsv" "  KTAP version 1" "  1..2" "  ok 1 one" "  ok 2 two # SKIP no" "  # good: 1.0s" "ok 1 good" \
		"# KTAP version 1" "# 1..2" "# ok 1 one" "# ok 2 two # SKIP no" "# slow: 1.0s" "not ok 2 slow # TIMEOUT 3s"
	tail -n +2 "$T/out" | diff - "$T/res/ktap"
	expect_lines_of "$T/res/counts" counts "1 1 1"
	expect_lines_of "$T/res/failures" failures "good: two (skipped: no)" "slow: TIMEOUT 3s"
	expect_lines_of "$T/res/cases" cases "good	one	pass" "good	two	skip" "slow	slow	fail"
	part results "results=$T/res2 kselftest=x secs=1.0s; results_open; emit \"ok 1 x\""
	[[ ! -s $T/out ]] || fail "through the kernel'"'"'s runner, emit printed: $(<"$T/out")"
	expect_lines_of "$T/res2/ktap" ktap "ok 1 x"
'

step "test.sh alone: one test in a mount namespace of its own, its status, time and output kept; a hang ends as 124" '
	printf "%s\n" "echo \"ns=\$FDS_PRIVATE_NS \$(readlink /proc/self/ns/mnt)\"; exit 3" > "$T/t.sh"
	printf "%s\n" "sleep 30" > "$T/sleeps.sh"
	part test "TIMEOUT=5; run_one $T/t.sh t $T/t.log; echo \"\$rc \$secs\"
		TIMEOUT=1; run_one $T/sleeps.sh sleeps $T/s.log; echo \"\$rc \$secs\""
	expect_status 0
	mapfile -t lines < "$T/out"
	[[ ${lines[0]} == "3 "[0-9]*.[0-9]s ]] || fail "status and time: ${lines[0]}"
	[[ ${lines[1]} == "124 "[0-9]*.[0-9]s ]] || fail "a hang: ${lines[1]}"
	read -r ns < "$T/t.log"
	[[ $ns == "ns=1 "* && $ns != *"$(readlink /proc/self/ns/mnt)" ]] || fail "not in a mount namespace of its own: $ns"
'

step "kselftest.sh alone: the kernel runner's output split into each test's log and status, its verdicts counted" '
	printf "%s\n" "TAP version 13" "1..3" "# selftests: fds_example: a.sh" "# KTAP version 1" "#" "# ok 1 x" \
		"ok 1 selftests: fds_example: a.sh" "# selftests: fds_example: b" "# not ok 1 y" \
		"not ok 2 selftests: fds_example: b # exit=2" "# selftests: fds_example: c" \
		"not ok 3 selftests: fds_example: c # TIMEOUT 45 seconds" > "$T/runner.out"
	mkdir -p "$T/logs" "$T/ks"
	part kselftest "logdir=$T/logs results=$T/ks; split_kselftest $T/runner.out
		ks_pass=0 ks_fail=0 ks_skip=0
		for t in a.sh b c d; do log=$T/logs/\${t%.sh}.log; from_kselftest \$t; echo \"\$t \$rc\"; done
		kselftest_close; lane_file 1; lane_file 2"
	expect_status 0
	expect_out "a.sh 0" "b 2" "c 124" "d 1" "$T/ks/kselftest.ktap" "$T/ks/kselftest.2.ktap"
	expect_lines_of "$T/logs/a.log" a.log "KTAP version 1" "" "ok 1 x"
	expect_lines_of "$T/logs/d.log" d.log "no result line for d from run_kselftest.sh"
	expect_lines_of "$T/ks/kselftest.counts" counts "1 3 0"
'

# The runner's output kept whole by a lane: its blank lines, and a last
# line without its newline.
step "kselftest.sh alone: a lane keeps every line, blank or unterminated" '
	mkdir -p "$T/kl"
	part kselftest "logdir=$T/kl; printf \"a\\n\\nb\" | keep_lane $T/kl/lane"
	expect_status 0
	expect_lines_of "$T/kl/lane" lane a "" b
'

# lib.sh under VALGRIND=1: fds_example runs under memcheck, and its exit
# 99 (memcheck's error status) fails the step; without VALGRIND, 99 is a
# status like any other.
step "lib.sh: VALGRIND=1 runs fds_example under memcheck, and exit 99 then fails the step" '
	new_tree "$T/vg"
	cat > "$tree/tests/scenarios/memcheck.sh" <<- "EOF"
		. "$(dirname "$0")/../lib.sh"
		scenario_begin
		step wrapped '"'"'[[ ${FDS_RUN[0]} == valgrind ]]'"'"'
		FDS_RUN=(sh -c "exit 99" sh)
		step ninety-nine '"'"'fds -x; ((status == 99))'"'"'
		scenario_end
	EOF
	run vg VALGRIND=1
	grep -qx "  ok 1 wrapped" "$T/vg.out" || fail "VALGRIND=1: not under valgrind: $(<"$T/vg.out")"
	grep -qx "  not ok 2 ninety-nine" "$T/vg.out" || fail "VALGRIND=1: exit 99 passed: $(<"$T/vg.out")"
	grep -q "valgrind found errors in: fds_example -x" "$T/vg.out" || fail "no reason: $(<"$T/vg.out")"
	run novg
	grep -qx "  not ok 1 wrapped" "$T/novg.out" || fail "under valgrind without VALGRIND=1: $(<"$T/novg.out")"
	grep -qx "  ok 2 ninety-nine" "$T/novg.out" || fail "exit 99 failed without VALGRIND=1: $(<"$T/novg.out")"
'

# A run in one lane after a run in two, in the same results directory:
# the second lane's old output is not read again as this run's (here a
# stand-in run_kselftest.sh passes a, which the old lane 2 failed).
step "kselftest.sh alone: a run forgets the lanes of the run before it" '
	mkdir -p "$T/ksl/logs" "$T/ksl/res" "$T/ksl/tree"
	printf "%s\n" "# selftests: fds_example: a.sh" "# not ok 1 x" \
		"not ok 1 selftests: fds_example: a.sh # exit=1" > "$T/ksl/res/kselftest.2.ktap"
	printf "%s\n" "#!/bin/sh" "echo \"# selftests: fds_example: a.sh\"" "echo \"# ok 1 x\"" \
		"echo \"ok 1 selftests: fds_example: a.sh\"" > "$T/ksl/tree/run_kselftest.sh"
	chmod +x "$T/ksl/tree/run_kselftest.sh"
	part kselftest ". tests/runner/test.sh; logdir=$T/ksl/logs results=$T/ksl/res kselftest=$T/ksl/tree lanes=1
		tests=(a.sh) pattern= shard= left_out=(); declare -A plan=()
		kselftest_run > /dev/null; log=$T/ksl/logs/a.log; from_kselftest a.sh; echo \"a.sh \$rc\""
	expect_status 0
	expect_out "a.sh 0"
	[[ ! -e $T/ksl/res/kselftest.2.ktap ]] || fail "the old lane 2 is still there"
'

# A whole native run (no pattern, no results in its plan) also checks the host's
# kernel-matrix rows against docs/kernel-matrix.md (MATRIX_UPDATE=1 writes
# them there) and the KTAP with the kernel's parser: a scratch tree with
# matrix.py, ktap_check.py, data/kernels, a docs/ of its own and the
# download cache (the parser), and a scenario that records a row, alpha,
# with the value ROW_VALUE (default yes).
# whole NAME [VAR=VALUE...] [PATTERN]: as run, but with no results in its plan:
# the results in the tree's build/results.
whole()
{
	RUN_IN_TREE=1 run "$@"
}

# expect_lines NAME LINE...: the run NAME printed each of these lines.
expect_lines()
{
	local line
	for line in "${@:2}"; do
		grep -qxF -- "$line" "$T/$1.out" || fail "$1: no line [$line] in: $(<"$T/$1.out")"
	done
}

step "a whole native run checks the matrix rows and the KTAP, and counts each that fails; MATRIX_UPDATE=1 writes the rows" --host-only --needs KUNIT '
	new_tree "$T/whole"
	mkdir -p "$tree/scripts" "$tree/data" "$tree/docs"
	cp scripts/matrix.py scripts/ktap_check.py "$tree/scripts/"
	cp data/kernels "$tree/data/"
	ln -s "$TOP/.cache" "$tree/.cache"
	scenario rec "step one '"'"'matrix_record alpha \"\${ROW_VALUE:-yes}\"'"'"'"
	read -r series < /proc/sys/kernel/osrelease
	series=${series%%-*} series=${series%.*}
	doc=docs/kernel-matrix.md ktap="ktap: KTAP v1, read by the kernel parser as 1 passed, 0 failed, 0 skipped, as counted"
	whole update MATRIX_UPDATE=1
	expect_run update 0 "1 passed, 0 failed, 0 skipped"
	expect_lines update "matrix: wrote $doc" "$ktap" \
		"matrix: row alpha has no explanation under \"## Rows\" in $doc; write one"
	grep -qxF "$(printf "| \`alpha\` | %-*s |" $((${#series} + 5)) yes)" "$tree/$doc" ||
		fail "no row alpha: $(<"$tree/$doc")"
	[[ $(<"$tree/build/results/host/matrix.tsv") == "alpha	yes" ]] || fail "matrix.tsv: $(<"$tree/build/results/host/matrix.tsv")"
	whole same
	expect_run same 0 "1 passed, 0 failed, 0 skipped"
	expect_lines same "matrix: as committed in $doc" "$ktap"
	whole changed ROW_VALUE=no
	expect_run changed 1 "1 passed, 1 failed, 0 skipped"
	expect_lines changed "matrix: FAIL: row alpha, kernel host: observed no, committed yes" \
		"matrix: 1 difference(s) from $doc; if intended: make matrix-update" \
		"ktap: KTAP v1, read by the kernel parser as 1 passed, 0 failed, 0 skipped, as counted"
	scenario hashed "step \"a # b\" true"
	whole hashed
	expect_run hashed 1 "2 passed, 1 failed, 0 skipped"
	expect_lines hashed "matrix: as committed in $doc" \
		"ktap: $tree/build/results/host/ktap: line 5: the name '"'"'a # b'"'"' has a '"'"'#'"'"' or an unknown directive"
	whole picked rec
	expect_run picked 0 "1 passed, 0 failed, 0 skipped"
	! grep -q "^matrix: \|^ktap: " "$T/picked.out" || fail "a run of some tests checked: $(<"$T/picked.out")"
	[[ $(<"$tree/build/results/partial/counts") == "1 0 0" ]] || fail "no results in build/results/partial"
'

# ktap_check DIR EDIT [COUNTS]: the checker on a copy of the passing run's
# results whose KTAP went through EDIT (a sed script), and whose counts are
# COUNTS if given; its output in DIR.check, its exit status in DIR.rc and
# its own.
ktap_check()
{
	local dir=$T/$1 rc=0
	mkdir -p "$dir"
	cp "$T/passes.res/counts" "$dir/"
	sed -e "$2" "$T/passes.res/ktap" > "$dir/ktap"
	[[ -z ${3:-} ]] || echo "$3" > "$dir/counts"
	KTAP_PARSE_SECONDS=3 "$TOP/scripts/ktap_check.py" "$dir" > "$dir.check" 2>&1 || rc=$?
	echo "$rc" > "$dir.rc"
	return "$rc"
}

# expect_check DIR RC LINE...: the checker's run on DIR exited RC and
# printed exactly LINE...
expect_check()
{
	local rc
	rc=$(<"$T/$1.rc")
	((rc == $2)) || fail "$1: the checker exited $rc, expected $2: $(<"$T/$1.check")"
	cp "$T/$1.check" "$T/out"
	expect_out "${@:3}"
}

step "the checker passes the runner's KTAP, read by the kernel's parser" --host-only --needs KUNIT '
	ktap_check as-printed "" || fail "$(<"$T/as-printed.check")"
	grep -q "read by the kernel parser as 2 passed, 0 failed, 0 skipped" "$T/as-printed.check"
'

# Each rule, broken once in a copy of the passing run's KTAP.
step "the checker fails a plan moved after the results, and the kernel parser is stopped" --host-only --needs KUNIT '
	ktap_check plan-late "/^  1\.\.2$/d; /^  ok 2 two$/a\  1..2" || true
	expect_check plan-late 1 "ktap: $T/plan-late/ktap: line 4: a result before the plan" \
		"ktap: $T/plan-late/ktap: line 6: the plan is not right after the version line" \
		"ktap: $T/plan-late/ktap: the kernel parser did not finish in 3 s"
'

# A level inside a nested level (here in test one, as a kselftest binary's
# cases are inside its test) is indented two more than its parent, not
# than the top.
step "the checker passes a level nested in a nested level" --host-only --needs KUNIT '
	ktap_check deeper "/^  1\.\.2$/a\    KTAP version 1\n    1..1\n    ok 1 deep" || true
	expect_check deeper 0 "ktap: KTAP v1, read by the kernel parser as 2 passed, 0 failed, 0 skipped, as counted"
'

# A version line inside a level that has not ended closes that level (and
# says so, and what it lacked) before the new one begins.
step "the checker closes the unended level at a version line of its indent" --host-only --needs KUNIT '
	ktap_check reopened "/^  ok 1 one$/a\  KTAP version 1\n  1..1\n  ok 1 x" || true
	expect_check reopened 1 \
		"ktap: $T/reopened/ktap: line 6: a version line inside a level that has not ended: a nested test without its result line" \
		"ktap: $T/reopened/ktap: line 6: the level begun on line 3 planned 2 results and has 1" \
		"ktap: $T/reopened/ktap: line 11: the level begun on line 6 planned 1 results and has 2"
'

# The parser, which loops on that KTAP (it grows by some MB a second, and
# is stopped by the time limit above), runs under an address-space limit:
# seen in /proc while it loops, then stopped.
step "the kernel parser runs in at most 1 GiB of address space" --host-only --needs KUNIT '
	mkdir -p "$T/limits"
	cp "$T/plan-late/ktap" "$T/plan-late/counts" "$T/limits/"
	KTAP_PARSE_SECONDS=60 "$TOP/scripts/ktap_check.py" "$T/limits" > "$T/limits.check" 2>&1 &
	pid=$!
	when_finished "kill $pid 2> /dev/null || true"
	soft=unlimited
	for ((i = 0; i < 200; i++)); do
		[[ -r /proc/$pid/limits ]] || break
		while read -r a b c s h _; do
			[[ "$a $b $c" == "Max address space" ]] && soft=$s hard=$h
		done < "/proc/$pid/limits"
		[[ $soft == unlimited ]] || break
		sleep 0.05
	done
	kill "$pid" 2> /dev/null || true
	wait "$pid" || true
	[[ $soft == unlimited ]] && fail "no address-space limit seen: $(cat "$T/limits.check")"
	[[ "$soft $hard" == "1073741824 1073741824" ]] || fail "limits $soft $hard"
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
	ktap_check miscounted "" "3 0 0" || true
	expect_check miscounted 1 \
		"ktap: $T/miscounted/ktap: the kernel parser counts 2 passed, 0 failed, 0 skipped; the runner 3, 0, 0"
'

step "the checker fails results numbered out of order, as the kernel parser does" --host-only --needs KUNIT '
	ktap_check misnumbered "s/^  ok 2 two$/  ok 3 two/" || true
	expect_check misnumbered 1 "ktap: $T/misnumbered/ktap: line 6: numbered 3, expected 2" \
		"ktap: $T/misnumbered/ktap: the kernel parser found 1 error(s) (run: kunit.py parse $T/misnumbered/ktap)"
'

step "the checker's usage: RESULTS_DIR, and KUNIT_DIR where the kernel parser is" --host-only --needs KUNIT '
	for args in "" "a b c"; do
		rc=0
		# shellcheck disable=SC2086 # no argument, or three
		"$TOP/scripts/ktap_check.py" $args > "$T/out" 2> "$T/err" || rc=$?
		((rc == 1)) || fail "[$args]: exit $rc"
		expect_out
		mapfile -t err < "$T/err"
		[[ ${err[*]} == "usage: ktap_check.py RESULTS_DIR [KUNIT_DIR]" ]] || fail "[$args]: ${err[*]}"
	done
	ktap_check kunit-dir "" || true
	"$TOP/scripts/ktap_check.py" "$T/kunit-dir" "$TOP/.cache/kunit" > "$T/kunit-dir.check" 2>&1
	echo 0 > "$T/kunit-dir.rc"
	expect_check kunit-dir 0 "ktap: KTAP v1, read by the kernel parser as 2 passed, 0 failed, 0 skipped, as counted"
	mkdir "$T/no-kunit"
	rc=0
	"$TOP/scripts/ktap_check.py" "$T/kunit-dir" "$T/no-kunit" > "$T/kunit-dir.check" 2>&1 || rc=$?
	echo "$rc" > "$T/kunit-dir.rc"
	expect_check kunit-dir 1 "ktap: $T/kunit-dir/ktap: cannot load the kernel parser from $T/no-kunit: No module named '"'"'kunit_parser'"'"' (scripts/fetch-kselftest.sh .cache fetches it)"
'

# What run_kselftest.sh printed in two lanes (lanes=2, as
# tests/run.sh leaves it), beside the passing run's own KTAP: the lanes
# are read apart and their totals added up.
step "the checker adds up the lanes of run_kselftest.sh, and names them when their totals differ from the runner's" --host-only --needs KUNIT '
	ktap_check lanes "" || true
	printf "%s\n" "KTAP version 1" "1..1" "ok 1 selftests: fds_example: a" > "$T/lanes/kselftest.ktap"
	printf "%s\n" "KTAP version 1" "1..1" "not ok 1 selftests: fds_example: b # exit=1" \
		> "$T/lanes/kselftest.2.ktap"
	echo "1 1 0" > "$T/lanes/kselftest.counts"
	rc=0
	"$TOP/scripts/ktap_check.py" "$T/lanes" > "$T/lanes.check" 2>&1 || rc=$?
	echo "$rc" > "$T/lanes.rc"
	expect_check lanes 0 "ktap: KTAP v1, read by the kernel parser as 2 passed, 0 failed, 0 skipped, as counted" \
		"ktap: run_kselftest.sh'"'"'s output in 2 lanes, read by the kernel parser as 1 passed, 1 failed, 0 skipped tests, as the runner judged them"
	echo "1 0 0" > "$T/lanes/kselftest.counts"
	rc=0
	"$TOP/scripts/ktap_check.py" "$T/lanes" > "$T/lanes.check" 2>&1 || rc=$?
	echo "$rc" > "$T/lanes.rc"
	expect_check lanes 1 "ktap: $T/lanes: its 2 lanes: the kernel parser counts 1 passed, 1 failed, 0 skipped; the runner 1, 0, 0"
'
scenario_end
