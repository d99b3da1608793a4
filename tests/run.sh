#!/usr/bin/env bash
# The test runner: every scenario under tests/scenarios and every kselftest
# binary under tests/bin, each in its own mount namespace with a timeout.
# Prints KTAP, then "N passed, N failed, N skipped" over all test cases.
# With CI=true a skip is a failure. Every test's kernel-matrix rows go to
# $FDS_MATRIX_OUT (default build/matrix/host.tsv, or partial/host.tsv when
# a pattern picks some tests); after a whole native run
# scripts/matrix.sh compares them with docs/kernel-matrix.md (MATRIX_UPDATE=1
# rewrites that instead). FDS_FAIL_FAST=1 stops at the first failing test
# (make mutate). Usage: run.sh [NAME-PATTERN]
set -u

TOP=$(cd "$(dirname "$0")/.." && pwd)
# valgrind runs each fds_example some 20 times slower
if [[ ${VALGRIND:-} == 1 ]]; then
	TIMEOUT=${TEST_TIMEOUT:-900}
else
	TIMEOUT=${TEST_TIMEOUT:-120}
fi
pattern=${1:-}
pass=0 fail=0 skip=0

# The kselftest binaries are those the Makefile lists in tests/bin/tests.list;
# the helpers built next to them are not tests.
list=$TOP/tests/bin/tests.list
if [[ ! -f $list ]]; then
	echo "run.sh: no $list (run make check)" >&2
	exit 1
fi
mapfile -t kselftests < "$list"
tests=()
for t in "$TOP"/tests/scenarios/*.sh "${kselftests[@]/#/$TOP/tests/bin/}"; do
	[[ -z $pattern || ${t##*/} == *$pattern* ]] || continue
	if [[ $t != *.sh && ! -x $t ]]; then
		echo "run.sh: $t is listed but not built (run make check)" >&2
		exit 1
	fi
	tests+=("$t")
done

if ((${#tests[@]} == 0)); then
	echo "run.sh: no tests found (run make check)" >&2
	exit 1
fi

cd "$TOP" || exit 1
# Kernels before 5.11 charge every map to RLIMIT_MEMLOCK; only the memlock
# scenario wants a small limit, and it sets its own.
if ! ulimit -l unlimited 2> /dev/null; then
	echo "run.sh: cannot raise ulimit -l (no CAP_SYS_RESOURCE); kernels before 5.11 may refuse maps" >&2
fi
# A run of some tests only must not clobber the whole run's rows, which
# make matrix-update reads.
if [[ -z ${FDS_MATRIX_OUT:-} && -n $pattern ]]; then
	export FDS_MATRIX_OUT=$TOP/build/matrix/partial/host.tsv
elif [[ -z ${FDS_MATRIX_OUT:-} ]]; then
	export FDS_MATRIX_OUT=$TOP/build/matrix/host.tsv
	compare_matrix=1
fi
mkdir -p "$(dirname "$FDS_MATRIX_OUT")" && : > "$FDS_MATRIX_OUT" || exit 1
# Under SANITIZE=1 a sanitizer report must never pass for an expected exit 1.
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=87:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-exitcode=88}
logdir=$(mktemp -d "${TMPDIR:-/tmp}/fds-run.XXXXXX") || exit 1
trap 'rm -rf "$logdir"' EXIT
echo "KTAP version 1"
echo "1..${#tests[@]}"
n=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=${t##*/}
	name=${name%.sh}
	log=$logdir/$name.log
	if [[ $t == *.sh ]]; then
		cmd=(bash "$t")
	else
		cmd=("$t")
	fi
	start=$EPOCHREALTIME
	FDS_PRIVATE_NS=1 timeout --kill-after=10 "$TIMEOUT" \
		unshare --mount --propagation private "${cmd[@]}" < /dev/null > "$log" 2>&1
	rc=$?
	us=$((${EPOCHREALTIME/./} - ${start/./}))
	printf -v secs '%d.%d' $((us / 1000000)) $((us / 100000 % 10))

	# Count the test's own cases from its KTAP lines, with builtins only:
	# in a guest under TCG every exec costs tens of milliseconds.
	p=0 s=0 f=0
	while IFS= read -r line || [[ -n $line ]]; do
		printf '    %s\n' "$line"
		if [[ $line =~ ^ok\ [0-9]+ ]]; then
			if [[ $line == *" # SKIP"* ]]; then
				s=$((s + 1))
			else
				p=$((p + 1))
			fi
		elif [[ $line =~ ^not\ ok\ [0-9]+ ]]; then
			f=$((f + 1))
		fi
	done < "$log"
	echo "    # $name: ${secs}s"
	if ((rc == 124 || rc == 137)); then
		echo "    # $name: timed out after ${TIMEOUT}s"
		f=$((f + 1))
	elif ((rc != 0 && rc != 4 && f == 0)); then
		echo "    # $name: exited $rc without a failing case"
		f=$((f + 1))
	elif ((p + s + f == 0)); then
		echo "    # $name: ran no test case"
		f=$((f + 1))
	fi
	if [[ ${CI:-} == true ]] && ((s > 0)); then
		echo "    # $name: $s skipped; in CI a skip is a failure"
		f=$((f + s))
		s=0
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if ((f > 0)); then
		echo "not ok $n $name"
		# make mutate wants the first failure only
		if [[ -n ${FDS_FAIL_FAST:-} ]]; then
			rm -f "$log"
			break
		fi
	elif ((p == 0 && s > 0)); then
		echo "ok $n $name # SKIP all cases skipped"
	else
		echo "ok $n $name"
	fi
	rm -f "$log"
done
rm -rf "$logdir"

# The host's column of the kernel matrix, when every test ran.
if [[ -n ${compare_matrix:-} ]]; then
	if [[ ${MATRIX_UPDATE:-} == 1 ]]; then
		"$TOP/scripts/matrix.sh" update "host=$FDS_MATRIX_OUT" || fail=$((fail + 1))
	else
		"$TOP/scripts/matrix.sh" check "host=$FDS_MATRIX_OUT" || fail=$((fail + 1))
	fi
fi

echo "$pass passed, $fail failed, $skip skipped"
((fail == 0))
