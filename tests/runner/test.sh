# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # state shared by the parts run.sh sources
# Sourced by tests/run.sh: one test run natively, in its own mount
# namespace, with the time limit TIMEOUT (tests/runner/plan.sh).

# since START: sets SINCE to the seconds from START (an $EPOCHREALTIME)
# to now, to a tenth ("N.N").
since()
{
	local us=$((${EPOCHREALTIME/./} - ${1/./}))
	printf -v SINCE '%d.%d' $((us / 1000000)) $((us / 100000 % 10))
}

# run_one TEST NAME LOG: runs TEST (a scenario or a binary) into LOG;
# leaves its exit status in rc and its time in secs. FDS_COVERAGE=DIR
# (make coverage): the test runs with GCOV_PREFIX=DIR/gcov/NAME and
# FDS_COVERAGE_TEST=NAME, so that its gcov counts and its shell and Python
# traces are its own.
run_one()
{
	local cmd start name=$2
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
		unshare --mount --propagation private "${cmd[@]}" < /dev/null > "$3" 2>&1
	rc=$?
	since "$start"
	secs=${SINCE}s
}
