#!/usr/bin/env bash
# The test runner: every scenario under tests/scenarios and every kselftest
# binary under tests/bin, each in its own mount namespace with a timeout.
# Prints KTAP v1 (Documentation/dev-tools/ktap.rst): each test's own KTAP
# nested two spaces deep under its result line, then "N passed, N failed,
# N skipped" over all test cases. With CI=true a skip is a failure.
#
# What a run does (which tests, where its results go, a guest's shard and
# lanes, fail-fast, CI's strictness, the kernel's runner, the time limit)
# is its plan, a file of key=value lines (run.sh --plan FILE), read in one
# place: tests/runner/plan.sh says which keys there are, and what else a
# QEMU guest is told. The parts, each sourced from tests/runner/: plan.sh
# (the plan, the tests it picks, shards and lanes), test.sh (one test run
# natively), kselftest.sh (the kernel's runner runs them), judge.sh (a
# test's verdict) and results.sh (the KTAP and the results files).
#
# The results are files, the same natively and in a QEMU guest, in the
# plan's results directory (default build/results/host, or
# build/results/partial when a pattern picks some tests):
#   ktap        the KTAP printed, as printed
#   counts      "PASSED FAILED SKIPPED" over the test cases the KTAP shows
#   failures    one line per failing or skipped case: "TEST: STEP"
#   cases       one line per case: "TEST<TAB>STEP<TAB>pass|fail|skip" (a
#               test that broke, "TEST<TAB>TEST<TAB>fail")
#   matrix.tsv  the tests' kernel-matrix rows (matrix_record)
# After a whole native run scripts/matrix.py compares the rows with
# docs/kernel-matrix.md (MATRIX_UPDATE=1 rewrites it), and
# scripts/ktap_check.py checks the KTAP with the kernel's own parser. Each
# adds a failure to the closing line when it fails. fail_fast=1 stops at
# the first failing test (make mutate).
#
# kselftest=DIR: the kernel's runner runs the tests instead, as the
# engines run them: DIR is an installed kselftest tree (make
# kselftest-install), whose run_kselftest.sh runs them all (-c
# fds_example; or -t each test the pattern picks; the plan's timeout, if
# set, is its -o). Its output is printed as it comes and kept as
# kselftest.ktap in the results, with kselftest.counts, "PASSED FAILED
# SKIPPED" over its own verdicts (one per test); each test's share of it,
# its "# " prefix taken off, is judged as below, with the exit status the
# runner's verdict names.
# lanes=N (N > 1; make check-vm sets it to a guest's CPUs): N runners at
# once, each with a share of the tests (-t each), balanced by the seconds
# each test took in guests of this kernel (tests/runner/kselftest.sh).
# Usage: run.sh [--plan FILE] [PATTERN...]: the tests named by any PATTERN
# (and by the plan's tests), a test's name (without .sh) exactly, or else
# a part of some tests' names; none: all.
set -u

# (no dirname, nor sed below: in a guest under TCG each exec costs tens
# of milliseconds, and this runs once per guest before its first test)
here=${0%/*}
[[ $here == "$0" ]] && here=.
TOP=$(cd "$here/.." && pwd)
# shellcheck source=tests/runner/plan.sh
. "$here/runner/plan.sh" || exit 1
# shellcheck source=tests/runner/test.sh
. "$here/runner/test.sh" || exit 1
# shellcheck source=tests/runner/kselftest.sh
. "$here/runner/kselftest.sh" || exit 1
# shellcheck source=tests/runner/judge.sh
. "$here/runner/judge.sh" || exit 1
# shellcheck source=tests/runner/results.sh
. "$here/runner/results.sh" || exit 1
plan_file=
if [[ ${1:-} == --plan ]]; then
	[[ -n ${2:-} ]] || die "--plan needs a FILE"
	plan_file=$2
	shift 2
fi
plan_load "$plan_file"
plan_use "$@"
plan_tests
leave_out
# the tests' own question, answered by the plan alone: am I in a QEMU
# guest (lib.sh, some scenarios)
unset FDS_IN_VM
[[ -n $guest ]] && export FDS_IN_VM=1

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
if [[ -z $results && -n $pattern ]]; then
	results=$TOP/build/results/partial
elif [[ -z $results && -n $kselftest ]]; then
	results=$TOP/build/kselftest-results/host
	whole_native_run=1
elif [[ -z $results ]]; then
	results=$TOP/build/results/host
	whole_native_run=1
fi
results_open
# Under SANITIZE=1 a sanitizer report must never pass for an expected exit 1.
# The kernel's runner.sh starts each test under stdbuf, whose LD_PRELOAD
# comes before libasan: ASan would refuse to start (verify_asan_link_order).
export ASAN_OPTIONS=${ASAN_OPTIONS:-exitcode=86:detect_leaks=1:verify_asan_link_order=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-exitcode=87:print_stacktrace=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-exitcode=88}
logdir=$(mktemp -d "${TMPDIR:-/tmp}/fds-run.XXXXXX") || exit 1
trap 'rm -rf "$logdir"' EXIT

plan_shard
[[ -n $kselftest ]] && kselftest_run

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
	if [[ -n $kselftest ]]; then
		from_kselftest "$t"
	else
		run_one "$t" "$name" "$log"
	fi
	count_cases "$log"
	judge "$rc"
	report "$n" "$name" "$log"
	# make mutate wants the first failure only
	if ((f > 0)) && [[ -n $fail_fast ]]; then
		stopped_early=1
		break
	fi
done
results_close
[[ -n $kselftest ]] && kselftest_close

# The host's column of the kernel matrix, and the KTAP read by the kernel's
# own parser, when every test ran natively.
if [[ -n ${whole_native_run:-} && -z ${stopped_early:-} ]]; then
	if [[ $matrix_update == 1 ]]; then
		"$TOP/scripts/matrix.py" update "host=$results" || fail=$((fail + 1))
	else
		"$TOP/scripts/matrix.py" check "host=$results" || fail=$((fail + 1))
	fi
	"$TOP/scripts/ktap_check.py" "$results" || fail=$((fail + 1))
fi

echo "$pass passed, $fail failed, $skip skipped"
((fail == 0))
