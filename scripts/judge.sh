#!/usr/bin/env bash
# judge.sh [--ktap] CMD [ARG...]: runs a test runner, CMD, and judges it by
# what it printed as well as by its exit status, so that no runner judges
# only itself (make check runs tests/run.sh through it). CMD's stdout, where
# a runner prints its verdict (KTAP goes to stdout too), is passed through
# as it comes and kept for the judging; its stderr goes by untouched.
# Exits with CMD's status when that is not 0; else 1 when its stdout has no
# closing line ("N passed, N failed...", perhaps behind one word and a
# colon: "mutate: 3 passed, 0 failed"), or the last one counts failures,
# or, with --ktap (for a runner whose own counting may be broken, as under
# make mutate), a line at any indentation is a failing KTAP result ("not ok
# " without a "# SKIP" directive); else 0. Every failure says why on
# stderr, in one line that starts "judge: ".
# Sourced, it runs nothing: .ci/run's tally reads a suite's closing line
# with its closing_line, one rule for both.

# The closing line: anchored, so a test's own counts, nested in the
# runner's output with an indent or a "# ", are never taken for it.
CLOSING_RE='^([[:alnum:]_.-]+: )?([0-9]+) passed, ([0-9]+) failed'

# closing_line LINE: whether LINE is a closing line; if so, its counts in
# closed_passed and closed_failed. (A glob first: bash compiles the regex
# at every =~, and a runner's output has thousands of lines.)
closing_line()
{
	[[ $1 == *" passed, "* && $1 =~ $CLOSING_RE ]] || return 1
	# shellcheck disable=SC2034 # read by .ci/run's tally
	closed_passed=${BASH_REMATCH[2]} closed_failed=${BASH_REMATCH[3]}
}

# ktap_failure LINE: whether LINE is a failing KTAP result, at any depth.
ktap_failure()
{
	[[ $1 == *([[:space:]])"not ok "* && $1 != *"# SKIP"* ]]
}

# judge_output FILE KTAP: sets why to the reason FILE's lines fail (empty
# when they pass); KTAP 1 looks for failing results too.
judge_output()
{
	local lines line closing='' failure=''
	mapfile -t lines < "$1"
	for line in "${lines[@]}"; do
		closing_line "$line" && closing=$line
		[[ $2 == 1 && -z $failure ]] && ktap_failure "$line" && failure=$line
	done
	why=
	if [[ -z $closing ]]; then
		why="no closing line (\"N passed, N failed\") in its output"
	elif closing_line "$closing" && ((closed_failed > 0)); then
		why="it exited 0, but its closing line says: $closing"
	elif [[ -n $failure ]]; then
		why="its closing line says \"$closing\", but it printed a KTAP failure: $failure"
	fi
}

judge_main()
{
	local ktap=0 statuses why
	set -u
	if [[ ${1:-} == --ktap ]]; then
		ktap=1
		shift
	fi
	if (($# == 0)); then
		echo "usage: judge.sh [--ktap] CMD [ARG...]" >&2
		exit 2
	fi
	judge_out=$(mktemp "${TMPDIR:-/tmp}/judge.XXXXXX") || exit 1
	trap 'rm -f "$judge_out"' EXIT
	# a signal (timeout's TERM) ends it through the EXIT trap too
	trap 'exit 143' TERM
	trap 'exit 130' INT
	"$@" | tee "$judge_out"
	statuses=("${PIPESTATUS[@]}")
	if ((statuses[0] != 0)); then
		echo "judge: $1 exited with status ${statuses[0]}" >&2
		exit "${statuses[0]}"
	fi
	# a verdict on output that was not all kept would be no verdict
	if ((statuses[1] != 0)); then
		echo "judge: could not keep $1's output in $judge_out" >&2
		exit 1
	fi
	judge_output "$judge_out" "$ktap"
	if [[ -n $why ]]; then
		echo "judge: $1: $why" >&2
		exit 1
	fi
	exit 0
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	judge_main "$@"
fi
