#!/usr/bin/env bash
# scripts/mutate.sh, make mutate itself, run whole on a made-up project of
# a few lines: its Makefile's test-build refuses a file with BROKEN in it,
# and its "suite" is a made-up tests/run.sh that prints KTAP as the real
# runner does, runs the tests named, and writes the results mutate.sh
# reads. Each verdict must come out on its exact line (killed, by which
# test; SURVIVED; equivalent; stale; not built), the tally and the exit
# status follow MUTATE_TARGET, a "first:" test runs alone first, one that
# cannot pass alone is refused, MUTATE_RECORD=1 rewrites the list's first:
# lines, a bad list or id is refused by name; line mutants (make
# mutate-all) run only their tests: and are tallied per file and group.
# The runner lies twice on purpose (it exits with its first test's status,
# and one test's status is lost in a pipe) and one mutant makes it hang:
# the judge and MUTATE_SUITE_TIMEOUT must kill all three.
# kernel-independent: the harness's own tests; no kernel call
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# make mutate MUTATE_TARGET=... exports its command line's variables: the
# runs here set their own, and must never write to the outer run's files.
unset MUTANTS MUTANTS_ONLY MUTATE_TARGET MUTATE_JOBS MUTATE_RECORD MUTATE_REPORT \
	MUTATE_SUITE_TIMEOUT

# The made-up project, $P. Product C at the top, test C and the harness
# in tests/; the line numbers matter to the line mutants below.
P=$T/proj
mkdir -p "$P/scripts" "$P/tests" "$P/.cache" "$T/orig"
cat > "$P/calc.c" << 'EOF'
/* calc: the made-up project's product */
int add(int a, int b)
{
	return a + b;
}

int sub(int a, int b)
{
	return a - b;
}

int twice(int a)
{
	return a * 2;
}

/* nothing uses spare() yet */
int spare(int a)
{
	return a;
}
EOF
cat > "$P/tests/calc_test.c" << 'EOF'
#include <assert.h>
int add(int a, int b);

int main(void)
{
	assert(add(1, 2) == 3);
	assert(add(0, 0) == 0);
	return 0;
}
EOF
cat > "$P/tests/helper.sh" << 'EOF'
#!/usr/bin/env bash
# prints the usage of calc
echo "usage: calc A B"
exit 0
EOF
cat > "$P/Makefile" << 'EOF'
# The made-up project's build: a file with BROKEN in it does not compile,
# nor a return statement that lost its indent.
test-build:
	@! grep -n BROKEN calc.c tests/calc_test.c tests/helper.sh
	@! grep -n '^return' calc.c
EOF
cat > "$P/tests/run.sh" << 'EOF'
#!/usr/bin/env bash
# The made-up project's suite, printed as the real runner prints it: KTAP,
# each test's one case nested under its result, and the closing line;
# "TEST: CASE" in RESULTS/failures for each failing test, RESULTS the
# plan's results= (default build/results/host); its fail_fast=1 stops at
# the first. run.sh [--plan FILE] TEST... runs those only. Two bugs on purpose, for the judge to catch: it exits
# with its first test's status, and the status of "helps" is lost in a
# pipe. Each run that ends appends "TESTS => CLOSING LINE, exit STATUS" to
# $FAKE_RUNS.
cd "${0%/*}/.." || exit 1
results=build/results/host fail_fast=
if [[ ${1:-} == --plan ]]; then
	while IFS='=' read -r key value; do
		case $key in
		results) results=$value ;;
		fail_fast) fail_fast=$value ;;
		esac
	done < "$2"
	shift 2
fi
mkdir -p "$results" && : > "$results/failures" || exit 1
all=(adds subtracts doubles follows checks helps)
declare -A what=([adds]="add adds" [subtracts]="sub subtracts"
	[doubles]="twice doubles" [follows]="another test ran before"
	[checks]="the test asserts" [helps]="the usage")
log() { [[ -z ${FAKE_RUNS:-} ]] || echo "$*" >> "$FAKE_RUNS"; }
names=("$@")
((${#names[@]})) || names=("${all[@]}")
for t in "${names[@]}"; do
	if [[ -z ${what[$t]:-} ]]; then
		echo "run.sh: no test $t" >&2
		log "$* => no test $t"
		exit 2
	fi
done

# check COMMAND...: the test's case, ok when COMMAND succeeds
check()
{
	if "$@" > /dev/null 2>&1; then
		echo "  ok 1 ${what[$t]}"
	else
		echo "  not ok 1 ${what[$t]}"
		return 1
	fi
}
t_adds() { check grep -qxF '	return a + b;' calc.c; }
t_subtracts() { check grep -qxF '	return a - b;' calc.c; }
t_doubles() { check grep -qxF '	return a * 2;' calc.c; }
t_follows() { check test -n "$ran"; }
t_checks() { check grep -qxF '	assert(add(1, 2) == 3);' tests/calc_test.c; }
t_helps() { check grep -qx 'usage: calc A B' <(bash tests/helper.sh) | cat; }

echo "KTAP version 1"
echo "1..${#names[@]}"
pass=0 fail=0 n=0 first='' ran=''
for t in "${names[@]}"; do
	n=$((n + 1))
	echo "  KTAP version 1"
	echo "  1..1"
	if "t_$t"; then
		echo "ok $n $t"
		pass=$((pass + 1)) rc=0
	else
		echo "not ok $n $t"
		echo "$t: ${what[$t]}" >> "$results/failures"
		fail=$((fail + 1)) rc=1
	fi
	first=${first:-$rc}
	ran+=" $t"
	((rc)) && [[ -n $fail_fast ]] && break
done
echo "$pass passed, $fail failed, 0 skipped"
log "${*:-(all)} => $pass passed, $fail failed, exit $first"
exit "$first"
EOF

# The hand-written list, as tests/mutants.txt: one of each verdict.
cat > "$T/a.list" << 'EOF'
# the made-up project's mutants

id: add-minus
file: calc.c
from: return a + b;
to: return a - b;
why: the sum
first: adds

id: sub-plus
file: calc.c
from: return a - b;
to: return a + b;
why: the difference (its first: is wrong: costs time, not a verdict)
first: adds

id: spare-zero
file: calc.c
from: return a;
to: return 0;
why: nothing tests spare

id: spare-name
file: calc.c
from: int spare(int a)
to: int spare(int x)
why: the parameter renamed
equivalent: the name of a parameter is no behaviour

id: usage-short
file: tests/helper.sh
from: echo "usage: calc A B"
to: echo "usage: calc"
why: the usage cut short (only the nested KTAP says so)

id: usage-hangs
file: tests/helper.sh
from: echo "usage: calc A B"
to: sleep 60; echo "usage: calc A B"
why: the usage never comes

id: twice-plus
file: calc.c
from: return a * 2;
to: return a + 2;
why: a * in from: is text, not a pattern

id: twice-drop
file: calc.c
from: return a * 2;
to:
why: an empty to: deletes

id: twice-broken
file: calc.c
from: int twice(int a)
to: int twice(int a) /* BROKEN */
why: a mutant that does not compile

id: stale-gone
file: calc.c
from: return a / 2;
to: return a / 3;
why: text no longer there

id: stale-twice
file: calc.c
from: return a
to: return b
why: text there four times

id: stale-same
file: calc.c
from: int add(
to: int add(
why: changes nothing

id: stale-file
file: calc.h
from: int add(
to: int sum(
why: a file no longer there
EOF

# Line mutants, as make mutate-all writes them: line: and tests: keys.
cat > "$T/b.list" << 'EOF'
# the made-up project's line mutants

id: l-add
file: calc.c
line: 4
from: return a + b;
to: return a - b;
why: the sum
tests: adds

id: l-sub
file: calc.c
line: 9
from: return a - b;
to: return a + b;
why: the difference, reached by no test known: the whole suite
tests:

id: l-spare
file: calc.c
line: 20
from: return a;
to: return 0;
why: nothing tests spare
tests: doubles checks

id: l-moved
file: calc.c
line: 13
from: return a * 2;
to: return a + 2;
why: its line moved since
tests: doubles

id: l-broken
file: calc.c
line: 12
from: int twice(int a)
to: int twice(int a) /* BROKEN */
why: does not compile
tests: doubles

id: l-assert
file: tests/calc_test.c
line: 6
from: assert(add(1, 2) == 3);
to: assert(add(1, 2) != 3);
why: the assertion turned
tests: checks

id: l-assert0
file: tests/calc_test.c
line: 7
from: assert(add(0, 0) == 0);
to: assert(add(0, 0) != 0);
why: an assertion no test reads
tests: checks

id: l-usage
file: tests/helper.sh
line: 3
from: echo "usage: calc A B"
to: echo "usage: calc"
why: the usage cut short
tests: helps

id: l-exit
file: tests/helper.sh
line: 4
from: exit 0
to: exit 1
why: an exit status no test reads
tests: helps

id: l-comment
file: tests/helper.sh
line: 2
from: # prints the usage of calc
to: # prints the use of calc
why: a comment
tests: helps
equivalent: a comment is no behaviour
EOF

# A list for MUTATE_RECORD=1: a wrong first:, none, and a survivor's.
cat > "$T/c.list" << 'EOF'
# a list whose first: lines follow the killers

id: add-minus
file: calc.c
first: subtracts
from: return a + b;
to: return a - b;
why: the sum

id: sub-plus
file: calc.c
from: return a - b;
to: return a + b;
why: the difference

id: spare-zero
file: calc.c
from: return a;
to: return 0;
why: nothing tests spare
first: doubles
EOF

# mutate [ARG...]: the project's own scripts/mutate.sh (MUTANTS and the
# like as the caller sets them), its scratch copies in $T/tmp. Its stdout
# in $T/out, with the name of its copies and the time of its tally made
# fixed (fds-mutate.XXXXXX, 0m00s); its stderr in $T/err; its exit status
# in $status; the runs of the made-up runner, sorted, in $T/runs. A run
# leaves no scratch copy behind. (A judge that MUTATE_SUITE_TIMEOUT stops
# may leave its own temporary file: its EXIT trap races the second TERM
# that timeout sends, to the process group.)
mutate()
{
	local lines i left
	status=0
	mkdir -p "$T/tmp"
	: > "$T/runs.log"
	TMPDIR=$T/tmp FAKE_RUNS=$T/runs.log "$P/scripts/mutate.sh" "$@" \
		> "$T/out.raw" 2> "$T/err" || status=$?
	mapfile -t lines < "$T/out.raw"
	for i in "${!lines[@]}"; do
		if [[ ${lines[i]} =~ ^(mutate: .* in "$T"/tmp/fds-mutate\.)[[:alnum:]]{6}$ ]]; then
			lines[i]=${BASH_REMATCH[1]}XXXXXX
		elif [[ ${lines[i]} =~ ^(mutate: .* killed; )[0-9]+m[0-5][0-9]s$ ]]; then
			lines[i]=${BASH_REMATCH[1]}0m00s
		fi
	done
	lines_of "${lines[@]}" > "$T/out"
	LC_ALL=C sort "$T/runs.log" > "$T/runs"
	{
		echo "\$ mutate.sh $* -> exit $status"
		show_file "  out: " "$T/out"
		show_file "  err: " "$T/err"
		show_file "  run: " "$T/runs"
	} >&2
	left=("$T"/tmp/fds-mutate.*)
	[[ ! -e ${left[0]} ]] || fail "left behind in TMPDIR: ${left[*]##*/}"
}

# lines_of LINE...: each LINE on a line of its own; none, nothing.
lines_of()
{
	if (($#)); then
		printf '%s\n' "$@"
	fi
}

# expect_run HEAD N LINE...: stdout is HEAD, then the first N LINEs in
# any order (the copies print side by side), then the other LINEs in
# order.
expect_run()
{
	local head=$1 n=$2 got
	shift 2
	mapfile -t got < "$T/out"
	lines_of "$head" > "$T/want.run"
	lines_of "${@:1:n}" | LC_ALL=C sort >> "$T/want.run"
	lines_of "${@:n+1}" >> "$T/want.run"
	lines_of "${got[@]:0:1}" > "$T/got.run"
	lines_of "${got[@]:1:n}" | LC_ALL=C sort >> "$T/got.run"
	lines_of "${got[@]:n+1}" >> "$T/got.run"
	cmp -s "$T/want.run" "$T/got.run" && return 0
	diff -u --label expected --label "stdout (its results sorted)" \
		"$T/want.run" "$T/got.run" >&2 || true
	fail "stdout differs from the expected lines (diff above)"
}

# expect_runs LINE...: the made-up runner ran so, in any order.
expect_runs()
{
	lines_of "$@" | LC_ALL=C sort > "$T/runs.want"
	cmp -s "$T/runs.want" "$T/runs" && return 0
	diff -u --label expected --label runs "$T/runs.want" "$T/runs" >&2 || true
	fail "the runner's runs differ from the expected ones (diff above)"
}

# unchanged: mutate.sh changed no file of the project itself.
unchanged()
{
	local f
	for f in calc.c tests/calc_test.c tests/helper.sh tests/run.sh Makefile; do
		cmp -s "$T/orig/$f" "$P/$f" || fail "mutate.sh changed the project's $f"
	done
}

# variant NAME SED FILE: a copy of the project in $T/NAME, FILE changed
# by SED; P names it for the step.
variant()
{
	cp -a "$P" "$T/$1"
	sed -i "$2" "$T/$1/$3"
	P=$T/$1
}

step "setup: the made-up project, a git repository, with the real mutate.sh and judge.sh" '
	cp "$TOP/scripts/mutate.sh" "$TOP/scripts/judge.sh" "$P/scripts/"
	chmod +x "$P/tests/run.sh" "$P/tests/helper.sh"
	(cd "$P" && git init -q && git add -A)
	mkdir -p "$T/orig/tests"
	for f in calc.c tests/calc_test.c tests/helper.sh tests/run.sh Makefile; do
		cp "$P/$f" "$T/orig/$f"
	done
	(cd "$P" && tests/run.sh) > "$T/out"
	expect_out "KTAP version 1" "1..6" \
		"  KTAP version 1" "  1..1" "  ok 1 add adds" "ok 1 adds" \
		"  KTAP version 1" "  1..1" "  ok 1 sub subtracts" "ok 2 subtracts" \
		"  KTAP version 1" "  1..1" "  ok 1 twice doubles" "ok 3 doubles" \
		"  KTAP version 1" "  1..1" "  ok 1 another test ran before" "ok 4 follows" \
		"  KTAP version 1" "  1..1" "  ok 1 the test asserts" "ok 5 checks" \
		"  KTAP version 1" "  1..1" "  ok 1 the usage" "ok 6 helps" \
		"6 passed, 0 failed, 0 skipped"
	rm -r "$P/build"
'

step "--check counts the mutants and names each stale one" '
	MUTANTS=$T/a.list mutate --check
	expect_status 1
	expect_out "mutate: stale stale-gone: calc.c: the text is not there exactly once: return a / 2;" \
		"mutate: stale stale-twice: calc.c: the text is not there exactly once: return a" \
		"mutate: stale stale-same: calc.c: from and to are the same" \
		"mutate: stale stale-file: calc.h: no such file" \
		"mutate: 13 mutants, 4 stale"
	expect_no_err
	MUTANTS=$T/b.list mutate --check
	expect_status 1
	expect_out "mutate: stale l-moved: calc.c:13: the line is not: return a * 2;" \
		"mutate: 10 mutants, 1 stale"
	MUTANTS=$T/c.list mutate --check
	expect_status 0
	expect_out "mutate: 3 mutants, 0 stale"
'

step "a list it cannot read or use, an id not in it, is refused by name" '
	# refused: LIST [ARG...] -- MESSAGE: mutate.sh on LIST says MESSAGE alone
	refused() {
		local list=$1 args=()
		shift
		while [[ $1 != -- ]]; do args+=("$1"); shift; done
		MUTANTS=$list mutate "${args[@]}"
		expect_status 1
		expect_out
		expect_file "$T/err" "$2"
	}
	refused "$T/nothing" -- "mutate: cannot read $T/nothing"
	printf "# a comment\n\nid: a\nfile: calc.c\nfrom: x\nto: y\nwhy: w\n\nid: b\nfile: calc.c\nfrom: x\nto: y\n" > "$T/bad"
	refused "$T/bad" -- "mutate: $T/bad:9: a mutant needs id, file, from and why"
	printf "id: a\nfile: calc.c\nfrom: x\nwhy: w\n" > "$T/bad"
	refused "$T/bad" -- "mutate: $T/bad:1: mutant a has no to: line"
	printf "\nid: a\nfile: calc.c\nline: 4x\nfrom: x\nto: y\nwhy: w\n" > "$T/bad"
	refused "$T/bad" -- "mutate: $T/bad:2: mutant a: line: 4x is not a line number"
	printf "id: a\nfile: calc.c\nfrm: x\n" > "$T/bad"
	refused "$T/bad" -- "mutate: $T/bad:3: unknown key '"'"'frm'"'"'"
	{ cat "$T/c.list"; echo; sed -n "/^id: sub-plus/,/^$/p" "$T/c.list"; } > "$T/bad"
	refused "$T/bad" -- "mutate: two mutants are called sub-plus"
	refused "$T/c.list" add-minus nothing -- "mutate: no mutant nothing in $T/c.list"
'

step "MUTATE_JOBS must be a count" '
	for jobs in 0 two -1; do
		MUTATE_JOBS=$jobs MUTANTS=$T/c.list mutate
		expect_status 1
		expect_out
		expect_file "$T/err" "mutate: MUTATE_JOBS=$jobs is not a count"
	done
'

step "the hand-written list: each mutant on its line, the tally and the survivors; a lie and a hang killed" '
	MUTATE_SUITE_TIMEOUT=3 MUTANTS=$T/a.list mutate
	cp "$T/runs" "$T/a.runs"
	expect_status 1
	expect_no_err
	expect_run "mutate: 13 mutants, 2 at a time, in $T/tmp/fds-mutate.XXXXXX" 13 \
		"killed     add-minus    calc.c (by adds)" \
		"killed     sub-plus     calc.c (by subtracts)" \
		"SURVIVED   spare-zero   calc.c: return a; -> return 0;" \
		"equivalent spare-name   calc.c: int spare(int a) -> int spare(int x)" \
		"killed     usage-short  tests/helper.sh (by @judge)" \
		"killed     usage-hangs  tests/helper.sh (by @judge)" \
		"killed     twice-plus   calc.c (by doubles)" \
		"killed     twice-drop   calc.c (by doubles)" \
		"not-built  twice-broken calc.c (does not compile: make the mutant build)" \
		"stale      stale-gone   calc.c: the text is not there exactly once: return a / 2;" \
		"stale      stale-twice  calc.c: the text is not there exactly once: return a" \
		"stale      stale-same   calc.c: from and to are the same" \
		"stale      stale-file   calc.h: no such file" \
		"mutate: 13 mutants: 6 killed, 1 survived, 1 argued equivalent, 4 stale, 1 not built; 85.7 % killed; 0m00s" \
		"mutate: survivors (give each a test, or argue it equivalent in $T/a.list): spare-zero"
	unchanged
'

step "what the runner ran: a first: test alone first, a wrong one then the suite, no run for stale or unbuilt" '
	# the unchanged tree, then adds alone (both first: lines name it);
	# add-minus by adds alone; sub-plus, its first: passing, by the
	# suite, whose runner exits 0 though it counts a failure (so do those
	# of twice-plus and twice-drop); spare-*, usage-short (a nested
	# "not ok", the runner exiting 0 and counting none) by the suite;
	# usage-hangs stopped before its end
	cp "$T/a.runs" "$T/runs"
	expect_runs "(all) => 6 passed, 0 failed, exit 0" \
		"adds => 1 passed, 0 failed, exit 0" \
		"adds => 0 passed, 1 failed, exit 1" \
		"adds => 1 passed, 0 failed, exit 0" "(all) => 1 passed, 1 failed, exit 0" \
		"(all) => 6 passed, 0 failed, exit 0" \
		"(all) => 6 passed, 0 failed, exit 0" \
		"(all) => 6 passed, 0 failed, exit 0" \
		"(all) => 2 passed, 1 failed, exit 0" \
		"(all) => 2 passed, 1 failed, exit 0"
'

step "mutate.sh ID... runs those only; MUTATE_TARGET=50 passes 1 of 2 killed, 51 does not; the default 100 all killed and built" '
	MUTATE_TARGET=50 MUTANTS=$T/a.list mutate spare-zero add-minus
	expect_status 0
	expect_no_err
	expect_run "mutate: 2 mutants, 2 at a time, in $T/tmp/fds-mutate.XXXXXX" 2 \
		"killed     add-minus    calc.c (by adds)" \
		"SURVIVED   spare-zero   calc.c: return a; -> return 0;" \
		"mutate: 2 mutants: 1 killed, 1 survived, 0 argued equivalent, 0 stale, 0 not built; 50.0 % killed; 0m00s" \
		"mutate: survivors (give each a test, or argue it equivalent in $T/a.list): spare-zero"
	expect_runs "(all) => 6 passed, 0 failed, exit 0" \
		"adds => 1 passed, 0 failed, exit 0" "adds => 0 passed, 1 failed, exit 1" \
		"(all) => 6 passed, 0 failed, exit 0"
	MUTATE_JOBS=1 MUTATE_TARGET=51 MUTANTS=$T/a.list mutate spare-zero add-minus
	expect_status 1
	# one copy: the mutants in the order of the list
	expect_run "mutate: 2 mutants, 1 at a time, in $T/tmp/fds-mutate.XXXXXX" 0 \
		"killed     add-minus    calc.c (by adds)" \
		"SURVIVED   spare-zero   calc.c: return a; -> return 0;" \
		"mutate: 2 mutants: 1 killed, 1 survived, 0 argued equivalent, 0 stale, 0 not built; 50.0 % killed; 0m00s" \
		"mutate: survivors (give each a test, or argue it equivalent in $T/a.list): spare-zero"
	# the default, 100: every mutant killed, and none that does not build
	MUTANTS=$T/a.list mutate add-minus twice-plus
	expect_status 0
	grep -qx "mutate: 2 mutants: 2 killed, 0 survived, 0 argued equivalent, 0 stale, 0 not built; 100.0 % killed; 0m00s" "$T/out" ||
		fail "no tally of 2 killed"
	! grep -q "survivors" "$T/out" || fail "a survivors line with none"
	MUTANTS=$T/a.list mutate add-minus twice-plus twice-broken
	expect_status 1
	grep -qx "mutate: 3 mutants: 2 killed, 0 survived, 0 argued equivalent, 0 stale, 1 not built; 100.0 % killed; 0m00s" "$T/out" ||
		fail "no tally of 2 killed, 1 not built"
	# nothing killed nor survived: no ratio, and no pass
	MUTANTS=$T/a.list mutate stale-gone twice-broken
	expect_status 1
	grep -qx "mutate: 2 mutants: 0 killed, 0 survived, 0 argued equivalent, 1 stale, 1 not built; n/a killed; 0m00s" "$T/out" ||
		fail "no tally of n/a killed"
	unchanged
'

step "a first: test that does not exist, or fails alone on the unchanged tree, is refused" '
	sed "s/^first: adds$/first: nothing/" "$T/a.list" > "$T/first.list"
	MUTANTS=$T/first.list mutate add-minus
	expect_status 1
	expect_out "mutate: 1 mutants, 2 at a time, in $T/tmp/fds-mutate.XXXXXX"
	expect_file "$T/err" \
		"mutate: first: nothing (mutant add-minus) does not run and pass alone on the unchanged tree: run.sh: no test nothing" \
		"judge: tests/run.sh exited with status 2"
	sed "s/^first: adds$/first: follows/" "$T/a.list" > "$T/first.list"
	MUTANTS=$T/first.list mutate sub-plus spare-zero
	expect_status 1
	expect_file "$T/err" \
		"mutate: first: follows (mutant sub-plus) does not run and pass alone on the unchanged tree: not ok 1 follows" \
		"0 passed, 1 failed, 0 skipped" \
		"judge: tests/run.sh exited with status 1"
	expect_runs "(all) => 6 passed, 0 failed, exit 0" "follows => 0 passed, 1 failed, exit 1"
'

step "MUTATE_RECORD=1 rewrites the first: lines from this run's killers, keeping the others" '
	# the list ends without a newline: its last line is read all the same
	head -c -1 "$T/c.list" > "$T/rec.list"
	MUTATE_RECORD=1 MUTANTS=$T/rec.list mutate
	expect_status 1
	expect_no_err
	expect_run "mutate: 3 mutants, 2 at a time, in $T/tmp/fds-mutate.XXXXXX" 3 \
		"killed     add-minus    calc.c (by adds)" \
		"killed     sub-plus     calc.c (by subtracts)" \
		"SURVIVED   spare-zero   calc.c: return a; -> return 0;" \
		"mutate: 3 mutants: 2 killed, 1 survived, 0 argued equivalent, 0 stale, 0 not built; 66.6 % killed; 0m00s" \
		"mutate: the first: lines of $T/rec.list follow this run'"'"'s killers" \
		"mutate: survivors (give each a test, or argue it equivalent in $T/rec.list): spare-zero"
	expect_file "$T/rec.list" "# a list whose first: lines follow the killers" "" \
		"id: add-minus" "file: calc.c" "from: return a + b;" "to: return a - b;" \
		"why: the sum" "first: adds" "" \
		"id: sub-plus" "file: calc.c" "from: return a - b;" "to: return a + b;" \
		"why: the difference" "first: subtracts" "" \
		"id: spare-zero" "file: calc.c" "from: return a;" "to: return 0;" \
		"why: nothing tests spare" "first: doubles"
	# a wrong first: (subtracts, under add-minus) passes, then the suite
	expect_runs "(all) => 6 passed, 0 failed, exit 0" \
		"subtracts => 1 passed, 0 failed, exit 0" "doubles => 1 passed, 0 failed, exit 0" \
		"subtracts => 1 passed, 0 failed, exit 0" "(all) => 0 passed, 1 failed, exit 1" \
		"(all) => 1 passed, 1 failed, exit 0" \
		"doubles => 1 passed, 0 failed, exit 0" "(all) => 6 passed, 0 failed, exit 0"
'

step "line mutants: applied on their line only, their tests: run alone, an empty tests: runs the suite" '
	MUTATE_REPORT=$T/report MUTANTS=$T/b.list mutate
	expect_status 1
	expect_no_err
	expect_run "mutate: 10 mutants, 2 at a time, in $T/tmp/fds-mutate.XXXXXX" 10 \
		"killed     l-add        calc.c:4 (by adds)" \
		"killed     l-sub        calc.c:9 (by subtracts)" \
		"SURVIVED   l-spare      calc.c:20: return a; -> return 0;" \
		"stale      l-moved      calc.c:13: the line is not: return a * 2;" \
		"not-built  l-broken     calc.c:12 (does not compile; not counted)" \
		"killed     l-assert     tests/calc_test.c:6 (by checks)" \
		"SURVIVED   l-assert0    tests/calc_test.c:7: assert(add(0, 0) == 0); -> assert(add(0, 0) != 0);" \
		"killed     l-usage      tests/helper.sh:3 (by @judge)" \
		"SURVIVED   l-exit       tests/helper.sh:4: exit 0 -> exit 1" \
		"equivalent l-comment    tests/helper.sh:2: # prints the usage of calc -> # prints the use of calc" \
		"mutate: 10 mutants: 4 killed, 3 survived, 1 argued equivalent, 1 stale, 1 not built; 57.1 % killed; 0m00s" \
		"mutate: file                             killed   surv  equiv unbuilt    score" \
		"mutate: calc.c                                2      1      0      1   66.6 %" \
		"mutate: tests/calc_test.c                     1      1      0      0   50.0 %" \
		"mutate: tests/helper.sh                       1      1      1      0   50.0 %" \
		"mutate: (product C)                           2      1      0      1   66.6 %  under the target" \
		"mutate: (test C)                              1      1      0      0   50.0 %" \
		"mutate: (harness)                             1      1      1      0   50.0 %  under the target" \
		"mutate: survivors (a test, or an argument in tests/mutants-equivalent.txt):" \
		"  calc.c:20  l-spare" \
		"  tests/calc_test.c:7  l-assert0" \
		"  tests/helper.sh:4  l-exit"
	expect_runs "(all) => 6 passed, 0 failed, exit 0" \
		"adds => 0 passed, 1 failed, exit 1" \
		"(all) => 1 passed, 1 failed, exit 0" \
		"doubles checks => 2 passed, 0 failed, exit 0" \
		"checks => 0 passed, 1 failed, exit 1" \
		"checks => 1 passed, 0 failed, exit 0" \
		"helps => 1 passed, 0 failed, exit 0" \
		"helps => 1 passed, 0 failed, exit 0" \
		"helps => 1 passed, 0 failed, exit 0"
	unchanged
'

step "MUTATE_REPORT=FILE: each result as RESULT ID FILE LINE, stale ones left out" '
	LC_ALL=C sort "$T/report" > "$T/report.sorted"
	expect_file "$T/report.sorted" \
		"equivalent l-comment tests/helper.sh 2" \
		"killed l-add calc.c 4" \
		"killed l-assert tests/calc_test.c 6" \
		"killed l-sub calc.c 9" \
		"killed l-usage tests/helper.sh 3" \
		"survived l-assert0 tests/calc_test.c 7" \
		"survived l-exit tests/helper.sh 4" \
		"survived l-spare calc.c 20" \
		"unbuilt l-broken calc.c 12"
	MUTATE_REPORT=$T/report MUTANTS=$T/a.list mutate add-minus spare-zero
	LC_ALL=C sort "$T/report" > "$T/report.sorted"
	expect_file "$T/report.sorted" "killed add-minus calc.c -" "survived spare-zero calc.c -"
'

step "line mutants: the exit status is the groups', unbuilt ones not counted" '
	MUTATE_JOBS=1 MUTATE_TARGET=50 MUTANTS=$T/b.list mutate l-exit l-usage l-broken l-spare l-add
	expect_status 0
	expect_no_err
	expect_run "mutate: 5 mutants, 1 at a time, in $T/tmp/fds-mutate.XXXXXX" 0 \
		"killed     l-add        calc.c:4 (by adds)" \
		"SURVIVED   l-spare      calc.c:20: return a; -> return 0;" \
		"not-built  l-broken     calc.c:12 (does not compile; not counted)" \
		"killed     l-usage      tests/helper.sh:3 (by @judge)" \
		"SURVIVED   l-exit       tests/helper.sh:4: exit 0 -> exit 1" \
		"mutate: 5 mutants: 2 killed, 2 survived, 0 argued equivalent, 0 stale, 1 not built; 50.0 % killed; 0m00s" \
		"mutate: file                             killed   surv  equiv unbuilt    score" \
		"mutate: calc.c                                1      1      0      1   50.0 %" \
		"mutate: tests/helper.sh                       1      1      0      0   50.0 %" \
		"mutate: (product C)                           1      1      0      1   50.0 %" \
		"mutate: (harness)                             1      1      0      0   50.0 %" \
		"mutate: survivors (a test, or an argument in tests/mutants-equivalent.txt):" \
		"  calc.c:20  l-spare" \
		"  tests/helper.sh:4  l-exit"
	MUTATE_TARGET=51 MUTANTS=$T/b.list mutate l-add l-spare l-assert l-assert0
	expect_status 1
	grep -qx "mutate: (product C)                           1      1      0      0   50.0 %  under the target" "$T/out" ||
		fail "product C not under the target"
	grep -qx "mutate: (test C)                              1      1      0      0   50.0 %" "$T/out" ||
		fail "test C gated, or missing"
	MUTATE_TARGET=50 MUTANTS=$T/b.list mutate l-add l-spare l-moved
	expect_status 1
	grep -qx "mutate: (product C)                           1      1      0      0   50.0 %" "$T/out" ||
		fail "product C under the target"
'

step "when every mutant names its tests, the baseline runs those only, and a name no test has is refused" '
	printf "id: n-add\nfile: calc.c\nline: 4\nfrom: return a + b;\nto: return a - b;\nwhy: a\ntests: adds\n\n" > "$T/n.list"
	printf "id: n-dbl\nfile: calc.c\nline: 14\nfrom: return a * 2;\nto: return a * 3;\nwhy: b\ntests: doubles adds\n\n" >> "$T/n.list"
	MUTANTS=$T/n.list mutate
	expect_status 0
	expect_runs "adds doubles => 2 passed, 0 failed, exit 0" \
		"doubles adds => 0 passed, 1 failed, exit 1" \
		"adds => 0 passed, 1 failed, exit 1"
	printf "id: n-gone\nfile: calc.c\nline: 4\nfrom: return a + b;\nto: return a - b;\nwhy: c\ntests: gone\n\n" > "$T/g.list"
	MUTANTS=$T/g.list mutate
	expect_status 1
	expect_runs "gone => no test gone"
	grep -qx "mutate: the suite fails on the unchanged tree; fix that first" "$T/err" ||
		fail "the name no test has is not refused"
'

step "the unchanged tree whose suite fails (its runner exiting 0 all the same) is refused" '
	variant failing "s/return a - b;/return b - a;/" calc.c
	MUTANTS=$T/c.list mutate
	expect_status 1
	expect_out "mutate: 3 mutants, 2 at a time, in $T/tmp/fds-mutate.XXXXXX"
	expect_file "$T/err" "subtracts: sub subtracts" "  1..1" "  not ok 1 sub subtracts" \
		"not ok 2 subtracts" "1 passed, 1 failed, 0 skipped" \
		"judge: tests/run.sh: it exited 0, but its closing line says: 1 passed, 1 failed, 0 skipped" \
		"mutate: the suite fails on the unchanged tree; fix that first"
	expect_runs "(all) => 1 passed, 1 failed, exit 0"
'

step "the unchanged tree that does not build is refused" '
	variant unbuilt "s|^int spare(int a)$|& /* BROKEN */|" calc.c
	MUTATE_JOBS=1 MUTANTS=$T/c.list mutate
	expect_status 1
	expect_out "mutate: 3 mutants, 1 at a time, in $T/tmp/fds-mutate.XXXXXX"
	mapfile -t err < "$T/err"
	[[ ${err[0]} == "calc.c:18:int spare(int a) /* BROKEN */" ]] ||
		fail "the build log is not shown first"
	[[ ${err[*]: -1} == "mutate: the unchanged tree does not build" ]] ||
		fail "the last line is not the refusal"
	expect_runs
'

scenario_end
