# shellcheck shell=bash
# make bench's gate, sourced by bench/vm.sh and bench/kernel.sh: a figure
# is judged by its ratio to a reference measured in the same run
# (bench/reference.sh) against the baseline's ratio, and fails when it is
# more than 1.2 times that. Its seconds, and a goal in seconds where an
# issue set one (met or not, which decides nothing), are information.

# shellcheck disable=SC2034 # read by the scripts that source this file
gate_failed=0

gate_header()
{
	printf '%-34s %9s %7s %6s %8s %-12s  %s\n' figure seconds "ref s" ratio baseline goal state
}

# gate_row WHAT SECONDS REF RATIO BASELINE GOAL: one line; a regression, a
# figure not measured or one without a baseline sets gate_failed.
gate_row()
{
	local state goal=$6
	if [[ -z $5 || $5 == - ]]; then
		state="no baseline"
		gate_failed=1
	elif [[ -z $4 || $4 == - ]]; then
		state="not measured"
		gate_failed=1
	elif awk -v m="$4" -v b="$5" 'BEGIN { exit !(m > 1.2 * b) }'; then
		state="REGRESSED (over 1.2x)"
		gate_failed=1
	else
		state=ok
	fi
	if [[ $goal != - && -n $2 && $2 != - ]]; then
		awk -v m="$2" -v g="$goal" 'BEGIN { exit !(m <= g) }' && goal+=" met" || goal+=" not met"
	fi
	printf '%-34s %9s %7s %6s %8s %-12s  %s\n' "$1" "${2:--}" "${3:--}" "${4:--}" \
		"${5:--}" "$goal" "$state"
}

# gate_write_baseline FILE FAILED WRITER: under BENCH_UPDATE=1, FILE
# becomes what the function WRITER prints (written whole, then moved into
# place), unless FAILED is 1: then FILE stays as it was, and says so.
# Status 0 when FILE was written.
gate_write_baseline()
{
	[[ ${BENCH_UPDATE:-} == 1 ]] || return 1
	if (($2)); then
		echo "bench: a step failed: $1 not rewritten"
		return 1
	fi
	"$3" > "$1.new" && mv "$1.new" "$1" || return 1
	echo "bench: wrote $1"
}
