#!/usr/bin/env bash
# bench/vm.sh (make bench's guests): amd64's guests timed, each figure as
# a ratio to a reference measured in the same run on the same machine
# (bench/reference.sh's ref_guest: Debian's 6.1 booted to its panic, two
# guests at once), gated against the ratios in bench/baseline: more than
# 1.2 times the baseline's ratio fails. A machine that is slower or busier
# today slows the reference as much as the figure, so the ratio holds;
# the seconds are printed as information only.
#   - the whole default matrix BENCH_MATRIX_RUNS times (default 3), as
#     make check-vm runs it (two guests of one vCPU at a time on the
#     2-core CI machine, a kernel's two sharing its suite, self-tests
#     included), the reference measured just before each run: each
#     kernel's seconds from its first guest's start to its last one's
#     verdict, and the run's wall time, each over that run's reference,
#     the lowest ratio of the runs (the run the fewest passing loads
#     disturbed between the reference and the figure);
#   - each kernel booted BENCH_BOOTS times (default 5) alone, to the
#     suite's start and off at once (FDS_BOOT_ONLY=1): the median seconds,
#     over a reference measured just before.
# Prints one row per figure: seconds, the reference's seconds, the ratio,
# the baseline's ratio, the issue's goal in seconds where it has one (30 s
# per kernel, 120 s for the matrix: met or not, which decides nothing),
# and "ok" or "REGRESSED". Exits 1 on a regression or a failed run.
#   BENCH_BASELINE=FILE   the baseline (default bench/baseline)
#   BENCH_UPDATE=1        write this run's ratios as the baseline instead,
#                         and tests/data/guest-seconds: each test's mean
#                         over the matrix runs
#   BENCH_KERNELS=6.1     some kernels of the matrix only (their rows; the
#                         matrix's wall time is then not compared)
#   BENCH_REF_RUNS=N      runs of each reference measurement (default 3)
set -u

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
baseline=${BENCH_BASELINE:-bench/baseline}
boots=${BENCH_BOOTS:-5}
log=build/bench-vm
mkdir -p "$log"
failed=0

declare -A boot_s=() boot_ratio=() base_boot=() base_verdict=()
. bench/reference.sh

# --- the matrix ------------------------------------------------------------
. bench/matrix.sh
runs=${BENCH_MATRIX_RUNS:-3}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_MATRIX_RUNS=$runs: not a number of runs"; exit 1; }
declare -A best=() best_s=() best_ref=() all=()
rm -f "$log"/*.ktap
for ((r = 1; r <= runs; r++)); do
	ref_guest "$log" || exit 1
	ref=$REF_SECONDS
	matrix_run "$log/matrix-$r.log"
	rc=$?
	if ((rc)); then
		echo "bench: make check-vm failed: $(tail -n 1 "$log/matrix-$r.log") (see $log/matrix-$r.log)"
		failed=1
	fi
	((${#M_LABELS[@]})) || { echo "bench: check-vm left no summary (see $log/matrix-$r.log)"; exit 1; }
	for label in "${M_LABELS[@]}" whole; do
		ratio=$(ref_ratio "${M_TOTAL[$label]}" "$ref")
		all[$label]+=" ${M_TOTAL[$label]}/$ref"
		if [[ -z ${best[$label]:-} ]] ||
		   awk -v m="$ratio" -v b="${best[$label]}" 'BEGIN { exit !(m < b) }'; then
			best[$label]=$ratio best_s[$label]=${M_TOTAL[$label]} best_ref[$label]=$ref
		fi
	done
	# where the matrix's time went, read before the next run or the
	# boots below replace it: the best run's
	if [[ ${best_s[whole]} == "${M_TOTAL[whole]}" && ${best_ref[whole]} == "$ref" ]]; then
		splits=()
		for label in "${M_LABELS[@]}"; do
			splits+=("$(time_split "$label")")
		done
	fi
	# each kernel's guests' KTAP, for write_guest_seconds
	for label in "${M_LABELS[@]}"; do
		cat "build/results/$label/ktap" build/results/"$label"/shard-*/ktap > "$log/$label.$r.ktap" 2> /dev/null
	done
done

# --- boots -----------------------------------------------------------------
ref_guest "$log" || exit 1
boot_ref=$REF_SECONDS
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
	if ((${#times[@]})); then
		boot_s[$label]=$(ref_median "${times[@]}")
		boot_ratio[$label]=$(ref_ratio "${boot_s[$label]}" "$boot_ref")
	fi
done

# write_guest_seconds: tests/data/guest-seconds, by which tests/run.sh
# shares a kernel's suite out among its guests (and lanes): a column per
# kernel, from its guests' KTAP saved after each matrix run ("# TEST:
# N.Ns" lines; a scenario is named with its .sh, as the kernel's runner
# names it), each test's mean over the runs, "-" where a kernel did not
# run a test. Not written when a run of a kernel left no KTAP or only
# some kernels ran.
write_guest_seconds()
{
	local out=tests/data/guest-seconds label line name row r re='^  # ([a-z0-9_]+): ([0-9]+)\.([0-9])s$'
	local -A secs=() names=() count=()
	[[ -z ${BENCH_KERNELS:-} ]] || { echo "bench: BENCH_KERNELS ran a part of the matrix: $out not rewritten"; return 0; }
	for label in "${M_LABELS[@]}"; do
		for ((r = 1; r <= runs; r++)); do
			[[ -s $log/$label.$r.ktap ]] || { echo "bench: no KTAP of $label's guests in run $r: $out not rewritten"; return 0; }
			while IFS= read -r line; do
				[[ $line =~ $re ]] || continue
				name=${BASH_REMATCH[1]}
				[[ -f tests/scenarios/$name.sh ]] && name+=.sh
				# tenths of a second
				secs[$label/$name]=$((${secs[$label/$name]:-0} + 10#${BASH_REMATCH[2]}${BASH_REMATCH[3]}))
				count[$label/$name]=$((${count[$label/$name]:-0} + 1)) names[$name]=1
			done < "$log/$label.$r.ktap"
		done
	done
	{
		echo "# Each test's seconds in QEMU guests of each kernel (-cpu qemu64, under"
		echo "# TCG, two guests at once as make check-vm runs them), from the kernel"
		echo "# runner's header line to its result line, the mean over $runs runs of the"
		echo "# matrix: tests/run.sh shares a kernel's suite out among its guests"
		echo "# (its plan's shard=) and lanes (lanes=) by its column (label=; another"
		echo "# kernel by a test's mean); a test not named here counts 1 s."
		echo "# BENCH_UPDATE=1 make bench rewrites this file ($(date -u +%Y-%m-%d))."
		echo "test ${M_LABELS[*]}"
		for name in "${!names[@]}"; do
			row=$name
			for label in "${M_LABELS[@]}"; do
				if [[ -n ${count[$label/$name]:-} ]]; then
					# the mean, rounded to a tenth
					r=$(((secs[$label/$name] * 10 / count[$label/$name] + 5) / 10))
					row+=" $((r / 10)).$((r % 10))"
				else
					row+=" -"
				fi
			done
			echo "$row"
		done | LC_ALL=C sort
	} > "$out.new" && mv "$out.new" "$out"
	echo "bench: wrote $out"
}

# --- against the baseline --------------------------------------------------
. bench/gate.sh
vm_baseline()
{
	echo "# make bench's baseline (bench/vm.sh): amd64 guests under TCG on the"
	echo "# 2-core CI machine kind, $(date -u +%Y-%m-%d), as ratios to the"
	echo "# reference guest of the same run (bench/reference.sh). Per kernel:"
	echo "# the median seconds to the suite's start over $boots boots, and the"
	echo "# seconds to the verdict in make check-vm's default matrix, the lowest"
	echo "# ratio of $runs runs; \"whole\": its wall time. The reference took"
	echo "# ${best_ref[whole]} s in the matrix's best run, $boot_ref s before the boots."
	echo "# BENCH_UPDATE=1 make bench rewrites this file."
	printf '# kernel\tboot\tverdict\n'
	for label in "${M_LABELS[@]}"; do
		printf '%s\t%s\t%s\n' "$label" "${boot_ratio[$label]:--}" "${best[$label]}"
	done
	printf 'whole\t-\t%s\n' "${best[whole]}"
}
gate_write_baseline "$baseline" "$failed" vm_baseline && write_guest_seconds
if [[ ! -f $baseline ]]; then
	echo "bench: no $baseline (BENCH_UPDATE=1 make bench writes it)"
	exit 1
fi
while read -r label b v; do
	[[ $label == \#* || -z $label ]] && continue
	base_boot[$label]=$b base_verdict[$label]=$v
done < "$baseline"

echo "## Guests under TCG, as ratios to the reference guest of the same run (more than 1.2x the baseline's ratio fails)"
gate_header
for label in "${M_LABELS[@]}"; do
	gate_row "kernel $label: boot" "${boot_s[$label]:-}" "$boot_ref" \
		"${boot_ratio[$label]:-}" "${base_boot[$label]:-}" -
	gate_row "kernel $label: boot to verdict" "${best_s[$label]}" "${best_ref[$label]}" \
		"${best[$label]}" "${base_verdict[$label]:-}" 30
done
[[ -z ${BENCH_KERNELS:-} ]] &&
	gate_row "whole matrix (make check-vm)" "${best_s[whole]}" "${best_ref[whole]}" \
		"${best[whole]}" "${base_verdict[whole]:-}" 120
# shellcheck disable=SC2154 # bench/gate.sh sets it
((gate_failed)) && failed=1
echo
echo "## Each matrix run's seconds to the verdict / the reference's seconds before it"
for label in "${M_LABELS[@]}" whole; do
	printf '%-34s%s\n' "$label" "${all[$label]}"
done
echo
echo "## Where each guest's time went in the best run (build/vm/KERNEL.times)"
printf '%s\n' "${splits[@]}"
((failed == 0))
