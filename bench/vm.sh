#!/usr/bin/env bash
# bench/vm.sh (make bench's last part): amd64's guests timed against
# bench/baseline, and a regression of more than 20 % fails.
#   - the whole default matrix once, as make check-vm runs it (two
#     guests of one vCPU at a time on the 2-core CI machine, a kernel's
#     two sharing its suite, self-tests included): each kernel's seconds
#     from its first guest's start to its last one's verdict, and the
#     run's wall time;
#   - each kernel booted BENCH_BOOTS times (default 5) alone, to the
#     suite's start and off at once (FDS_BOOT_ONLY=1): the median seconds.
# Prints one row per figure: measured, baseline, the issue's goal where it
# has one (30 s per kernel, 120 s for the matrix: met or not, which
# decides nothing), and "ok" or
# "REGRESSED" (over 1.2 times the baseline). Exits 1 on a regression or a
# failed run.
#   BENCH_BASELINE=FILE   the baseline (default bench/baseline)
#   BENCH_UPDATE=1        write this run's figures as the baseline instead
#   BENCH_KERNELS=6.1     some kernels of the matrix only (their rows; the
#                         matrix's wall time is then not compared)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
baseline=${BENCH_BASELINE:-bench/baseline}
boots=${BENCH_BOOTS:-5}
log=build/bench-vm
mkdir -p "$log"
failed=0

declare -A boot_s=() base_boot=() base_verdict=()

# --- the matrix ------------------------------------------------------------
. bench/matrix.sh
matrix_run "$log/matrix.log"
rc=$?
if ((rc)); then
	echo "bench: make check-vm failed: $(tail -n 1 "$log/matrix.log") (see $log/matrix.log)"
	failed=1
fi
((${#M_LABELS[@]})) || { echo "bench: check-vm left no summary"; exit 1; }
# M_LABELS and M_TOTAL (bench/matrix.sh) stay this run's: the boots below
# run check-vm without matrix_run
# where the matrix's time went, read before the boots below replace it
splits=()
for label in "${M_LABELS[@]}"; do
	splits+=("$(time_split "$label")")
done
# each kernel's guests' KTAP, for write_guest_seconds
for label in "${M_LABELS[@]}"; do
	cat "build/results/$label/ktap" build/results/"$label"/shard-*/ktap > "$log/$label.ktap" 2> /dev/null
done

# --- boots -----------------------------------------------------------------
# median VALUE...: the middle one (the lower of the two middle ones).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for label in "${M_LABELS[@]}"; do
	times=()
	for ((i = 1; i <= boots; i++)); do
		rm -f "build/vm/$label.boot"
		QUIET_VM=1 VM_JOBS=1 VM_SELFTEST=0 KERNELS=$label VM_APPEND=FDS_BOOT_ONLY=1 \
			vm/check-vm.sh > "$log/boot-$label-$i.log" 2>&1
		if [[ ! -s build/vm/$label.boot || $(<"build/vm/$label.verdict") != PASS ]]; then
			echo "bench: boot $i of $label reached no suite start (see $log/boot-$label-$i.log)"
			failed=1
			continue
		fi
		times+=("$(<"build/vm/$label.boot")")
	done
	((${#times[@]})) && boot_s[$label]=$(median "${times[@]}")
done

# write_guest_seconds: tests/data/guest-seconds, by which tests/run.sh
# shares a kernel's suite out among its guests (and lanes): a column per
# kernel, from its guests' KTAP saved after the matrix ("# TEST: N.Ns"
# lines; a scenario is named with its .sh, as the kernel's runner names
# it), "-" where a kernel did not run a test. Not written when a kernel
# left no KTAP or only some kernels ran.
write_guest_seconds()
{
	local out=tests/data/guest-seconds label line name row re='^  # ([a-z0-9_]+): ([0-9]+\.[0-9])s$'
	local -A secs=() names=()
	[[ -z ${BENCH_KERNELS:-} ]] || { echo "bench: BENCH_KERNELS ran a part of the matrix: $out not rewritten"; return 0; }
	for label in "${M_LABELS[@]}"; do
		[[ -s $log/$label.ktap ]] || { echo "bench: no KTAP of $label's guests: $out not rewritten"; return 0; }
		while IFS= read -r line; do
			[[ $line =~ $re ]] || continue
			name=${BASH_REMATCH[1]}
			[[ -f tests/scenarios/$name.sh ]] && name+=.sh
			secs[$label/$name]=${BASH_REMATCH[2]} names[$name]=1
		done < "$log/$label.ktap"
	done
	{
		echo "# Each test's seconds in QEMU guests of each kernel (-cpu qemu64, under"
		echo "# TCG, two guests at once as make check-vm runs them), from the kernel"
		echo "# runner's header line to its result line: tests/run.sh shares a"
		echo "# kernel's suite out among its guests (FDS_SHARD) and lanes (FDS_LANES)"
		echo "# by its column (FDS_LABEL; another kernel by a test's mean); a test not"
		echo "# named here counts 1 s. BENCH_UPDATE=1 make bench rewrites this file"
		echo "# ($(date -u +%Y-%m-%d))."
		echo "test ${M_LABELS[*]}"
		for name in "${!names[@]}"; do
			row=$name
			for label in "${M_LABELS[@]}"; do
				row+=" ${secs[$label/$name]:--}"
			done
			echo "$row"
		done | LC_ALL=C sort
	} > "$out.new" && mv "$out.new" "$out"
	echo "bench: wrote $out"
}

# --- against the baseline --------------------------------------------------
if [[ ${BENCH_UPDATE:-} == 1 ]] && ((failed)); then
	echo "bench: a run failed: $baseline not rewritten"
elif [[ ${BENCH_UPDATE:-} == 1 ]]; then
	{
		echo "# make bench's baseline (bench/vm.sh): amd64 guests under TCG on the"
		echo "# 2-core CI machine kind, $(date -u +%Y-%m-%d). Per kernel: the median"
		echo "# seconds to the suite's start over $boots boots, and the seconds to the"
		echo "# verdict in make check-vm's default matrix; \"whole\": its wall time."
		echo "# BENCH_UPDATE=1 make bench rewrites this file."
		printf '# kernel\tboot\tverdict\n'
		for label in "${M_LABELS[@]}"; do
			printf '%s\t%s\t%s\n' "$label" "${boot_s[$label]:--}" "${M_TOTAL[$label]}"
		done
		printf 'whole\t-\t%s\n' "${M_TOTAL[whole]}"
	} > "$baseline.new" && mv "$baseline.new" "$baseline"
	echo "bench: wrote $baseline"
	write_guest_seconds
fi
if [[ ! -f $baseline ]]; then
	echo "bench: no $baseline (BENCH_UPDATE=1 make bench writes it)"
	exit 1
fi
while read -r label b v; do
	[[ $label == \#* || -z $label ]] && continue
	base_boot[$label]=$b base_verdict[$label]=$v
done < "$baseline"

# row WHAT MEASURED BASELINE GOAL: one line; a regression counts.
row()
{
	local state goal
	if [[ -z $3 || $3 == - ]]; then
		state="no baseline"
		failed=1
	elif [[ -z $2 || $2 == - ]]; then
		state="not measured"
		failed=1
	elif awk -v m="$2" -v b="$3" 'BEGIN { exit !(m > 1.2 * b) }'; then
		state="REGRESSED (over 1.2x)"
		failed=1
	else
		state=ok
	fi
	goal=$4
	if [[ $goal != - && -n $2 && $2 != - ]]; then
		awk -v m="$2" -v g="$goal" 'BEGIN { exit !(m <= g) }' && goal+=" met" || goal+=" not met"
	fi
	printf '%-34s %9s %9s %-12s  %s\n' "$1" "${2:--}" "${3:--}" "$goal" "$state"
}

echo "## Guests under TCG against $baseline (seconds; more than 1.2x the baseline fails)"
printf '%-34s %9s %9s %-12s  %s\n' figure measured baseline goal state
for label in "${M_LABELS[@]}"; do
	row "kernel $label: boot" "${boot_s[$label]:-}" "${base_boot[$label]:-}" -
	row "kernel $label: boot to verdict" "${M_TOTAL[$label]}" "${base_verdict[$label]:-}" 30
done
[[ -z ${BENCH_KERNELS:-} ]] &&
	row "whole matrix (make check-vm)" "${M_TOTAL[whole]}" "${base_verdict[whole]:-}" 120
echo
echo "## Where each guest's time went in the matrix (build/vm/KERNEL.times)"
printf '%s\n' "${splits[@]}"
((failed == 0))
