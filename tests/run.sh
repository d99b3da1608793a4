#!/usr/bin/env bash
# The test runner: every scenario under tests/scenarios and every kselftest
# binary under tests/bin, each in its own mount namespace with a timeout.
# Prints KTAP v1 (Documentation/dev-tools/ktap.rst): each test's own KTAP
# nested two spaces deep under its result line, then "N passed, N failed,
# N skipped" over all test cases. With CI=true a skip is a failure.
#
# The results are files, the same natively and in a QEMU guest, in
# $FDS_RESULTS (default build/results/host, or build/results/partial when a
# pattern picks some tests):
#   ktap        the KTAP printed, as printed
#   counts      "PASSED FAILED SKIPPED" over the test cases the KTAP shows
#   failures    one line per failing or skipped case: "TEST: STEP"
#   cases       one line per case: "TEST<TAB>STEP<TAB>pass|fail|skip" (a
#               test that broke, "TEST<TAB>TEST<TAB>fail")
#   matrix.tsv  the tests' kernel-matrix rows (matrix_record)
# After a whole native run scripts/matrix.py compares the rows with
# docs/kernel-matrix.md (MATRIX_UPDATE=1 rewrites it), and
# scripts/ktap_check.py checks the KTAP with the kernel's own parser. Each
# adds a failure to the closing line when it fails. FDS_FAIL_FAST=1 stops
# at the first failing test (make mutate).
#
# FDS_KSELFTEST=DIR: the kernel's runner runs the tests instead, as the
# engines run them: DIR is an installed kselftest tree (make
# kselftest-install), whose run_kselftest.sh runs them all (-c
# fds_example; or -t each test the pattern picks; TEST_TIMEOUT, if set, is
# its -o). Its output is printed as it comes and kept as kselftest.ktap in
# the results, with kselftest.counts, "PASSED FAILED SKIPPED" over its own
# verdicts (one per test); each test's share of it, its "# " prefix taken
# off, is judged as below, with the exit status the runner's verdict
# names.
# FDS_LANES=N (N > 1; a QEMU guest sets it to its CPUs): N runners at
# once, each with a share of the tests (-t each), balanced by the seconds
# each test took in guests of this kernel (read_weights). Lane 1's output
# is printed as it comes and kept as kselftest.ktap, lane K's printed when
# it ends and kept as kselftest.K.ktap; kselftest.counts is over all
# lanes. The tests share nothing one lane could disturb in another: each
# has its own bpffs in its own mount namespace, and those that send
# packets their own network namespace.
# Usage: run.sh [PATTERN...]: the tests named by any PATTERN, a test's name
# (without .sh) exactly, or else a part of some tests' names; none: all.
set -u

# (no dirname, nor sed below: in a guest under TCG each exec costs tens
# of milliseconds, and this runs once per guest before its first test)
here=${0%/*}
[[ $here == "$0" ]] && here=.
TOP=$(cd "$here/.." && pwd)
# valgrind runs each fds_example some 20 times slower
if [[ ${VALGRIND:-} == 1 ]]; then
	TIMEOUT=${TEST_TIMEOUT:-900}
else
	TIMEOUT=${TEST_TIMEOUT:-120}
fi
patterns=("$@")
pattern=${*:-}
pass=0 fail=0 skip=0

# die MESSAGE: the runner cannot run; exit 1.
die() { echo "run.sh: $*" >&2; exit 1; }

# pick CANDIDATE...: tests+=(each CANDIDATE, a path or a name, that the
# patterns pick). A pattern that is a candidate's name (without .sh) picks
# that one only, so that any test can be run alone; any other, every
# candidate whose name holds it. A pattern that picks none stops the run.
pick()
{
	local t p name
	local -A exact=() used=()
	for t in "$@"; do
		name=${t##*/}
		exact[${name%.sh}]=1
	done
	for t in "$@"; do
		name=${t##*/}
		((${#patterns[@]})) || { tests+=("$t"); continue; }
		for p in "${patterns[@]}"; do
			if [[ -n ${exact[$p]:-} ]]; then
				[[ ${name%.sh} == "$p" ]] || continue
			elif [[ $name != *"$p"* ]]; then
				continue
			fi
			tests+=("$t")
			used[$p]=1
			break
		done
	done
	# a name that picks nothing is a mistake (a test renamed, a typo)
	for p in "${patterns[@]}"; do
		[[ -n ${used[$p]:-} ]] || die "no test is called $p or has it in its name"
	done
}

# The kselftest binaries are those the Makefile lists in tests/bin/tests.list;
# the helpers built next to them are not tests. Through the kernel's runner,
# the tests are its list's.
tests=()
if [[ -n ${FDS_KSELFTEST:-} ]]; then
	FDS_KSELFTEST=$(cd "$FDS_KSELFTEST" && pwd) || die "no $FDS_KSELFTEST"
	# The runner's time limit, which a TIMEOUT verdict names.
	if [[ -n ${TEST_TIMEOUT:-} ]]; then
		TIMEOUT=$TEST_TIMEOUT
	else
		TIMEOUT=
		while IFS= read -r line; do
			[[ $line == timeout=* ]] && TIMEOUT=${line#timeout=}
		done < "$FDS_KSELFTEST/fds_example/settings"
	fi
	list=$FDS_KSELFTEST/kselftest-list.txt
	[[ -f $list ]] || die "no $list (make kselftest-install INSTALL_PATH=DIR)"
	mapfile -t kselftests < "$list"
	candidates=()
	for t in "${kselftests[@]}"; do
		[[ $t == fds_example:* ]] && candidates+=("${t#*:}")
	done
	pick "${candidates[@]}"
else
	list=$TOP/tests/bin/tests.list
	[[ -f $list ]] || die "no $list (run make check)"
	mapfile -t kselftests < "$list"
	pick "$TOP"/tests/scenarios/*.sh "${kselftests[@]/#/$TOP/tests/bin/}"
	for t in "${tests[@]}"; do
		[[ $t == *.sh || -x $t ]] || die "$t is listed but not built (run make check)"
	done
fi
((${#tests[@]})) || die "no tests found (run make check)"

# A guest leaves out the kernel-independent scenarios, those whose header
# has a "# kernel-independent: WHY" line: their every verdict depends on
# the architecture and its user space only (make check runs them natively).
# FDS_ARCH_ONCE=1 (make check-vm: an architecture's first guest, when its
# user space is not the host's) runs them all. Builtins only.
kernel_independent()
{
	local line file=$1 head
	[[ $file == *.sh ]] || return 1
	[[ -n ${FDS_KSELFTEST:-} ]] && file=$FDS_KSELFTEST/fds_example/tests/scenarios/$file
	mapfile -t -n 30 head < "$file"
	for line in "${head[@]}"; do
		[[ $line == "# kernel-independent:"* ]] && return 0
	done
	return 1
}
# Decided here once: lib.sh's step reads the answer for the steps marked
# --kernel-independent of the scenarios kept.
FDS_LEAVE_OUT_KERNEL_INDEPENDENT=
[[ -n ${FDS_IN_VM:-} && ${FDS_ARCH_ONCE:-} != 1 ]] && FDS_LEAVE_OUT_KERNEL_INDEPENDENT=1
export FDS_LEAVE_OUT_KERNEL_INDEPENDENT
left_out=()
if [[ -n $FDS_LEAVE_OUT_KERNEL_INDEPENDENT ]]; then
	kept=()
	for t in "${tests[@]}"; do
		if kernel_independent "$t"; then
			left_out+=("${t##*/}")
		else
			kept+=("$t")
		fi
	done
	tests=("${kept[@]}")
fi

cd "$TOP" || exit 1
# Kernels before 5.11 charge every map to RLIMIT_MEMLOCK; only the memlock
# scenario wants a small limit, and it sets its own.
if ! ulimit -l unlimited 2> /dev/null; then
	echo "run.sh: cannot raise ulimit -l (no CAP_SYS_RESOURCE); kernels before 5.11 may refuse maps" >&2
fi
# A run of some tests only must not clobber the whole run's results, which
# make matrix-update reads.
# A whole run through the kernel's runner is the host's too, kept apart
# from build/results/*, whose every directory make matrix-update reads as
# a kernel.
if [[ -z ${FDS_RESULTS:-} && -n $pattern ]]; then
	FDS_RESULTS=$TOP/build/results/partial
elif [[ -z ${FDS_RESULTS:-} && -n ${FDS_KSELFTEST:-} ]]; then
	FDS_RESULTS=$TOP/build/kselftest-results/host
	whole_native_run=1
elif [[ -z ${FDS_RESULTS:-} ]]; then
	FDS_RESULTS=$TOP/build/results/host
	whole_native_run=1
fi
results=$FDS_RESULTS
mkdir -p "$results" || exit 1
: > "$results/ktap" && : > "$results/failures" && : > "$results/cases" || exit 1
export FDS_MATRIX_OUT=${FDS_MATRIX_OUT:-$results/matrix.tsv}
: > "$FDS_MATRIX_OUT" || exit 1
# Under SANITIZE=1 a sanitizer report must never pass for an expected exit 1.
# The kernel's runner.sh starts each test under stdbuf, whose LD_PRELOAD
# comes before libasan: ASan would refuse to start (verify_asan_link_order).
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1:verify_asan_link_order=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=87:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-exitcode=88}
logdir=$(mktemp -d "${TMPDIR:-/tmp}/fds-run.XXXXXX") || exit 1
trap 'rm -rf "$logdir"' EXIT

# emit LINE...: KTAP lines, to stdout and to the results (builtins only:
# in a guest under TCG every exec costs tens of milliseconds). Through the
# kernel's runner, stdout has had its output already: the results only.
emit()
{
	[[ -n ${FDS_KSELFTEST:-} ]] || printf '%s\n' "$@"
	printf '%s\n' "$@" >> "$results/ktap"
}

# count_cases LOG: p, s, f and the failing or skipped cases from LOG's own
# top-level result lines; verdicts, each case's "NAME<TAB>pass|fail|skip".
# Here and below a line meets a glob before a regex: bash compiles the
# regex at every =~, some 0.8 ms a line in a guest under TCG, and a
# guest's run has hundreds of lines (split_kselftest took 0.24 to 0.41 s
# of a sid guest with a regex a line, a read a line and the log reopened
# for each; 0.17 to 0.22 s with the glob, mapfile and one descriptor).
count_cases()
{
	local line lines re='^(not )?ok [0-9]+ (.*)$'
	p=0 s=0 f=0 cases=() verdicts=()
	mapfile -t lines < "$1"
	for line in "${lines[@]}"; do
		[[ $line == ?(not )"ok "* && $line =~ $re ]] || continue
		if [[ -n ${BASH_REMATCH[1]} ]]; then
			f=$((f + 1))
			cases+=("${BASH_REMATCH[2]}")
			verdicts+=("${BASH_REMATCH[2]%% \# *}	fail")
		elif [[ $line == *" # SKIP"* ]]; then
			s=$((s + 1))
			verdicts+=("${BASH_REMATCH[2]%% \# SKIP*}	skip")
			line=${BASH_REMATCH[2]/ \# SKIP / (skipped: }
			cases+=("$line)")
		else
			p=$((p + 1))
			verdicts+=("${BASH_REMATCH[2]}	pass")
		fi
	done
}

# A test's verdict when its exit contradicts its own KTAP: it becomes one
# failing case of its own, and its output diagnostic lines, so that the
# KTAP's counts and the closing line stay the same numbers.
broken=
judge()
{
	local rc=$1
	broken=
	if ((rc == 124 || rc == 137)); then
		broken="TIMEOUT ${TIMEOUT}s"
	elif ((rc != 0 && rc != 4 && f == 0)); then
		broken="exited $rc without a failing case"
	elif ((p + s + f == 0)); then
		broken="ran no test case"
	elif [[ ${CI:-} == true ]] && ((s > 0)); then
		broken="$s skipped; in CI a skip is a failure"
	fi
}

# since START: sets SINCE to the seconds from START (an $EPOCHREALTIME)
# to now, to a tenth ("N.N").
since()
{
	local us=$((${EPOCHREALTIME/./} - ${1/./}))
	printf -v SINCE '%d.%d' $((us / 1000000)) $((us / 100000 % 10))
}

# run_one TEST: runs TEST into $log; leaves its exit status in rc and
# its time in secs. FDS_COVERAGE=DIR (make coverage): the test runs with
# GCOV_PREFIX=DIR/gcov/NAME and FDS_COVERAGE_TEST=NAME, so that its gcov
# counts and its shell and Python traces are its own.
run_one()
{
	local cmd start
	if [[ $1 == *.sh ]]; then
		cmd=(bash "$1")
	else
		cmd=("$1")
	fi
	# make coverage (scripts/coverage.sh): each test's counts apart
	if [[ -n ${FDS_COVERAGE:-} ]]; then
		local -x GCOV_PREFIX=$FDS_COVERAGE/gcov/$name FDS_COVERAGE_TEST=$name
	fi
	start=$EPOCHREALTIME
	FDS_PRIVATE_NS=1 timeout --kill-after=10 "$TIMEOUT" \
		unshare --mount --propagation private "${cmd[@]}" < /dev/null > "$log" 2>&1
	rc=$?
	since "$start"
	secs=${SINCE}s
}

# lane_file K: lane K's copy of the runner's output.
lane_file()
{
	if (($1 == 1)); then
		echo "$results/kselftest.ktap"
	else
		echo "$results/kselftest.$1.ktap"
	fi
}

# read_weights: weight[TEST], tenths of a second, from $FDS_GUEST_SECONDS
# (default tests/data/guest-seconds): a header "test LABEL..." naming a
# column per kernel, then each test's seconds in each ("-": not measured).
# A guest plans by its own kernel's column (FDS_LABEL, which make check-vm
# sets to the matrix column it boots), anything else (or a "-" there) by a
# test's mean over the columns; a test with no figure counts 1 s.
read_weights()
{
	local file=${FDS_GUEST_SECONDS:-$TOP/tests/data/guest-seconds} name s col=-1 sum n i own
	local -a cols=() figs=() row=()
	while read -ra row; do
		name=${row[0]:-}
		[[ -z $name || $name == \#* ]] && continue
		if [[ $name == test ]]; then
			cols=("${row[@]:1}")
			for ((i = 0; i < ${#cols[@]}; i++)); do
				[[ ${cols[i]} == "${FDS_LABEL:-}" ]] && col=$i
			done
			continue
		fi
		((${#cols[@]})) || die "$file: $name comes before the header line \"test LABEL...\""
		figs=("${row[@]:1}")
		((${#figs[@]} == ${#cols[@]})) ||
			die "$file: $name: ${#figs[@]} figures for ${#cols[@]} kernels"
		sum=0 n=0 own=''
		for ((i = 0; i < ${#figs[@]}; i++)); do
			s=${figs[i]}
			[[ $s == - ]] && continue
			[[ $s == +([0-9]).[0-9] ]] || die "$file: $name: not N.N seconds: $s"
			s=$((10#${s/./}))
			((i == col)) && own=$s
			sum=$((sum + s)) n=$((n + 1))
		done
		if [[ -n $own ]]; then
			weight[$name]=$own
		elif ((n)); then
			weight[$name]=$((sum / n))
		fi
	done < "$file"
}

# plan_lanes N: the tests into N lanes, longest first (read_weights) onto
# the lane with the fewest seconds so far; each lane keeps the tests' own
# order. Leaves lane_tests[K] (K from 1), the tests of lane K separated by
# spaces.
plan_lanes()
{
	local n=$1 t k best i w count=${#tests[@]}
	local -A weight=() lane_of=()
	local -a load=() order=() ow=()
	read_weights
	for ((k = 1; k <= n; k++)); do
		load[k]=0 lane_tests[k]=''
	done
	# tenths of a second; heaviest first (a selection: few tests), each
	# test's weight looked up once (ow[i] is order[i]'s)
	order=("${tests[@]}")
	for ((i = 0; i < count; i++)); do
		t=${order[i]##*/}
		ow[i]=${weight[$t]:-10}
	done
	for ((i = 0; i < count; i++)); do
		best=$i
		for ((k = i + 1; k < count; k++)); do
			((ow[k] > ow[best])) && best=$k
		done
		t=${order[best]} order[best]=${order[i]} order[i]=$t
		w=${ow[best]} ow[best]=${ow[i]} ow[i]=$w
		best=1
		for ((k = 2; k <= n; k++)); do
			((load[k] < load[best])) && best=$k
		done
		lane_of[$t]=$best
		load[best]=$((load[best] + w))
	done
	for t in "${tests[@]}"; do
		k=${lane_of[$t]}
		lane_tests[k]+=" $t"
	done
}

# keep_lane FILE [print]: the runner's output, from stdin, into FILE (and
# to stdout with "print"); each test's seconds, from the runner's
# "# selftests:" line to its result line, into $logdir/TEST.secs.
keep_lane()
{
	local line start=$EPOCHREALTIME re='^(not )?ok [0-9]+ selftests: fds_example: ([^ ]+)'
	while IFS= read -r line || [[ -n $line ]]; do
		printf '%s\n' "$line" >&3
		[[ -n ${2:-} ]] && printf '%s\n' "$line"
		if [[ $line == "# selftests: fds_example: "* ]]; then
			start=$EPOCHREALTIME
		elif [[ $line == ?(not )"ok "* && $line =~ $re ]]; then
			since "$start"
			echo "$SINCE" > "$logdir/${BASH_REMATCH[2]}.secs"
		fi
	done 3> "$1"
}

# run_kselftest: the kernel's runner runs the tests; its output, printed
# as it comes, is $results/kselftest.ktap (with lanes, see above).
run_kselftest()
{
	local args=(-c fds_example) t lanes=${FDS_LANES:-1} k
	local -a pid=()
	local -a lane_tests=()
	[[ $lanes =~ ^[1-9][0-9]*$ ]] || die "FDS_LANES=$lanes: not a number of lanes"
	((lanes > ${#tests[@]})) && lanes=${#tests[@]}
	rm -f "$results"/kselftest.*.ktap
	if ((lanes > 1)); then
		plan_lanes "$lanes"
	elif [[ -n $pattern || -n ${FDS_SHARD:-} ]] || ((${#left_out[@]})); then
		lane_tests[1]=${tests[*]}
	fi
	for ((k = lanes; k >= 1; k--)); do
		if [[ -n ${lane_tests[k]:-} ]]; then
			args=()
			for t in ${lane_tests[k]}; do
				args+=(-t "fds_example:$t")
			done
		fi
		[[ -n ${TEST_TIMEOUT:-} ]] && args+=(-o "$TEST_TIMEOUT")
		if ((k > 1)); then
			"$FDS_KSELFTEST/run_kselftest.sh" "${args[@]}" < /dev/null 2>&1 |
				keep_lane "$(lane_file "$k")" &
			pid[k]=$!
		else
			"$FDS_KSELFTEST/run_kselftest.sh" "${args[@]}" < /dev/null 2>&1 |
				keep_lane "$(lane_file 1)" print
		fi
	done
	for ((k = 2; k <= lanes; k++)); do
		wait "${pid[k]}"
		printf '%s\n' "# lane $k of $lanes:"
		cat "$(lane_file "$k")"
	done
}

# split_kselftest FILE: each test's share of the runner's output in FILE, between its
# "# selftests: fds_example: TEST" line and its result line, without the
# runner's "# " prefix, into $logdir/NAME.log (NAME: TEST without .sh, the
# log run_one would write); the exit status its verdict names into
# $logdir/TEST.rc (ok 0, SKIP 4, TIMEOUT 124, exit=N N).
# Builtins only: it reads every line of the run.
split_kselftest()
{
	local line name out=-1 rc lines re='^(not )?ok [0-9]+ selftests: fds_example: ([^ ]+)( # (.*))?$'
	mapfile -t lines < "$1"
	for line in "${lines[@]}"; do
		if [[ $line == "# selftests: fds_example: "* ]]; then
			((out < 0)) || exec {out}>&-
			name=${line##* }
			exec {out}> "$logdir/${name%.sh}.log"
		elif [[ $line == ?(not )"ok "* && $line =~ $re ]]; then
			rc=0
			case ${BASH_REMATCH[4]} in
			SKIP*) rc=4 ;;
			TIMEOUT*) rc=124 ;;
			exit=*) rc=${BASH_REMATCH[4]#exit=} ;;
			*) [[ -n ${BASH_REMATCH[1]} ]] && rc=1 ;;
			esac
			echo "$rc" > "$logdir/${BASH_REMATCH[2]}.rc"
			((out < 0)) || exec {out}>&-
			out=-1
		elif ((out >= 0)) && [[ $line == "#" ]]; then
			echo >&"$out"
		elif ((out >= 0)); then
			printf '%s\n' "${line#\# }" >&"$out"
		fi
	done
	((out < 0)) || exec {out}>&-
}

# from_kselftest TEST: TEST's share of the runner's output, in $log as
# run_one leaves a test's; kselftest.counts gets its verdict.
from_kselftest()
{
	rc=1 secs="no result line"
	[[ -f $logdir/$1.secs ]] && read -r secs < "$logdir/$1.secs" && secs+=s
	if [[ -f $logdir/$1.rc ]]; then
		read -r rc < "$logdir/$1.rc"
	else
		echo "no result line for $1 from run_kselftest.sh" > "$log"
	fi
	case $rc in
	0) ks_pass=$((ks_pass + 1)) ;;
	4) ks_skip=$((ks_skip + 1)) ;;
	*) ks_fail=$((ks_fail + 1)) ;;
	esac
}

# FDS_SHARD=K/N (make check-vm: guest K of the N that share a kernel's
# suite): the tests planned into N lanes as above, lane K's only.
shard_note=()
if [[ -n ${FDS_SHARD:-} ]]; then
	if [[ ! $FDS_SHARD =~ ^([1-9][0-9]*)/([1-9][0-9]*)$ ]] ||
	   ((BASH_REMATCH[1] > BASH_REMATCH[2])); then
		die "FDS_SHARD=$FDS_SHARD: not K/N with 1 <= K <= N"
	fi
	shard=${BASH_REMATCH[1]} shards=${BASH_REMATCH[2]}
	lane_tests=()
	plan_lanes "$shards"
	read -ra tests <<< "${lane_tests[shard]}"
	((${#tests[@]})) || die "FDS_SHARD=$FDS_SHARD: no test falls to this shard"
	shard_note=("# shard $shard of $shards: the other tests run in other guests")
fi

if [[ -n ${FDS_KSELFTEST:-} ]]; then
	rm -f "$results/kselftest.counts"
	run_kselftest
	for f in "$results"/kselftest.ktap "$results"/kselftest.*.ktap; do
		[[ -f $f ]] && split_kselftest "$f"
	done
	ks_pass=0 ks_fail=0 ks_skip=0
fi

emit "KTAP version 1" "${shard_note[@]}"
((${#left_out[@]})) &&
	emit "# kernel-independent, left out in this guest (make check runs them): ${left_out[*]}"
emit "1..${#tests[@]}"
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=${t##*/}
	name=${name%.sh}
	log=$logdir/$name.log
	if [[ -n ${FDS_KSELFTEST:-} ]]; then
		from_kselftest "$t"
	else
		run_one "$t"
	fi

	count_cases "$log"
	judge "$rc"
	if [[ -n $broken ]]; then
		mapfile -t out < "$log"
		((${#out[@]})) && out=("${out[@]/#/# }")
		emit "${out[@]}" "# $name: ${secs}"
		if [[ $broken == TIMEOUT* ]]; then
			emit "not ok $n $name # $broken"
		else
			emit "# $name: $broken" "not ok $n $name"
		fi
		echo "$name: $broken" >> "$results/failures"
		printf '%s\t%s\tfail\n' "$name" "$name" >> "$results/cases"
		p=0 s=0 f=1
	else
		mapfile -t out < "$log"
		((${#out[@]})) && out=("${out[@]/#/  }")
		emit "${out[@]}" "  # $name: ${secs}"
		if ((f > 0)); then
			emit "not ok $n $name"
		elif ((p == 0)); then
			emit "ok $n $name # SKIP all cases skipped"
		else
			emit "ok $n $name"
		fi
		((${#cases[@]})) && printf '%s\n' "${cases[@]/#/$name: }" >> "$results/failures"
		((${#verdicts[@]})) && printf '%s\n' "${verdicts[@]/#/$name	}" >> "$results/cases"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	# make mutate wants the first failure only
	if ((f > 0)) && [[ -n ${FDS_FAIL_FAST:-} ]]; then
		stopped_early=1
		break
	fi
done
echo "$pass $fail $skip" > "$results/counts"
[[ -n ${FDS_KSELFTEST:-} ]] && echo "$ks_pass $ks_fail $ks_skip" > "$results/kselftest.counts"

# The host's column of the kernel matrix, and the KTAP read by the kernel's
# own parser, when every test ran natively.
if [[ -n ${whole_native_run:-} && -z ${stopped_early:-} ]]; then
	if [[ ${MATRIX_UPDATE:-} == 1 ]]; then
		"$TOP/scripts/matrix.py" update "host=$results" || fail=$((fail + 1))
	else
		"$TOP/scripts/matrix.py" check "host=$results" || fail=$((fail + 1))
	fi
	"$TOP/scripts/ktap_check.py" "$results" || fail=$((fail + 1))
fi

echo "$pass passed, $fail failed, $skip skipped"
((fail == 0))
