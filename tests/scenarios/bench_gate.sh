#!/usr/bin/env bash
# make bench's verdict code (bench/gate.sh, bench/reference.sh), alone: a
# figure is judged by its ratio to the reference of its own run against
# the baseline's ratio, never by its seconds; 1.2 times the baseline's
# ratio passes and more fails; a figure without a baseline or without a
# measure fails; the references are medians of their runs, and one that
# fails is said and fails.
# kselftest: source tree only
. "$(dirname "$0")/../lib.sh"
scenario_begin

# gate ARGS...: gate_row ARGS in a subshell of the sourced file; its line
# in $T/out, "gate_failed=N" after it.
gate()
{
	(cd "$TOP" && . bench/gate.sh && gate_row "$@" && echo "gate_failed=$gate_failed") > "$T/out"
}

step "a figure twice as slow on a machine twice as slow passes: the ratio is the same" '
	gate "whole matrix" 200.0 20.0 10.00 10.00 120
	expect_out "$(printf "%-34s %9s %7s %6s %8s %-12s  %s" "whole matrix" 200.0 20.0 10.00 10.00 "120 not met" ok)" \
		"gate_failed=0"
'

step "1.2 times the baseline ratio passes, more fails, whatever the seconds" '
	gate fig 10.0 10.0 1.20 1.00 -
	expect_out "$(printf "%-34s %9s %7s %6s %8s %-12s  %s" fig 10.0 10.0 1.20 1.00 - ok)" "gate_failed=0"
	gate fig 10.0 10.0 1.21 1.00 -
	expect_out "$(printf "%-34s %9s %7s %6s %8s %-12s  %s" fig 10.0 10.0 1.21 1.00 - "REGRESSED (over 1.2x)")" \
		"gate_failed=1"
'

step "the goal in seconds is information: met or not, the state is the ratio'\''s" '
	gate fig 29.0 1.0 29.00 30.00 30
	expect_out "$(printf "%-34s %9s %7s %6s %8s %-12s  %s" fig 29.0 1.0 29.00 30.00 "30 met" ok)" "gate_failed=0"
'

step "no baseline, or nothing measured: the figure fails" '
	gate fig 10.0 10.0 1.00 - -
	expect_out "$(printf "%-34s %9s %7s %6s %8s %-12s  %s" fig 10.0 10.0 1.00 - - "no baseline")" "gate_failed=1"
	gate fig "" 10.0 "" 1.00 -
	expect_out "$(printf "%-34s %9s %7s %6s %8s %-12s  %s" fig - 10.0 - 1.00 - "not measured")" "gate_failed=1"
'

# ref ARGS...: the sourced reference code's functions in a subshell, its
# output in $T/out, its status in $status.
ref()
{
	status=0
	# shellcheck disable=SC2034 # lib.sh's expect_status reads it
	(cd "$TOP" && . bench/reference.sh && "$@") > "$T/out" 2>&1 || status=$?
}

step "a ratio has two decimals; the median of an even count is the lower middle" '
	ref ref_ratio 33 10
	expect_out 3.30
	ref ref_median 5 1 4 2
	expect_out 2
	ref ref_median 7.5 10.25 3
	expect_out 7.5
'

# (the runs faked: their seconds 2, 4, 1, so that no load on the machine
# can change the median; ref_time itself timed on a sleep)
step "a reference is the median of its runs, each timed by ref_time" '
	ref eval "n=0; ref_time() { n=\$((n + 1)); REF_ONE=\$((n * 7 % 5)); }; REF_RUNS=3; ref_repeat test true && echo \$REF_SECONDS \$n"
	expect_status 0
	expect_out "2 3"
	ref eval "ref_time sleep 0.3 && echo \$REF_ONE"
	expect_status 0
	[[ $(<"$T/out") =~ ^[0-9]+\.[0-9]$ ]] || fail "ref_time: [$(<"$T/out")]"
	awk -v t="$(<"$T/out")" "BEGIN { exit !(t >= 0.3) }" || fail "ref_time: $(<"$T/out") s for a sleep of 0.3 s"
'

step "a reference that fails says so and fails" '
	ref ref_repeat compile false
	expect_status 1
	expect_out "bench: the compile reference failed"
	ref ref_compile "$T/nowhere"
	expect_status 1
	expect_out "bench: no kernel tree at $T/nowhere"
'
# write BENCH_UPDATE FAILED: gate_write_baseline of $T/base, its writer
# printing "new", in a subshell of the sourced file; its output and
# status in $T/out, the file's content after it in $T/after.
write()
{
	echo old > "$T/base"
	(
		cd "$TOP" && . bench/gate.sh
		# shellcheck disable=SC2317 # called by gate_write_baseline
		fresh() { echo new; }
		rc=0
		BENCH_UPDATE=$1 gate_write_baseline "$T/base" "$2" fresh || rc=$?
		echo "status $rc"
	) > "$T/out"
	cp "$T/base" "$T/after"
}

step "the baseline is rewritten under BENCH_UPDATE=1 alone, and never after a failed step" '
	write 1 0
	expect_out "bench: wrote $T/base" "status 0"
	expect_lines_of "$T/after" baseline new
	[[ ! -e $T/base.new ]] || fail "base.new left behind"
	write "" 0
	expect_out "status 1"
	expect_lines_of "$T/after" baseline old
	write 1 1
	expect_out "bench: a step failed: $T/base not rewritten" "status 1"
	expect_lines_of "$T/after" baseline old
'
scenario_end
