#!/usr/bin/env bash
# make kselftest-install: the suite as an installed kselftest tree, driven
# by the kernel's own run_kselftest.sh as the engines drive it: its -l,
# -t and -d -c fds_example (make check-kselftest and make check-vm run it
# whole), and tests/run.sh's reading of its output (its plan's kselftest=) on a
# scratch collection whose tests pass, fail, skip and hang.
# It checks the source tree's installer, so it is not installed itself:
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# shellcheck disable=SC2034 # read in step bodies, which step() evals
RUNNER=$TOP/.cache/kselftest-runner
prereq RUNNER "the kernel's run_kselftest.sh (make check fetches it into .cache/kselftest-runner)" \
	'[[ -f $RUNNER/kselftest/runner.sh ]]'
prereq KUNIT "the kernel's KTAP parser (make check fetches it into .cache/kunit)" \
	'[[ -f $TOP/.cache/kunit/kunit_parser.py ]] && command -v python3'

step "setup: make kselftest-install's script lays the tree out" --needs RUNNER '
	scripts/kselftest-install.sh "$T/ks" > "$T/install.log"
	[[ -f $T/ks/kselftest-list.txt ]] || fail "no kselftest-list.txt"
'

# refused NAME STATUS MESSAGE: the install into $T/NAME, which exited
# STATUS, stopped at once: exit 1, MESSAGE its only line on stderr, nothing
# installed.
refused()
{
	[[ $2 == 1 ]] || fail "$1: exit $2"
	expect_out
	[[ $(<"$T/err") == "$3" ]] || fail "$1: stderr [$(<"$T/err")], not [$3]"
	expect_absent "$T/$1" "$T/$1.new"
}

# expect_absent PATH...: none of them exists.
expect_absent()
{
	local p
	for p in "$@"; do
		[[ ! -e $p ]] || fail "$p exists"
	done
}

step "the install refuses a cache without the whole kernel runner, and a tree not built" --needs RUNNER '
	mkdir -p "$T/half/kselftest-runner"
	cp "$RUNNER/run_kselftest.sh" "$T/half/kselftest-runner/"
	status=0
	scripts/kselftest-install.sh "$T/no-runner" "$T/half" > "$T/out" 2> "$T/err" || status=$?
	refused no-runner "$status" "kselftest-install: no kernel runner in $T/half/kselftest-runner (scripts/fetch-kselftest.sh fetches it)"
	mkdir -p "$T/unbuilt/scripts"
	cp scripts/kselftest-install.sh "$T/unbuilt/scripts/"
	status=0
	"$T/unbuilt/scripts/kselftest-install.sh" "$T/not-built" "$TOP/.cache" > "$T/out" 2> "$T/err" || status=$?
	refused not-built "$status" "kselftest-install: nothing built (make test-build)"
'

# Installed again over the tree, beside what an install stopped short of its
# end left (INSTALL_PATH.new, here all of it): the result is a fresh
# install's, and nothing of either is left.
step "a re-install replaces the old tree and an interrupted install's leftovers whole" --needs RUNNER '
	scripts/kselftest-install.sh "$T/fresh" > "$T/fresh.log"
	cp -a "$T/ks" "$T/ks.new"
	echo stale > "$T/ks.new/fds_example/left-over"
	echo stale > "$T/ks/fds_example/old"
	scripts/kselftest-install.sh "$T/ks" > "$T/out"
	n=$(grep -c . "$T/ks/kselftest-list.txt")
	expect_out "kselftest-install: $n tests in $T/ks (run_kselftest.sh from $(<"$RUNNER/SOURCE"))"
	[[ ! -e $T/ks.new ]] || fail "$T/ks.new is left"
	diff -r --no-dereference "$T/fresh" "$T/ks"
	rm -rf "$T/fresh"
'

step "the runner is linux-source's, unmodified" --needs RUNNER '
	cmp "$RUNNER/run_kselftest.sh" "$T/ks/run_kselftest.sh"
	diff -r "$RUNNER/kselftest" "$T/ks/kselftest"
	[[ -x $T/ks/run_kselftest.sh ]] || fail "run_kselftest.sh is not executable"
'

step "the list names every C test and scenario, but those of the source tree, each runnable" --needs RUNNER '
	mapfile -t listed < "$T/ks/kselftest-list.txt"
	for t in "${listed[@]}"; do
		[[ $t == fds_example:* ]] || fail "not in the collection: $t"
		[[ -x $T/ks/fds_example/${t#*:} ]] || fail "listed, not installed: $t"
	done
	while read -r t; do
		grep -qx "fds_example:$t" "$T/ks/kselftest-list.txt" || fail "C test $t not listed"
	done < tests/bin/tests.list
	for s in tests/scenarios/*.sh; do
		if grep -q "^# kselftest: source tree only" "$s"; then
			! grep -qx "fds_example:${s##*/}" "$T/ks/kselftest-list.txt" ||
				fail "${s##*/} checks the source tree, and is listed"
		else
			grep -qx "fds_example:${s##*/}" "$T/ks/kselftest-list.txt" ||
				fail "scenario ${s##*/} not listed"
		fi
	done
	[[ ! -e $T/ks/fds_example/Makefile ]] || fail "the source tree came along"
'

# What the tests run, as in the tree: the CLI, its test object and man
# page, the transcript replayer, the example, the runner, its parts and
# lib.sh, the data, the documents, the fuzzer's regression inputs, and the built
# tests and helpers (without the build's .d and object files).
step "the collection holds what the tests run, as in the tree; each scenario's entry point is mode 755" --needs RUNNER '
	col=$T/ks/fds_example
	for f in fds_example sockex1_kern.o fds_example.8 scripts/transcript.sh \
		scripts/tutorial.sh scripts/sandbox examples/lo_watch tests/lib.sh tests/run.sh; do
		cmp "$f" "$col/$f"
	done
	for d in tests/data tests/runner docs fuzz/regression; do
		diff -r "$d" "$col/$d"
	done
	# (names only: make rebuilds what is there, also while this runs)
	diff <(cd tests/bin && find . ! -name "*.d" ! -name "*.t.o" ! -name bpffs_fixture.o | sort) \
		<(cd "$col/tests/bin" && find . | sort)
	while read -r t; do
		t=${t#fds_example:}
		[[ $t == *.sh ]] || continue
		[[ $(stat -c %a "$col/$t") == 755 ]] || fail "$t: mode $(stat -c %a "$col/$t")"
	done < "$T/ks/kselftest-list.txt"
'

step "settings has the runner a timeout; config names the options the suite needs" --needs RUNNER '
	grep -qx "timeout=[0-9]*" "$T/ks/fds_example/settings" || fail "no timeout= in settings"
	for o in BPF_SYSCALL PACKET NET_NS; do
		grep -qx "CONFIG_$o=y" "$T/ks/fds_example/config" || fail "config lacks CONFIG_$o"
	done
'

step "run_kselftest.sh -l lists the collection" --needs RUNNER '
	"$T/ks/run_kselftest.sh" -l > "$T/l.out"
	cmp "$T/ks/kselftest-list.txt" "$T/l.out"
'

step "run_kselftest.sh -d -c fds_example would run every test" --needs RUNNER '
	"$T/ks/run_kselftest.sh" -d -c fds_example > "$T/d.out"
	[[ $(grep -c "^cd fds_example$" "$T/d.out") == 1 ]] || fail "$(<"$T/d.out")"
	n=$(line_count "$T/ks/kselftest-list.txt")
	grep -q "^run_many .*" "$T/d.out" || fail "no run_many: $(<"$T/d.out")"
	set -- $(grep "^run_many" "$T/d.out")
	(($# - 1 == n)) || fail "run_many of $(($# - 1)) tests, $n listed"
'

# run_t TEST...: run_kselftest.sh -t fds_example:TEST..., into $T/t.out.
run_t()
{
	local args=() t
	for t in "$@"; do
		args+=(-t "fds_example:$t")
	done
	"$T/ks/run_kselftest.sh" "${args[@]}" 2>&1 | cat > "$T/t.out"
}

step "run_kselftest.sh -t runs a scenario and a C test from the tree alone" --needs RUNNER '
	run_t transcript.sh lifetimes
	grep -qx "ok 1 selftests: fds_example: transcript.sh" "$T/t.out" || fail "$(<"$T/t.out")"
	grep -qx "ok 2 selftests: fds_example: lifetimes" "$T/t.out" || fail "$(<"$T/t.out")"
	! grep -q "^# not ok" "$T/t.out" || fail "a case failed: $(grep "^# not ok" "$T/t.out")"
'

# plan FILE KEY=VALUE...: FILE, a plan for tests/run.sh (tests/runner/plan.sh)
# of these lines. The runs of tests/run.sh below write their matrix rows
# into their own results, never into the outer run's, and read nothing of
# the outer run's plan.
plan()
{
	local file=$1
	shift
	printf "%s\n" "$@" > "$file"
}

step "tests/run.sh reads the runner's output as the cases each test printed" --needs RUNNER,KUNIT '
	plan "$T/run.plan" kselftest=$T/ks results=$T/res
	tests/run.sh --plan "$T/run.plan" transcript > "$T/run.out" 2>&1 ||
		fail "run.sh failed: $(<"$T/run.out")"
	read -r p f s < "$T/res/counts"
	want=$(grep -c "^# ok " "$T/res/kselftest.ktap")
	((p == want && p > 0 && f == 0 && s == 0)) || fail "counts $p $f $s, the runner printed $want ok cases"
	[[ $(<"$T/res/kselftest.counts") == "1 0 0" ]] || fail "runner counts: $(<"$T/res/kselftest.counts")"
	scripts/ktap_check.py "$T/res"
'

# A scratch collection: tests that pass, fail, skip (exit 4), hang past
# the settings timeout, and one listed but never installed. Its run must
# not take an outer run's TEST_TIMEOUT or CI (make mutate sets both): they
# would override the settings' timeout, or fail its skip.
scratch_test()
{
	printf "%s\n" "#!/bin/sh" "$2" > "$T/sc/fds_example/$1"
	chmod 0755 "$T/sc/fds_example/$1"
}
step "setup: a scratch collection" --needs RUNNER '
	mkdir -p "$T/sc/fds_example"
	cp -a "$RUNNER/run_kselftest.sh" "$RUNNER/kselftest" "$T/sc/"
	echo timeout=2 > "$T/sc/fds_example/settings"
	scratch_test pass "printf \"KTAP version 1\n1..2\nok 1 one\nok 2 two\n\""
	scratch_test fail "printf \"KTAP version 1\n1..2\nok 1 one\nnot ok 2 two\n\"; exit 1"
	scratch_test skip "printf \"KTAP version 1\n1..1\nok 1 one # SKIP no reason\n\"; exit 4"
	scratch_test hang "printf \"KTAP version 1\n1..1\n\"; exec sleep 60"
	printf "fds_example:%s\n" pass fail skip hang gone > "$T/sc/kselftest-list.txt"
'

step "tests/run.sh judges the runner's ok, not ok, SKIP, TIMEOUT and missing test" --needs RUNNER,KUNIT '
	rc=0
	plan "$T/sc.plan" kselftest=$T/sc results=$T/scres
	TEST_TIMEOUT= CI= tests/run.sh --plan "$T/sc.plan" > "$T/sc.out" 2>&1 || rc=$?
	((rc == 1)) || fail "run.sh exited $rc, not 1"
	tail -n 1 "$T/sc.out" | grep -qx "3 passed, 3 failed, 1 skipped" ||
		fail "closing line: $(tail -n 1 "$T/sc.out")"
	[[ $(<"$T/scres/kselftest.counts") == "1 3 1" ]] ||
		fail "runner counts: $(<"$T/scres/kselftest.counts")"
	for want in "fail: two" "skip: one (skipped: no reason)" "hang: TIMEOUT 2s" \
		"gone: exited 1 without a failing case"; do
		grep -qxF "$want" "$T/scres/failures" || fail "failures lack [$want]: $(<"$T/scres/failures")"
	done
	grep -qx "not ok 4 hang # TIMEOUT 2s" "$T/scres/ktap" || fail "no TIMEOUT line"
	scripts/ktap_check.py "$T/scres"
'

# Lanes (lanes=N): two runners at once, each a share of the tests. "a"
# and "b" each wait for the other to have started, so they pass only if
# they run at the same time, which one runner never does; the rest are
# judged as in one lane, and each lane's output is a KTAP document of its
# own that the kernel's parser reads.
step "lanes=2: two runners at once, the same verdicts, each lane valid KTAP" --needs RUNNER,KUNIT '
	for t in a b; do
		o=$([[ $t == a ]] && echo b || echo a)
		scratch_test "$t" "touch $T/$t.started; n=0; while [ ! -e $T/$o.started ] && [ \$n -lt 40 ]; do sleep 0.05; n=\$((n + 1)); done; [ -e $T/$o.started ] || exit 1; printf \"KTAP version 1\n1..1\nok 1 met\n\""
	done
	echo timeout=10 > "$T/sc/fds_example/settings"
	printf "fds_example:%s\n" pass fail skip a b gone > "$T/sc/kselftest-list.txt"
	rc=0
	plan "$T/lanes.plan" lanes=2 kselftest=$T/sc results=$T/lanes
	TEST_TIMEOUT= CI= tests/run.sh --plan "$T/lanes.plan" > "$T/lanes.out" 2>&1 || rc=$?
	((rc == 1)) || fail "run.sh exited $rc, not 1"
	tail -n 1 "$T/lanes.out" | grep -qx "5 passed, 2 failed, 1 skipped" ||
		fail "closing line: $(tail -n 1 "$T/lanes.out")"
	[[ $(<"$T/lanes/kselftest.counts") == "3 2 1" ]] ||
		fail "runner counts: $(<"$T/lanes/kselftest.counts")"
	for t in a b; do
		grep -q "^ok [0-9] selftests: fds_example: $t\$" "$T/lanes/kselftest.ktap" "$T/lanes/kselftest.2.ktap" ||
			fail "$t did not pass: $(cat "$T/lanes/kselftest.ktap" "$T/lanes/kselftest.2.ktap")"
	done
	n1=$(grep -c "^[a-z ]*ok [0-9]* selftests:" "$T/lanes/kselftest.ktap")
	n2=$(grep -c "^[a-z ]*ok [0-9]* selftests:" "$T/lanes/kselftest.2.ktap")
	((n1 + n2 == 6 && n1 > 0 && n2 > 0)) || fail "lanes of $n1 and $n2 tests, not 6 in two"
	grep -qx "# lane 2 of 2:" "$T/lanes.out" || fail "lane 2 printed without its header: $(<"$T/lanes.out")"
	grep -qxF "fail: two" "$T/lanes/failures" || fail "failures: $(<"$T/lanes/failures")"
	grep -q "^  # a: [0-9]*\.[0-9]s$" "$T/lanes/ktap" || fail "no seconds for a: $(grep "# a:" "$T/lanes/ktap")"
	scripts/ktap_check.py "$T/lanes" > "$T/lanes.check" || fail "$(<"$T/lanes.check")"
	grep -q "in 2 lanes" "$T/lanes.check" || fail "$(<"$T/lanes.check")"
'

# Shards (shard=K/N): make check-vm's N guests of one kernel each run
# lane K of the same plan; together every test once.
step "shard=1/2 and 2/2 run every test once between them; a bad K/N is refused" --needs RUNNER,KUNIT '
	for k in 1 2; do
		plan "$T/shard$k.plan" shard=$k/2 kselftest=$T/sc results=$T/shard$k
		TEST_TIMEOUT= CI= tests/run.sh --plan "$T/shard$k.plan" > "$T/shard$k.out" 2>&1 || true
		grep -qx "# shard $k of 2: the other tests run in other guests" "$T/shard$k/ktap" ||
			fail "shard $k: no shard line: $(head -n 3 "$T/shard$k/ktap")"
		scripts/ktap_check.py "$T/shard$k" > "$T/shard$k.check" || fail "$(<"$T/shard$k.check")"
	done
	got=$(sed -n "s/^\(not \)\{0,1\}ok [0-9]* \([a-z]*\).*/\2/p" "$T/shard1/ktap" "$T/shard2/ktap" | sort | tr "\n" " ")
	[[ $got == "a b fail gone pass skip " ]] || fail "the two shards ran [$got]"
	n1=$(grep -c "^\(not \)\{0,1\}ok " "$T/shard1/ktap")
	((n1 == 3)) || fail "shard 1 ran $n1 of the 6 tests"
	for bad in 0/2 3/2 1/0 x; do
		rc=0
		plan "$T/bad.plan" shard=$bad kselftest=$T/sc results=$T/badshard
		tests/run.sh --plan "$T/bad.plan" > "$T/bad.out" 2>&1 || rc=$?
		((rc == 1)) || fail "shard=$bad: exit $rc"
		grep -qxF "run.sh: shard=$bad: not K/N with 1 <= K <= N" "$T/bad.out" ||
			fail "shard=$bad: $(<"$T/bad.out")"
	done
'

# Each kernel its own column of weights: make check-vm's guests plan by
# their kernel's (label=), anything else by a test's mean; a file whose
# rows do not match its header is refused.
step "label= picks the column of guest-seconds a guest plans by" --needs RUNNER,KUNIT '
	printf "%s\n" "# scratch" "test x y" "pass 9.0 0.1" "fail 0.1 9.0" "skip - 0.1" > "$T/weights"
	for label in x y z; do
		plan "$T/col$label.plan" guest_seconds=$T/weights label=$label shard=1/2 \
			kselftest=$T/sc results=$T/col$label
		TEST_TIMEOUT= CI= tests/run.sh --plan "$T/col$label.plan" > "$T/col$label.out" 2>&1 || true
		got=$(sed -n "s/^\(not \)\{0,1\}ok [0-9]* \([a-z]*\).*/\2/p" "$T/col$label/ktap" | tr "\n" " ")
		case $label in
		x) want="pass " ;;		# 9 s alone; the rest, 3.2 s, in shard 2
		y) want="fail " ;;
		z) want="pass a gone " ;;	# means: pass 4.5, fail 4.5, skip 0.1; the rest 1 s
		esac
		[[ $got == "$want" ]] || fail "label=$label: shard 1 ran [$got], not [$want]"
	done
	printf "%s\n" "test x y" "pass 9.0" > "$T/weights"
	rc=0
	plan "$T/badw.plan" guest_seconds=$T/weights shard=1/2 kselftest=$T/sc results=$T/badw
	tests/run.sh --plan "$T/badw.plan" > "$T/badw.out" 2>&1 || rc=$?
	((rc == 1)) || fail "a short row: exit $rc"
	grep -q "pass: 1 figures for 2 kernels" "$T/badw.out" || fail "a short row: $(<"$T/badw.out")"
'

scenario_end
